/// A publisher that emits an output to each subscriber just once, and then finishes.
///
/// You can use a `Just` publisher to start a chain of publishers. A `Just` publisher is
/// also useful when replacing a value with ``Publishers/Catch``.
///
/// In contrast with `Result.Publisher`, a `Just` publisher can’t fail with an error. And
/// unlike `Optional.Publisher`, a `Just` publisher always produces a value.
///
/// ```swift
/// let cancellable = Just(5).sink { print($0) }   // prints 5
/// ```
///
/// Back-pressure: sends its value when the subscriber first requests a non-zero demand,
/// then finishes.
public struct Just<Output>: Publisher {
  public typealias Failure = Never

  /// The one element that the publisher emits.
  public let output: Output

  /// Initializes a publisher that emits the specified output just once.
  ///
  /// - Parameter output: The one element that the publisher emits.
  @inlinable
  public init(_ output: Output) {
    self.output = output
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    subscriber.receive(subscription: JustSubscription(value: output, downstream: subscriber))
  }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// Delivers one value then `.finished` on the first non-zero request.
///
/// Also serves `Optional.Publisher` with a value and `Result.Publisher` with a success.
@usableFromInline
internal final class JustSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  internal let lock = Lock()

  /// The value and its receiver until delivery or cancel (guarded by `lock`).
  @usableFromInline
  internal var pending: (value: Downstream.Input, downstream: Downstream)?

  @usableFromInline
  internal let name: String

  @inlinable
  internal init(value: Downstream.Input, downstream: Downstream, name: String = "Just") {
    pending = (value, downstream)
    self.name = name
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    guard let (value, downstream) = lock.withLock({ () -> (Downstream.Input, Downstream)? in
      defer { pending = nil }
      return pending
    }) else { return }
    _ = downstream.receive(value)
    downstream.receive(completion: .finished)
  }

  @inlinable
  internal func cancel() {
    let released = lock.withLock { () -> (value: Downstream.Input, downstream: Downstream)? in
      defer { pending = nil }
      return pending
    }
    _ = released  // dropped outside the lock
  }

  @usableFromInline
  internal var description: String { name }

  @usableFromInline
  internal var customMirror: Mirror {
    Mirror(self, children: ["value": lock.withLock { pending?.value } as Any])
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
