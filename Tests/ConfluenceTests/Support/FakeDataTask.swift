import Confluence
import Foundation

/// Stands in for `URLSession.DataTaskPublisher` in the book's resource-sharing examples:
/// each subscription is a "request" (counted), shows as `DataTaskPublisher`, and the test
/// decides when the response arrives. Single-threaded.
final class FakeDataTask: Publisher {
  typealias Output = Data
  typealias Failure = URLError

  private(set) var requestsStarted = 0
  private var pending: [Request] = []

  func receive<S: Subscriber>(subscriber: S) where S.Input == Data, S.Failure == URLError {
    let request = Request(
      receiveValue: { _ = subscriber.receive($0) }, receiveCompletion: { subscriber.receive(completion: $0) })
    request.onStart = { [unowned self] in
      requestsStarted += 1
      pending.append(request)
    }
    subscriber.receive(subscription: request)
  }

  /// Delivers `data` and `.finished` to every request started so far.
  func respond(with data: Data) {
    let responding = pending
    pending = []
    for request in responding where !request.isCancelled {
      request.receiveValue(data)
      request.receiveCompletion(.finished)
    }
  }

  final class Request: Subscription, CustomStringConvertible {
    let receiveValue: (Data) -> Void
    let receiveCompletion: (Subscribers.Completion<URLError>) -> Void
    var onStart: (() -> Void)?
    private(set) var isCancelled = false

    init(
      receiveValue: @escaping (Data) -> Void, receiveCompletion: @escaping (Subscribers.Completion<URLError>) -> Void
    ) {
      self.receiveValue = receiveValue
      self.receiveCompletion = receiveCompletion
    }

    func request(_ demand: Subscribers.Demand) {
      onStart?()
      onStart = nil
    }

    func cancel() { isCancelled = true }

    var description: String { "DataTaskPublisher" }
  }
}

/// One transcript of a book example: the `print` operator's lines and the example's own
/// `print` calls, in order.
final class Transcript: TextOutputStream {
  private(set) var lines: [String] = []
  private var partial = ""

  func write(_ string: String) {
    partial += string
    while let newline = partial.firstIndex(of: "\n") {
      lines.append(String(partial[..<newline]))
      partial = String(partial[partial.index(after: newline)...])
    }
  }

  /// What the example prints with `print(_:)`.
  func say(_ line: String) {
    write(line)
    write("\n")
  }
}
