import Confluence

/// One event of a publisher, as a value: an output or the completion.
///
/// ``Publisher/materialize()`` turns a publisher's events into `PublisherEvent` values, so that a
/// completion — including a failure — can travel down a pipeline as ordinary data;
/// ``Publisher/dematerialize()`` turns them back.
///
/// ```swift
/// let events = [1, 2].publisher.materialize()
/// // .output(1), .output(2), .completion(.finished)
/// ```
public enum PublisherEvent<Output, Failure: Error> {
  /// The publisher emitted a value.
  case output(Output)
  /// The publisher completed, normally or with an error.
  case completion(Subscribers.Completion<Failure>)
}

extension PublisherEvent: Equatable where Output: Equatable, Failure: Equatable {}
extension PublisherEvent: Hashable where Output: Hashable, Failure: Hashable {}
extension PublisherEvent: Sendable where Output: Sendable, Failure: Sendable {}

extension PublisherEvent: CustomStringConvertible {
  /// `output(1)`, `completion(finished)` or `completion(failure(…))`.
  public var description: String {
    switch self {
    case .output(let output): return "output(\(output))"
    case .completion(.finished): return "completion(finished)"
    case .completion(.failure(let error)): return "completion(failure(\(error)))"
    }
  }
}

/// A type that is a ``PublisherEvent``; lets ``Publisher/dematerialize()`` name the event's
/// output and failure types in a constraint.
public protocol PublisherEventConvertible<Output, Failure> {
  /// The output type of the event.
  associatedtype Output
  /// The failure type of the event.
  associatedtype Failure: Error
  /// The event itself.
  var event: PublisherEvent<Output, Failure> { get }
}

extension PublisherEvent: PublisherEventConvertible {
  /// The event itself.
  @inlinable
  public var event: PublisherEvent<Output, Failure> { self }
}
