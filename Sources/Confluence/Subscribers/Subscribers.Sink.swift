import Synchronization

extension Subscribers {
  /// A simple subscriber that requests an unlimited number of values upon subscription.
  ///
  /// A sink calls `receiveValue` for every value and `receiveCompletion` once at the end.
  /// Usually you create one with ``Publisher/sink(receiveCompletion:receiveValue:)``, which
  /// wraps it in an ``AnyCancellable``:
  ///
  /// ```swift
  /// let sink = Subscribers.Sink<Int, Never>(
  ///   receiveCompletion: { print("completion: \($0)") },
  ///   receiveValue: { print("value: \($0)") })
  /// [1, 2].publisher.subscribe(sink)
  /// ```
  ///
  /// Back-pressure: requests `.unlimited` as soon as it receives a subscription.
  /// ``cancel()`` may be called from any thread. The closures are retained until the sink
  /// itself is released.
  public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
  {
    /// The closure to execute on receipt of a value.
    public final let receiveValue: (Input) -> Void

    /// The closure to execute on completion.
    public final let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

    @usableFromInline
    internal let lock = Lock()

    /// Guarded by `lock`. Already `.terminal` while a publisher delivers to the sink
    /// directly (``receiveDirectly(_:)``), so that no subscription is accepted meanwhile.
    /// `@exclusivity(unchecked)`: every access is inside `lock.withLock`, which already makes
    /// accesses exclusive; the dynamic exclusivity check the compiler would otherwise emit
    /// (closures over a class's stored `var`) costs two runtime calls per access on every
    /// subscription.
    @exclusivity(unchecked)
    @usableFromInline
    internal var status = SubscriptionStatus.awaitingSubscription

    /// Whether the sink has completed or been cancelled: set by an atomic exchange (under
    /// `lock`, except at the end of a direct delivery), so that exactly one of those sees it
    /// `false`; never reset. The same as `status` being `.terminal`, except during a direct
    /// delivery, which moves `status` first and this at its end. Lets ``cancel()`` after
    /// completion (every `AnyCancellable` dropped after a finite publisher finished) return
    /// without taking the lock.
    @usableFromInline
    internal let isTerminal = Atomic<Bool>(false)

    /// Initializes a sink with the provided closures.
    ///
    /// - Parameters:
    ///   - receiveCompletion: The closure to execute on completion.
    ///   - receiveValue: The closure to execute on receipt of a value.
    @inlinable
    public init(
      receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
      receiveValue: @escaping (Input) -> Void
    ) {
      self.receiveCompletion = receiveCompletion
      self.receiveValue = receiveValue
    }

    /// Stores the subscription and requests `.unlimited`; a second subscription is cancelled.
    @inlinable
    public final func receive(subscription: Subscription) {
      if lock.withLock({ status.accept(subscription) }) {
        subscription.request(.unlimited)
      } else {
        subscription.cancel()
      }
    }

    /// Calls `receiveValue` and asks for nothing more (it already asked for everything).
    @inlinable
    public final func receive(_ value: Input) -> Subscribers.Demand {
      receiveValue(value)
      return .none
    }

    /// Calls `receiveCompletion` and releases the subscription. Only the first completion
    /// counts, and none after ``cancel()``: as Apple's sink, which lets its closures go at
    /// that point, a later one is ignored.
    @inlinable
    public final func receive(completion: Subscribers.Completion<Failure>) {
      let (wasTerminal, previous) = lock.withLock { terminate() }
      _ = consume previous  // the subscription is released outside the lock
      if wasTerminal { return }
      receiveCompletion(completion)
    }

    /// Cancels the subscription, if any. Idempotent.
    @inlinable
    public final func cancel() {
      guard !isTerminal.load(ordering: .acquiring) else { return }
      lock.withLock { terminate() }.previous.cancelSubscription()
    }

    /// Takes a publisher's one value and then `.finished` straight from the publisher, with
    /// no subscription object in between (see `JustSubscription.subscribe(_:value:name:)`).
    ///
    /// The same as receiving a subscription that hands over `value` and `.finished` on its
    /// first request: the sink makes that request at once, and never shows the subscription
    /// to anyone, so nothing can tell the two apart. While `value` is being delivered the
    /// sink accepts no subscription (`status` is already `.terminal`) but has not terminated
    /// (`isTerminal` is still `false`), so that, as with a real subscription, a second
    /// subscription arriving meanwhile is cancelled, and a ``cancel()`` or a completion from
    /// inside `receiveValue` ends the sink and drops the `.finished` that would have
    /// followed. A sink that already has a subscription, or has finished, receives nothing,
    /// as it would cancel the new one. Holding no subscription during the delivery, the sink
    /// has none to copy, cancel or release.
    @inlinable
    internal final func receiveDirectly(_ value: Input) {
      let accepted = lock.withLock { status.acceptDirectDelivery() }
      guard accepted else { return }
      receiveValue(value)
      // No lock: every move of `isTerminal` to `true` is an exchange, so exactly one of this,
      // a cancel and a completion sees `false`.
      if !isTerminal.exchange(true, ordering: .acquiringAndReleasing) {
        receiveCompletion(.finished)
      }
    }

    /// Moves to `.terminal`; returns whether the sink had terminated already and the status
    /// it leaves. Call with `lock` held.
    @inlinable
    internal final func terminate() -> (wasTerminal: Bool, previous: SubscriptionStatus) {
      let wasTerminal = isTerminal.exchange(true, ordering: .acquiringAndReleasing)
      return (wasTerminal, status.take())
    }

    /// `Sink`
    public final var description: String { "Sink" }

    /// A mirror with no children.
    public final var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The same as ``description``.
    public final var playgroundDescription: Any { description }
  }
}

extension SubscriptionStatus {
  /// Moves from `.awaitingSubscription` to `.terminal` and returns `true`; in any other
  /// state returns `false` and changes nothing. (A direct delivery to a sink: see
  /// `Subscribers.Sink.receiveDirectly(_:)`.) The status is moved, not copied: a copy
  /// and the destroy that follows it would go through the existential's value witnesses.
  @inlinable
  internal mutating func acceptDirectDelivery() -> Bool {
    switch consume self {
    case .awaitingSubscription:
      self = .terminal
      return true
    case let other:
      self = other
      return false
    }
  }
}

extension Publisher {
  /// Attaches a subscriber with closure-based behavior.
  ///
  /// Use this method to create a ``Subscribers/Sink`` and attach it in one step.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3, 4, 5].publisher
  ///   .sink(receiveCompletion: { print("completion: \($0)") },
  ///         receiveValue: { print("value: \($0)") })
  /// // value: 1 … value: 5, completion: finished
  /// ```
  ///
  /// Back-pressure: requests an unlimited number of values.
  ///
  /// - Parameters:
  ///   - receiveCompletion: The closure to execute on completion.
  ///   - receiveValue: The closure to execute on receipt of a value.
  /// - Returns: A cancellable instance, which you use when you end assignment of the
  ///   received value. Deallocation of the result will tear down the subscription stream.
  @inlinable
  @inline(__always)
  public func sink(
    receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
    receiveValue: @escaping (Output) -> Void
  ) -> AnyCancellable {
    let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
    subscribe(sink)
    return AnyCancellable(sink)
  }
}

extension Publisher where Failure == Never {
  /// Attaches a subscriber with closure-based behavior to a publisher that never fails.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher.sink { print($0) }
  /// ```
  ///
  /// Back-pressure: requests an unlimited number of values.
  ///
  /// - Parameter receiveValue: The closure to execute on receipt of a value.
  /// - Returns: A cancellable instance, which you use when you end assignment of the
  ///   received value. Deallocation of the result will tear down the subscription stream.
  @inlinable
  @inline(__always)
  public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
    sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
  }
}
