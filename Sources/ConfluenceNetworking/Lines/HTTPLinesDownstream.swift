import Confluence

/// A lines subscription's subscriber, as two functions formed where its type is known.
///
/// Not an `AnySubscriber`: its box reads each value back through a pointer, which for a
/// `String` is a copy (a retain and a release of the line's storage, two atomic operations)
/// before the subscriber sees it. These functions take the line as their argument, borrowed
/// from the drain loop. On the `http-lines` benchmark the fastest repetition went from
/// 115–143 to 95–113 ns a line (Benchmarks/RESULTS.md).
struct HTTPLinesDownstream {
  /// Hands a line to the subscriber and returns the demand it adds.
  let receiveValue: (String) -> Subscribers.Demand
  /// Hands the completion to the subscriber.
  let receiveCompletion: (Subscribers.Completion<HTTPStreamError>) -> Void

  init<S: Subscriber>(_ subscriber: S) where S.Input == String, S.Failure == HTTPStreamError {
    receiveValue = { subscriber.receive($0) }
    receiveCompletion = { subscriber.receive(completion: $0) }
  }

  func receive(_ line: String) -> Subscribers.Demand { receiveValue(line) }

  func receive(completion: Subscribers.Completion<HTTPStreamError>) { receiveCompletion(completion) }
}
