// "Combine in Action", chapter 10, "Debugging": the `print` operator (also into your own
// TextOutputStream), `handleEvents` to find a subscription that was never kept, and the
// breakpoint operators.
import Combine
import Dispatch
import ExampleSupport
import Foundation

print("-- print(_:)")
let subscription = (1...3).publisher
  .print("publisher")
  .sink { _ in }

// The book's TimeLogger prefixes each line with the time since the previous one. Those
// times change from run to run; this logger numbers the lines instead, the same way: a
// TextOutputStream that `print(_:to:)` writes each line into.
final class LineNumberLogger: TextOutputStream {
  private var count = 0

  func write(_ string: String) {
    let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { return }
    count += 1
    print("#\(count): \(string)")
  }
}

print("-- print(_:to:) with a TextOutputStream")
let logged = (1...3).publisher
  .print("publisher", to: LineNumberLogger())
  .sink { _ in }

print("-- handleEvents: the request that never answers")
let server = try ExampleServer(routes: ["/": String(repeating: "x", count: 303_094)])
let request = URLSession.shared.dataTaskPublisher(for: server.baseURL.appendingPathComponent("/"))

// The subscription is not kept: it is cancelled as soon as sink returns, so the request
// never completes. handleEvents shows it. (This request goes to a server that takes its
// time, so that the cancel always finds it in flight, as it would over a real network.)
let slowServer = try ExampleServer(routes: ["/": "{}"], delay: 1)
_ = URLSession.shared.dataTaskPublisher(for: slowServer.baseURL.appendingPathComponent("/"))
  .handleEvents(
    receiveSubscription: { _ in
      print("Network request will start")
    },
    receiveOutput: { _ in
      print("Network request data received")
    },
    receiveCancel: {
      print("Network request cancelled")
    }
  )
  .sink(
    receiveCompletion: { completion in
      print("Sink received completion: \(completion)")
    },
    receiveValue: { data, _ in
      print("Sink received data: \(data)")
    })

print("-- handleEvents: the subscription kept")
// A command-line program ends after its last line; wait for the request to complete.
// URLSession delivers on a queue of its own, so the main thread may block meanwhile.
let done = DispatchSemaphore(value: 0)
let kept =
  request
  .handleEvents(
    receiveSubscription: { _ in
      print("Network request will start")
    },
    receiveOutput: { _ in
      print("Network request data received")
    },
    receiveCancel: {
      print("Network request cancelled")
    }
  )
  .sink(
    receiveCompletion: { completion in
      print("Sink received completion: \(completion)")
      done.signal()
    },
    receiveValue: { data, _ in
      print("Sink received data: \(data)")
    })
done.wait()

print("-- breakpointOnError() and breakpoint(receiveOutput:)")
// Both raise SIGTRAP when their condition holds: under a debugger (lldb) the program stops
// there; without one, the signal ends it. Here no error comes and no value is between 10
// and 15, so the values go through untouched.
enum ExampleError: Error { case unexpected }
let checked = (1...5).publisher
  .setFailureType(to: ExampleError.self)
  .breakpointOnError()
  .breakpoint(receiveOutput: { value in
    return value > 10 && value < 15
  })
  .sink(
    receiveCompletion: { print("completion: \($0)") },
    receiveValue: { print("value: \($0)") })
