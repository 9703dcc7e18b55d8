import Confluence

/// One event of a publisher, as a value: an output or the completion.
///
/// ``Publisher/materialize()`` turns a publisher's events into `Signal` values, so that a
/// completion — including a failure — can travel down a pipeline as ordinary data;
/// ``Publisher/dematerialize()`` turns them back.
///
/// ```swift
/// let signals = [1, 2].publisher.materialize()
/// // .output(1), .output(2), .completion(.finished)
/// ```
public enum Signal<Output, Failure: Error> {
  /// The publisher emitted a value.
  case output(Output)
  /// The publisher completed, normally or with an error.
  case completion(Subscribers.Completion<Failure>)
}

extension Signal: Equatable where Output: Equatable, Failure: Equatable {}
extension Signal: Hashable where Output: Hashable, Failure: Hashable {}
extension Signal: Sendable where Output: Sendable, Failure: Sendable {}

extension Signal: CustomStringConvertible {
  /// `output(1)`, `completion(finished)` or `completion(failure(…))`.
  public var description: String {
    switch self {
    case .output(let output): return "output(\(output))"
    case .completion(.finished): return "completion(finished)"
    case .completion(.failure(let error)): return "completion(failure(\(error)))"
    }
  }
}

/// A type that is a ``Signal``; lets ``Publisher/dematerialize()`` name the signal's
/// output and failure types in a constraint.
public protocol SignalConvertible<Output, Failure> {
  /// The output type of the signal.
  associatedtype Output
  /// The failure type of the signal.
  associatedtype Failure: Error
  /// The signal itself.
  var signal: Signal<Output, Failure> { get }
}

extension Signal: SignalConvertible {
  /// The signal itself.
  @inlinable
  public var signal: Signal<Output, Failure> { self }
}
