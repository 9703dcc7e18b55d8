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
@_eagerMove
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
    JustSubscriptionOf<S>.subscribe(subscriber, value: output, name: "Just")
  }

  /// Hands the value and `.finished` to a sink that `sink(receiveCompletion:receiveValue:)`
  /// has just made, with no subscription in between (see `Publisher._subscribeNewSink(_:)`),
  /// unless an `_Introspection` is enabled, which must see the subscribe.
  ///
  /// - Parameter sink: A sink made by `sink(receiveCompletion:receiveValue:)`.
  @inlinable
  public func _subscribeNewSink(_ sink: Subscribers.Sink<Output, Never>) {
    handOver(output, then: .finished, toNewSink: sink)
  }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// The subscription of `Just`, `Optional.Publisher` with a value and `Result.Publisher`
/// with a success.
@usableFromInline
internal typealias JustSubscriptionOf<Downstream: Subscriber> = JustSubscription<
  Downstream, (Downstream, Downstream.Input)?
>

/// Delivers one value then `.finished` on the first non-zero request.
///
/// Use it as ``JustSubscriptionOf``: the slot parameter is always
/// `(Downstream, Downstream.Input)?`.
///
/// Built for being short-lived (one per inner publisher of `flatMap { Just($0) }`):
/// - `request(_:)` and `cancel()` usually arrive through `any Subscription`, which runs this
///   generic class's unspecialised code; both go straight to ``specialized``, a closure
///   formed in `init` (which the client specialises), so the work runs specialised.
/// - The deinit of a generic class is never specialised, and destroying a stored
///   `Downstream?` there looks up `Optional<Downstream>`'s metadata in the runtime's cache
///   on every release. Storing the optional as
///   a value of a generic *parameter* (`Slot == (Downstream, Downstream.Input)?`) lets the
///   deinit take its metadata straight from this class's own metadata; keeping the receiver
///   and the value in that one optional makes the deinit destroy one value through its
///   value witnesses instead of two (each costs a call, even when empty).
@usableFromInline
internal final class JustSubscription<Downstream: Subscriber, Slot: OptionalSlot>: Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Slot.Wrapped == (Downstream, Downstream.Input) {
  @usableFromInline
  internal let lock = Lock()

  /// The receiver and the value, until delivery or cancel (guarded by `lock`).
  /// `@exclusivity(unchecked)`: only accessed under `lock` (or in `init`), which already
  /// makes the accesses exclusive; the dynamic checks would cost two runtime calls per
  /// access.
  @exclusivity(unchecked)
  @usableFromInline
  internal var pending: Slot

  @usableFromInline
  internal let name: StaticString

  /// Runs ``requestSpecialized()`` (demand non-zero) or ``cancelSpecialized()`` (demand
  /// `.none`) in code specialised for `Downstream`. Captures nothing, so it costs no
  /// allocation.
  @usableFromInline
  internal let specialized: (JustSubscription, Subscribers.Demand) -> Void

  /// Attaches `subscriber` to a publisher of `value` alone (named `name`): hands it a
  /// subscription that delivers `value` and `.finished` on the first request.
  ///
  /// A ``Subscribers/Sink`` gets no subscription object: it would request at once, and it
  /// never shows its subscription to anyone, so it takes the value and the completion
  /// directly (`Subscribers.Sink.receiveDirectly(_:)`), which saves the allocation, the
  /// lock and the indirect calls of a subscription. Where `Downstream` is known (any
  /// specialised caller) the check costs nothing; only unspecialised generic code pays for a
  /// dynamic cast. Any other subscriber, including a sink behind an `AnySubscriber` or a
  /// debugging stand-in (`_Introspection`), gets the subscription as usual.
  @inlinable
  internal static func subscribe(_ subscriber: Downstream, value: Downstream.Input, name: StaticString) {
    if let sink = subscriber as? Subscribers.Sink<Downstream.Input, Downstream.Failure> {
      sink.receiveDirectly(value)
    } else {
      subscriber.receive(subscription: JustSubscription(value: value, downstream: subscriber, name: name))
    }
  }

  @inlinable
  internal init(value: Downstream.Input, downstream: Downstream, name: StaticString) {
    self.pending = Slot((downstream, value))
    self.name = name
    self.specialized = { subscription, demand in
      if demand == .none {
        subscription.cancelSpecialized()
      } else {
        subscription.requestSpecialized()
      }
    }
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    specialized(self, demand)
  }

  @inlinable
  internal func cancel() {
    specialized(self, .none)
  }

  @inlinable
  internal func requestSpecialized() {
    guard let (downstream, value) = lock.withLock({ pending.take() }) else { return }
    _ = downstream.receive(value)
    downstream.receive(completion: .finished)
  }

  @inlinable
  internal func cancelSpecialized() {
    let released = lock.withLock { pending.take() }
    _ = released  // dropped outside the lock
  }

  @usableFromInline
  internal var description: String { name.description }

  /// One unlabeled child, the value, until it has been delivered (Apple's).
  @usableFromInline
  internal var customMirror: Mirror {
    guard let value = lock.withLock({ pending.peek()?.1 }) else { return Mirror(self, children: [:]) }
    return Mirror(self, unlabeledChildren: CollectionOfOne(value))
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}

/// `Optional`, seen through a protocol: lets a generic class store an `Optional<T>` as a
/// value of one of its generic parameters (see ``JustSubscription``).
@usableFromInline
internal protocol OptionalSlot {
  associatedtype Wrapped
  init(_ some: Wrapped)
  /// Returns the wrapped value and leaves `nil` behind.
  mutating func take() -> Wrapped?
  /// The wrapped value, if any.
  func peek() -> Wrapped?
}

extension Optional: OptionalSlot {
  @inlinable
  internal func peek() -> Wrapped? { self }
}
