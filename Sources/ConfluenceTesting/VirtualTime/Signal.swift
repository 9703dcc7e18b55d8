import Confluence

/// One event a ``TestableSubscriber`` records, or a ``TestablePublisher`` sends.
///
/// ```swift
/// let events: TestSequence<String, Never> = [(100, .input("a")), (200, .completion(.finished))]
/// ```
public enum Signal<Input, Failure: Error> {
  /// A subscription arrived (recorded by subscribers; publishers ignore it).
  case subscription
  /// A value.
  case input(Input)
  /// A completion.
  case completion(Subscribers.Completion<Failure>)
}

extension Signal: Equatable where Input: Equatable, Failure: Equatable {}

extension Signal: Sendable where Input: Sendable, Failure: Sendable {}

extension Signal: CustomStringConvertible {
  public var description: String {
    switch self {
    case .subscription: return "subscription"
    case .input(let value): return "input(\(value))"
    case .completion(.finished): return "completion(finished)"
    case .completion(.failure(let error)): return "completion(failure(\(error)))"
    }
  }
}
