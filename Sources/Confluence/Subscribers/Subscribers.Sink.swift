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
  /// ``cancel()`` may be called from any thread. Once the sink has finished or failed (with
  /// or without a subscription) or been cancelled, it ignores whatever still arrives and lets
  /// go of its closures, as Apple's does: a `sink { self.… }` stops keeping `self` alive.
  public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
  {
    /// The closure to execute on receipt of a value; a closure that does nothing once the
    /// sink has finished, failed or been cancelled (the sink lets go of the one it was given).
    public final var receiveValue: (Input) -> Void {
      heldHandlers()?.receiveValue ?? { _ in }
    }

    /// The closure to execute on completion; a closure that does nothing once the sink has
    /// finished, failed or been cancelled (the sink lets go of the one it was given).
    public final var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
      heldHandlers()?.receiveCompletion ?? { _ in }
    }

    /// The two closures, retained by hand (released once, by ``releaseHandlers()`` or
    /// `deinit`), so that a value calls them through a reference that costs no retain.
    @usableFromInline
    internal let handlers: Unmanaged<SinkHandlers<Input, Failure>>

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

    /// Guarded by `lock`: whether ``handlers`` was released.
    @exclusivity(unchecked)
    @usableFromInline
    internal var handlersReleased = false

    /// Whether the sink has completed or been cancelled: set by an atomic exchange (under
    /// `lock`, except at the end of a direct delivery), so that exactly one of those sees it
    /// `false`; never reset. The same as `status` being `.terminal`, except during a direct
    /// delivery, which moves `status` first and this at its end. Lets ``cancel()`` after
    /// completion (every `AnyCancellable` dropped after a finite publisher finished) return
    /// without taking the lock, and a value after the end be ignored without it.
    @usableFromInline
    internal let isTerminal = Atomic<Bool>(false)

    /// How many calls into the closures are running (more than one only when a closure
    /// makes the publisher deliver again, re-entrantly). Changed only by the thread that
    /// delivers — upstream events into a subscriber are serialised — with a plain load and
    /// store, not a read-modify-write, so a value costs no atomic instruction.
    @usableFromInline
    internal let deliveries = Atomic<Int>(0)

    /// Set once the sink has ended; whoever sees it with no delivery running releases
    /// ``handlers``: the ending call itself, or else the delivery that ends last.
    @usableFromInline
    internal let releaseRequested = Atomic<Bool>(false)

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
      handlers = .passRetained(SinkHandlers(receiveValue: receiveValue, receiveCompletion: receiveCompletion))
    }

    @inlinable
    deinit {
      // The last reference is gone: nothing else can release the closures now.
      if !handlersReleased { handlers.release() }
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
    /// A value that arrives after the sink finished, failed or was cancelled is ignored.
    @inlinable
    public final func receive(_ value: Input) -> Subscribers.Demand {
      let depth = beginDelivery()
      if !isTerminal.load(ordering: .sequentiallyConsistent) {
        handlers._withUnsafeGuaranteedRef { $0.receiveValue(value) }
      }
      endDelivery(depth)
      return .none
    }

    /// Calls `receiveCompletion`, releases the subscription, then lets go of the closures.
    /// Only the first completion counts, and none after ``cancel()``: as Apple's sink, a
    /// later one is ignored.
    @inlinable
    public final func receive(completion: Subscribers.Completion<Failure>) {
      let (wasTerminal, previous) = lock.withLock { terminate() }
      _ = consume previous  // the subscription is released outside the lock
      if wasTerminal { return }
      deliverCompletionAndLetGo(completion)
    }

    /// Cancels the subscription and lets go of the closures. Idempotent; may be called from
    /// any thread, and from inside the closures.
    ///
    /// Before a subscription has arrived there is nothing to cancel, and, as Apple's sink,
    /// this does nothing: values sent to the sink still reach `receiveValue` (the
    /// conformance suite records it: a sink whose token was dropped before its subscription
    /// arrived counts every value sent to it), and a subscription that arrives later is
    /// accepted.
    @inlinable
    public final func cancel() {
      guard !isTerminal.load(ordering: .acquiring) else { return }
      let ending = lock.withLock { () -> (wasTerminal: Bool, previous: SubscriptionStatus)? in
        if case .awaitingSubscription = status { return nil }
        return terminate()
      }
      guard let (wasTerminal, previous) = ending else { return }
      previous.cancelSubscription()
      if !wasTerminal { requestRelease() }
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
      // The delivery is counted under the lock that accepts it, so that a cancel from
      // another thread (which takes the lock to end the sink) either comes first and ends
      // the sink before the value, or sees the delivery running and leaves the release to it.
      let depth = lock.withLock { () -> Int? in
        status.acceptDirectDelivery() ? beginDelivery() : nil
      }
      guard let depth else { return }
      if !isTerminal.load(ordering: .sequentiallyConsistent) {
        handlers._withUnsafeGuaranteedRef { $0.receiveValue(value) }
      }
      endDelivery(depth)
      // No lock: every move of `isTerminal` to `true` is an exchange, so exactly one of this,
      // a cancel and a completion sees `false`.
      if !isTerminal.exchange(true, ordering: .sequentiallyConsistent) {
        deliverCompletionAndLetGo(.finished)
      }
    }

    /// Moves to `.terminal`; returns whether the sink had terminated already and the status
    /// it leaves. Call with `lock` held.
    @inlinable
    internal final func terminate() -> (wasTerminal: Bool, previous: SubscriptionStatus) {
      let wasTerminal = isTerminal.exchange(true, ordering: .sequentiallyConsistent)
      return (wasTerminal, status.take())
    }

    /// Marks a call into the closures as running; returns the depth to restore.
    @inlinable
    @inline(__always)
    internal final func beginDelivery() -> Int {
      let depth = deliveries.load(ordering: .relaxed)
      deliveries.store(depth &+ 1, ordering: .sequentiallyConsistent)
      return depth
    }

    /// Marks the call as over; the outermost one releases the closures if the sink ended
    /// during it.
    @inlinable
    @inline(__always)
    internal final func endDelivery(_ depth: Int) {
      deliveries.store(depth, ordering: .releasing)
      if depth == 0, releaseRequested.load(ordering: .acquiring) {
        releaseHandlers()
      }
    }

    /// Calls `receiveCompletion` (the sink has just ended), then lets go of the closures,
    /// at once or, if this completion came from inside a value's delivery, when that ends.
    @inlinable
    internal final func deliverCompletionAndLetGo(_ completion: Subscribers.Completion<Failure>) {
      let depth = beginDelivery()
      handlers._withUnsafeGuaranteedRef { $0.receiveCompletion(completion) }
      releaseRequested.store(true, ordering: .releasing)
      endDelivery(depth)
    }

    /// Asks for the closures to be released: at once if no delivery is running, otherwise
    /// by the delivery, when it ends. A delivery counts itself in ``deliveries`` and then
    /// checks ``isTerminal``; an ending sets ``isTerminal`` and then reads ``deliveries``. All
    /// four are sequentially consistent, so (as in Dekker's protocol) at least one side sees
    /// the other's write: either the delivery sees the end and does not call the closures, or
    /// this sees the delivery counted and leaves the release to it — the closures are never
    /// released while a call into them runs, whichever thread cancels. The delivery's own
    /// ending (a release store, an acquire load) may miss a concurrent request; the closures
    /// are then released by the next delivery's end or by `deinit`, never twice
    /// (``releaseHandlers()`` takes the lock).
    @inlinable
    internal final func requestRelease() {
      releaseRequested.store(true, ordering: .sequentiallyConsistent)
      if deliveries.load(ordering: .sequentiallyConsistent) == 0 {
        releaseHandlers()
      }
    }

    /// Releases ``handlers``, once.
    @usableFromInline
    internal final func releaseHandlers() {
      let release = lock.withLock { () -> Bool in
        defer { handlersReleased = true }
        return !handlersReleased
      }
      if release { handlers.release() }
    }

    /// The closures, retained, unless they were let go of.
    @usableFromInline
    internal final func heldHandlers() -> SinkHandlers<Input, Failure>? {
      lock.withLock { handlersReleased ? nil : handlers.takeUnretainedValue() }
    }

    /// `Sink`
    public final var description: String { "Sink" }

    /// A mirror with no children.
    public final var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The same as ``description``.
    public final var playgroundDescription: Any { description }
  }
}

/// A sink's two closures, in an object of their own so that the sink can let go of them
/// while it lives on, and call them through a reference that costs no retain.
@usableFromInline
internal final class SinkHandlers<Input, Failure: Error> {
  @usableFromInline internal let receiveValue: (Input) -> Void
  @usableFromInline internal let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

  @inlinable
  internal init(
    receiveValue: @escaping (Input) -> Void, receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
  ) {
    self.receiveValue = receiveValue
    self.receiveCompletion = receiveCompletion
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
