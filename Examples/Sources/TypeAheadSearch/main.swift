// "Using Combine", "Declarative UI updates from user input": a search field whose text
// goes through debounce → removeDuplicates → map to a request → switchToLatest, so that a
// request goes out only when the typing pauses, never twice in a row for the same text,
// and an answer that comes after newer text is dropped.
//
// The keystrokes are simulated, and both they and the search service run on a
// VirtualTimeScheduler, so the timings (and the output) are the same on every run. In an
// app the scheduler is `DispatchQueue.main` or `RunLoop.main`, and the text comes from the
// field's `@Published` property.
import Combine
import ExampleSupport
import Foundation

let scheduler = VirtualTimeScheduler()

func log(_ message: String) {
  print(String(format: "[%.1fs] ", scheduler.elapsed) + message)
}

/// A search service that answers after 0.5 s.
func search(_ query: String) -> AnyPublisher<[String], Never> {
  let catalogue = ["combine", "combineLatest", "compactMap", "swift", "switchToLatest"]
  return Just(catalogue.filter { $0.lowercased().hasPrefix(query.lowercased()) })
    .delay(for: .milliseconds(500), scheduler: scheduler)
    .handleEvents(
      receiveSubscription: { _ in log("request \"\(query)\"") },
      receiveCancel: { log("request \"\(query)\" cancelled: newer text came") }
    )
    .eraseToAnyPublisher()
}

final class SearchField {
  @Published var text = ""
}

let field = SearchField()
let subscription = field.$text
  .dropFirst()  // the empty text the field starts with
  .debounce(for: .milliseconds(300), scheduler: scheduler)
  .removeDuplicates()
  .map { query in search(query) }
  .switchToLatest()
  .sink { results in log("results: \(results)") }

// (time in seconds, the field's text): typing "swift", a correction that ends where it
// started, then "comb" and, before its answer, "combine".
let keystrokes: [(Double, String)] = [
  (0.0, "s"), (0.1, "sw"), (0.2, "swi"), (0.3, "swift"),
  (1.2, "swif"), (1.3, "swift"),
  (2.0, "comb"), (2.4, "combine"),
]
for (time, text) in keystrokes {
  scheduler.advance(by: .milliseconds(Int(((time - scheduler.elapsed) * 1000).rounded())))
  log("typed \"\(text)\"")
  field.text = text
}
scheduler.advance(by: .seconds(2))
