import Synchronization

extension Publishers {
  /// A publisher that performs the specified closures when publisher events occur.
  ///
  /// Each closure runs before the event is passed on: `receiveSubscription` before the
  /// downstream subscriber gets its subscription, `receiveOutput` before it gets the value,
  /// `receiveCompletion` before it gets the completion, and `receiveRequest` and
  /// `receiveCancel` before the request or cancel goes upstream.
  ///
  /// ```swift
  /// let subscription = request
  ///   .handleEvents(receiveSubscription: { _ in
  ///     print("Network request will start")
  ///   }, receiveOutput: { _ in
  ///     print("Network request data received")
  ///   }, receiveCancel: {
  ///     print("Network request cancelled")
  ///   })
  ///   .sink { _ in }
  /// ```
  ///
  /// `receiveRequest` sees the demand the downstream subscriber requests through its
  /// subscription (not the demand it returns from `receive(_:)`). `receiveCancel` runs once,
  /// for the first cancel of a live subscription; `receiveCompletion` runs once, for the
  /// first completion, and not after a cancel.
  ///
  /// Back-pressure: passes demand through unchanged. Downstream receives the
  /// `HandleEvents` subscription, so that requests and cancellation pass through it.
  @_eagerMove
  public struct HandleEvents<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that executes when the publisher receives the subscription from the
    /// upstream publisher.
    public var receiveSubscription: ((Subscription) -> Void)?

    /// A closure that executes when the publisher receives a value from the upstream
    /// publisher.
    public var receiveOutput: ((Output) -> Void)?

    /// A closure that executes when the upstream publisher finishes normally or terminates
    /// with an error.
    public var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?

    /// A closure that executes when the downstream receiver cancels publishing.
    public var receiveCancel: (() -> Void)?

    /// A closure that executes when the publisher receives a request for more elements.
    public var receiveRequest: ((Subscribers.Demand) -> Void)?

    /// Creates a publisher that performs the specified closures when publisher events
    /// occur.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - receiveSubscription: A closure that executes when the publisher receives the
    ///     subscription from the upstream publisher.
    ///   - receiveOutput: A closure that executes when the publisher receives a value from
    ///     the upstream publisher.
    ///   - receiveCompletion: A closure that executes when the upstream publisher finishes
    ///     normally or terminates with an error.
    ///   - receiveCancel: A closure that executes when the downstream receiver cancels
    ///     publishing.
    ///   - receiveRequest: A closure that executes when the publisher receives a request
    ///     for more elements.
    @inlinable
    public init(
      upstream: Upstream,
      receiveSubscription: ((Subscription) -> Void)? = nil,
      receiveOutput: ((Output) -> Void)? = nil,
      receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
      receiveCancel: (() -> Void)? = nil,
      receiveRequest: ((Subscribers.Demand) -> Void)?
    ) {
      self.upstream = upstream
      self.receiveSubscription = receiveSubscription
      self.receiveOutput = receiveOutput
      self.receiveCompletion = receiveCompletion
      self.receiveCancel = receiveCancel
      self.receiveRequest = receiveRequest
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        HandleEventsSubscription(
          downstream: subscriber, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
          receiveCompletion: receiveCompletion, receiveCancel: receiveCancel, receiveRequest: receiveRequest))
    }
  }
}

extension Publisher {
  /// Performs the specified closures when publisher events occur.
  ///
  /// Use `handleEvents` when you want to examine elements as they progress through the
  /// stages of the publisher's lifecycle, or to perform side effects such as starting and
  /// stopping an activity indicator. Each closure runs before the event is passed on.
  ///
  /// ```swift
  /// let integers = (0...2)
  /// cancellable = integers.publisher
  ///   .handleEvents(receiveSubscription: { subs in
  ///     print("Subscription: \(subs.combineIdentifier)")
  ///   }, receiveOutput: { anInt in
  ///     print("in output handler, received \(anInt)")
  ///   }, receiveCompletion: { _ in
  ///     print("in completion handler")
  ///   }, receiveCancel: {
  ///     print("received cancel")
  ///   }, receiveRequest: { demand in
  ///     print("received demand: \(demand.description)")
  ///   })
  ///   .sink { _ in return }
  /// // Subscription: 0x…
  /// // received demand: unlimited
  /// // in output handler, received 0
  /// // in output handler, received 1
  /// // in output handler, received 2
  /// // in completion handler
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged.
  ///
  /// - Parameters:
  ///   - receiveSubscription: An optional closure that executes when the publisher
  ///     receives the subscription from the upstream publisher. Defaults to `nil`.
  ///   - receiveOutput: An optional closure that executes when the publisher receives a
  ///     value from the upstream publisher. Defaults to `nil`.
  ///   - receiveCompletion: An optional closure that executes when the upstream publisher
  ///     finishes normally or terminates with an error. Defaults to `nil`.
  ///   - receiveCancel: An optional closure that executes when the downstream receiver
  ///     cancels publishing. Defaults to `nil`.
  ///   - receiveRequest: An optional closure that executes when the publisher receives a
  ///     request for more elements. Defaults to `nil`.
  /// - Returns: A publisher that performs the specified closures when publisher events
  ///   occur.
  @inlinable
  public consuming func handleEvents(
    receiveSubscription: ((Subscription) -> Void)? = nil,
    receiveOutput: ((Output) -> Void)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
    receiveCancel: (() -> Void)? = nil,
    receiveRequest: ((Subscribers.Demand) -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    Publishers.HandleEvents(
      upstream: self,
      receiveSubscription: receiveSubscription,
      receiveOutput: receiveOutput,
      receiveCompletion: receiveCompletion,
      receiveCancel: receiveCancel,
      receiveRequest: receiveRequest)
  }
}

/// Stands between upstream and downstream for `HandleEvents`, calling the closures before
/// passing each event on; shown as `HandleEvents` with an empty mirror.
///
/// Apple's rules, as the conformance suite records them: events are always passed on (every
/// completion, values after one); the closures see them only until the subscription ends
/// (the first completion, or a cancel while subscribed) — except `receiveSubscription`,
/// which sees every subscription offered, the extra ones included (they are cancelled). A
/// demand the downstream returns from `receive(_:)` is reported as a request. A cancel
/// before the subscription is reported but not remembered.
///
/// Values pass without taking a lock (upstream serialises them); whether the subscription
/// has ended is one atomic flag, ``hasEnded``. No closure runs with the lock held.
///
/// The flag's invariant (every interleaving checked by `HandleEventsEndModel` in
/// `Tests/ConfluenceInterleavingTests`): it is set only inside `lock`, in the critical
/// section that ends `status` (the first completion, or a cancel while subscribed), and
/// never cleared; those sections read it first, so exactly one of them ends the
/// subscription and runs `receiveCompletion` or `receiveCancel`, once. The value path
/// reads it without the lock before `receiveOutput` and again before `receiveRequest`: a
/// value whose first read comes after `cancel()` returned calls neither closure (it is
/// still passed on, as Apple's are), so after a cancel has returned the closures see at
/// most the value already past its read. With `CONFLUENCE_LOCKED_FAST_PATHS` both reads
/// take `lock`.
@usableFromInline
internal final class HandleEventsSubscription<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline internal let downstream: Downstream
  @usableFromInline internal let receiveSubscription: ((Subscription) -> Void)?
  @usableFromInline internal let receiveOutput: ((Input) -> Void)?
  @usableFromInline internal let receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
  @usableFromInline internal let receiveCancel: (() -> Void)?
  @usableFromInline internal let receiveRequest: ((Subscribers.Demand) -> Void)?

  @usableFromInline
  internal let lock = Lock()

  // Guarded by `lock`.
  @usableFromInline
  internal var status = SubscriptionStatus.awaitingSubscription

  #if CONFLUENCE_LOCKED_FAST_PATHS
    /// Set when the subscription ends (guarded by `lock`).
    @usableFromInline
    @exclusivity(unchecked)
    internal var lockedHasEnded = false
  #else
    /// Set (under `lock`) when the subscription ends; read on the value path.
    @usableFromInline
    internal let hasEnded = Atomic<Bool>(false)
  #endif

  /// Whether the subscription has ended, inside `lock`; set only there.
  @inlinable
  internal var hasEndedUnderLock: Bool {
    @inline(__always) get {
      #if CONFLUENCE_LOCKED_FAST_PATHS
        lockedHasEnded
      #else
        hasEnded.load(ordering: .relaxed)
      #endif
    }
    @inline(__always) set {
      #if CONFLUENCE_LOCKED_FAST_PATHS
        lockedHasEnded = newValue
      #else
        hasEnded.store(newValue, ordering: .releasing)
      #endif
    }
  }

  /// Whether the subscription has ended, for the value path (no lock held).
  @inlinable
  @inline(__always)
  internal func readHasEnded() -> Bool {
    #if CONFLUENCE_LOCKED_FAST_PATHS
      lock.withLock { lockedHasEnded }
    #else
      hasEnded.load(ordering: .acquiring)
    #endif
  }

  @inlinable
  internal init(
    downstream: Downstream,
    receiveSubscription: ((Subscription) -> Void)?,
    receiveOutput: ((Input) -> Void)?,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?,
    receiveCancel: (() -> Void)?,
    receiveRequest: ((Subscribers.Demand) -> Void)?
  ) {
    self.downstream = downstream
    self.receiveSubscription = receiveSubscription
    self.receiveOutput = receiveOutput
    self.receiveCompletion = receiveCompletion
    self.receiveCancel = receiveCancel
    self.receiveRequest = receiveRequest
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    receiveSubscription?(subscription)
    guard lock.withLock({ status.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    // Read before `receiveOutput` runs (Benchmarks/README.md, "Long pipelines", point 10).
    let next = downstream
    guard !readHasEnded() else { return next.receive(input) }
    receiveOutput?(input)
    let more = next.receive(input)
    if more != .none, !readHasEnded() {
      receiveRequest?(more)
    }
    return more
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let released = lock.withLock { () -> SubscriptionStatus? in
      if hasEndedUnderLock { return nil }
      hasEndedUnderLock = true
      return status.take()
    }
    if released != nil {
      receiveCompletion?(completion)
    }
    _fixLifetime(released)
    downstream.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    // As Apple's: the demand, `.none` included, is reported and goes upstream unchecked.
    let (upstream, isLive) = lock.withLock { () -> (Subscription?, Bool) in
      if hasEndedUnderLock { return (nil, false) }
      return (status.subscription, true)
    }
    guard isLive else { return }
    receiveRequest?(demand)
    upstream?.request(demand)
  }

  @inlinable
  internal func cancel() {
    let (upstream, isLive) = lock.withLock { () -> (Subscription?, Bool) in
      if hasEndedUnderLock { return (nil, false) }
      guard case .subscribed = status else { return (nil, true) }
      hasEndedUnderLock = true
      return (status.terminate(), true)
    }
    guard isLive else { return }
    receiveCancel?()
    upstream?.cancel()
  }

  @usableFromInline
  internal var description: String { "HandleEvents" }

  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
