import Synchronization

extension Publishers {
  /// A publisher that publishes a given sequence of elements.
  ///
  /// When the publisher exhausts the elements in the sequence, the next request causes
  /// the publisher to finish.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher.sink { print($0) }   // 1, 2, 3
  /// ```
  ///
  /// Back-pressure: emits exactly as many elements as requested, and finishes as soon as
  /// it has emitted the last one. An empty sequence finishes immediately after the
  /// subscription. With unlimited demand the elements flow in a loop that takes no lock.
  @_eagerMove
  public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
    public typealias Output = Elements.Element

    /// The sequence of elements to publish.
    public let sequence: Elements

    /// Creates a publisher for a sequence of elements.
    ///
    /// - Parameter sequence: The sequence of elements to publish.
    @inlinable
    public init(sequence: Elements) {
      self.sequence = sequence
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      var iterator = sequence.makeIterator()
      guard let first = iterator.next() else {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .finished)
        return
      }
      subscriber.receive(
        subscription: SequenceSubscription(sequence: sequence, iterator: iterator, next: first, downstream: subscriber))
    }
  }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}
extension Publishers.Sequence: Sendable where Elements: Sendable {}

extension Sequence {
  /// A publisher that emits the elements of this sequence, then finishes.
  ///
  /// ```swift
  /// let cancellable = (1...3).publisher.sink { print($0) }
  /// ```
  @inlinable
  public var publisher: Publishers.Sequence<Self, Never> {
    Publishers.Sequence(sequence: self)
  }
}

/// The subscription of ``Publishers/Sequence``.
///
/// One thread at a time emits (`isEmitting`); it takes the iterator out of the guarded
/// state for the duration and puts it back, so the iterator is never touched by two
/// threads. Requests that arrive while another thread emits (or re-entrantly from
/// `receive(_:)`) only add demand, which the emitting thread picks up.
///
/// The emitting loop checks for a cancel before each value without the lock, in one flag,
/// ``isCancelled``. Its invariant (every interleaving checked by `SequenceEmissionModel` in
/// `Tests/ConfluenceInterleavingTests`): `cancel()` sets it before anything else and nothing
/// clears it, so a value whose check comes after `cancel()` returned is not sent — only the
/// value already past its check goes on. The flag orders nothing else (whether the
/// subscription is live, its demand and the completion are decided under `lock`, where
/// `cancel()` also lets go of `downstream`), so relaxed accesses suffice: coherence alone
/// makes a load that happens after the store see it. With `CONFLUENCE_LOCKED_FAST_PATHS` the
/// loop asks `lock` instead, for each value, whether `downstream` is gone.
@usableFromInline
internal final class SequenceSubscription<Elements: Sequence, Downstream: Subscriber>:
  SequenceFieldsHolder<SequenceSubscriptionFields<Elements, Downstream>>, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Elements.Element {
  @usableFromInline
  internal let lock = Lock()

  @usableFromInline internal typealias Fields = SequenceSubscriptionFields<Elements, Downstream>

  // `fields` (in ``SequenceFieldsHolder``, see there why) is guarded by `lock`: only touched
  // with the lock held (or in `init`). `fields.sequence` is kept for `description` and the
  // mirror until the subscription finishes or is cancelled.

  // Guarded by `lock`. `@exclusivity(unchecked)`: only touched with the lock held (or in
  // `init`), which already makes every access exclusive.
  @exclusivity(unchecked) @usableFromInline internal var demand = Subscribers.Demand.none
  @exclusivity(unchecked) @usableFromInline internal var isEmitting = false

  #if !CONFLUENCE_LOCKED_FAST_PATHS
    /// Set once by `cancel()`; read without the lock by the emitting loop.
    @usableFromInline
    internal let isCancelled = Atomic<Bool>(false)
  #endif

  /// `request(_:)` usually arrives through `any Subscription` (from the downstream
  /// subscriber), which runs this generic class's unspecialised code: every element of the
  /// emitting loop would then go through value witnesses and metadata look-ups. This closure
  /// is formed in `init`, which the client module
  /// specialises along with `Publishers.Sequence.receive(subscriber:)`; calling it lands in
  /// the specialised `emit(to:)`. It captures nothing, so it costs no allocation.
  @usableFromInline
  internal let specializedRequest: (SequenceSubscription, Subscribers.Demand) -> Void

  @inlinable
  internal init(sequence: Elements, iterator: Elements.Iterator, next: Elements.Element, downstream: Downstream) {
    self.specializedRequest = { subscription, demand in subscription.requestSpecialized(demand) }
    super.init(fields: Fields(downstream: downstream, iterator: iterator, nextElement: next, sequence: sequence))
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    specializedRequest(self, demand)
  }

  /// Apple's sequence subscription ignores a request for `.none` rather than trapping.
  @inlinable
  internal func requestSpecialized(_ demand: Subscribers.Demand) {
    guard demand != .none else { return }
    let claim = lock.withLock { () -> Downstream? in
      guard let downstream = fields.downstream else { return nil }
      self.demand += demand
      if isEmitting { return nil }
      isEmitting = true
      return downstream
    }
    if let claim {
      emit(to: claim)
    }
  }

  /// Emits while there is demand. Called with `isEmitting` set by this thread.
  @inlinable
  internal func emit(to downstream: Downstream) {
    var (iterator, next, budget) = lock.withLock { () -> (Elements.Iterator?, Elements.Element?, Subscribers.Demand) in
      defer {
        fields.iterator = nil
        fields.nextElement = nil
        self.demand = .none
      }
      return (fields.iterator, fields.nextElement, self.demand)
    }
    while true {
      if budget == .unlimited {
        // Offered as one run first: a sink, directly or behind `map`/`filter`/`scan`/
        // `compactMap`/…, pulls the values with its own checks instead of its delivery gate
        // per value; any other subscriber pulls nothing. Only the sink holds this
        // subscription then (those operators pass it through), so only the sink cancels
        // it, and a cancel ends the sink before it reaches here: during the run the sink's
        // own check stands in for `isCancelled`. What the run did not pull, the loop below
        // sends value by value. The iterator is unwrapped once, not per value (a nil
        // iterator comes with a nil `next`).
        if hasBeenCancelled() { return }
        if var source = iterator.take() {
          downstream._receiveRun(nextRunsNoUserCode: Self.iterationRunsNoUserCode) {
            guard let element = next else { return nil }
            next = source.next()
            return element
          }
          while let element = next {
            if hasBeenCancelled() { return }
            next = source.next()
            _ = downstream.receive(element)
          }
        }
      } else {
        while budget > 0, let element = next {
          if hasBeenCancelled() { return }
          next = iterator!.next()
          budget -= 1
          budget += downstream.receive(element)
        }
      }
      if next == nil {
        let (finishes, released) = lock.withLock { () -> (Bool, Elements?) in
          isEmitting = false
          guard fields.downstream != nil else { return (false, nil) }
          fields.downstream = nil
          return (true, fields.sequence.take())
        }
        withExtendedLifetime(released) {}  // the sequence is released outside the lock
        if finishes {
          downstream.receive(completion: .finished)
        }
        return
      }
      // Out of budget: take what was requested meanwhile, or park the iterator.
      let more = lock.withLock { () -> Subscribers.Demand? in
        guard fields.downstream != nil else {
          isEmitting = false
          return nil
        }
        let more = budget + self.demand
        self.demand = .none
        if more == .none {
          fields.iterator = iterator
          fields.nextElement = next
          isEmitting = false
          return nil
        }
        return more
      }
      guard let more else { return }
      budget = more
    }
  }

  /// Whether iterating `Elements` calls only the standard library's code: arrays and
  /// integer ranges (see `Subscriber._receiveRun(nextRunsNoUserCode:_:)`). Decided by
  /// the types alone, so it folds to a constant where they are known.
  @inlinable
  internal static var iterationRunsNoUserCode: Bool {
    Elements.self == [Elements.Element].self || Elements.self == ContiguousArray<Elements.Element>.self
      || Elements.self == ArraySlice<Elements.Element>.self || Elements.self == Range<Int>.self
      || Elements.self == ClosedRange<Int>.self
  }

  /// The emitting loop's check for a cancel, made with no lock held.
  @inlinable
  @inline(__always)
  internal func hasBeenCancelled() -> Bool {
    #if CONFLUENCE_LOCKED_FAST_PATHS
      lock.withLock { fields.downstream == nil }
    #else
      isCancelled.load(ordering: .relaxed)
    #endif
  }

  @inlinable
  internal func cancel() {
    #if !CONFLUENCE_LOCKED_FAST_PATHS
      isCancelled.store(true, ordering: .relaxed)
    #endif
    let released = lock.withLock { () -> (Downstream?, Elements.Iterator?, Elements?) in
      defer {
        fields.downstream = nil
        fields.iterator = nil
        fields.nextElement = nil
      }
      return (fields.downstream, fields.iterator, fields.sequence.take())
    }
    _ = released  // released outside the lock
  }

  /// The sequence's own description while the subscription runs; `Sequence` once it has
  /// finished or been cancelled (Apple's).
  @usableFromInline
  internal var description: String {
    // Described outside the lock: the sequence's `description` is user code.
    guard let sequence = lock.withLock({ fields.sequence }) else { return "Sequence" }
    return String(describing: sequence)
  }

  /// One child, `sequence`: the sequence, or an empty array once the subscription has
  /// finished or been cancelled (Apple's).
  @usableFromInline
  internal var customMirror: Mirror {
    let sequence: Any = lock.withLock { fields.sequence.map { $0 as Any } } ?? [Elements.Element]()
    return Mirror(self, children: ["sequence": sequence], ancestorRepresentation: .suppressed)
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
