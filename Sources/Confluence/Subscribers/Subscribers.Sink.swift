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
    /// The two closures. The first stored property, so that ``letGoOfClosures()`` finds it
    /// where `_getUnsafePointerToStoredProperties` points; a `let`, so that a value calls
    /// `receiveValue` through the sink it already holds, with no retain and no lock. It is
    /// replaced, once, by closures that do nothing when the sink lets go: by whoever took
    /// the duty from ``gate``, which has ended with no call through it running, so no call
    /// into the closures runs or follows.
    @usableFromInline
    internal let closures: SinkClosures<Input, Failure>

    /// The closure to execute on receipt of a value; it does nothing once the sink has
    /// finished, failed or been cancelled (the sink lets go of the one it was given).
    ///
    /// The closure returned calls the one the sink was given through the sink, as a value
    /// would, so that it cannot run while the sink lets go of it on another thread.
    public final var receiveValue: (Input) -> Void {
      { [self] value in _ = receive(value) }
    }

    /// The closure to execute on completion; it does nothing once the sink has finished,
    /// failed or been cancelled (the sink lets go of the one it was given).
    ///
    /// Calling it calls the closure the sink was given, through the sink (so that it cannot
    /// run while the sink lets go of it on another thread); it does not end the sink.
    public final var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
      { [self] completion in
        letGoOfClosuresIfDue(gate.deliver({ closures.receiveCompletion(completion) }))
      }
    }

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

    /// Whether the sink has ended (finished, failed, cancelled), who may call the closures
    /// until then, and who lets go of them: see ``DeliveryGate``. Exactly one of a
    /// completion, a cancel and the end of a direct delivery ends it. The same as `status`
    /// being `.terminal`, except during a direct delivery, which moves `status` first and
    /// ends the gate after the value. Lets ``cancel()`` after completion (every
    /// `AnyCancellable` dropped after a finite publisher finished) return without the lock,
    /// and a value after the end be ignored without it.
    @usableFromInline
    internal let gate = DeliveryGate()

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
      closures = SinkClosures(receiveValue: receiveValue, receiveCompletion: receiveCompletion)
      assert(closuresAreWhereLetGoLooks(), "Sink.closures is not its first stored property")
    }

    /// Stores the subscription and requests `.unlimited`; a second subscription is cancelled.
    @inlinable
    public final func receive(subscription: Subscription) {
      // The section written out, and the subscription stored as its own type (`known:`
      // opens the existential): the optimiser specialises this function for the class of a
      // subscription just made and handed over (`flatMap`'s, a subject's), and then stores
      // that class reference with one retain. Through `withLock`'s closure, or stored as the
      // existential, it rebuilt the existential in memory (a retain), copied it into
      // `status` through the value witnesses (a second retain) and destroyed it (a
      // release): two atomic instructions and about 90 instructions more per sink.
      //
      // An accepted subscription also claims the delivery gate for this thread unless a
      // value delivered earlier did (a plain store: under the lock, with no subscription
      // yet, no cancel can end the gate, and no delivery runs, since a subscriber's events
      // do not overlap). Values usually arrive on the thread the subscription
      // arrived on (a request answered at once, a subject sent to by the thread that
      // subscribed); the first of them then takes the owner's path instead of claiming the
      // gate with a compare-and-exchange. One arriving on another thread takes the gate
      // over as it would from an earlier owner (`DeliveryGateInterleavingTests`, "claimed
      // at subscription").
      let hold = lock.acquire()
      let accepted = status.accept(known: subscription)
      if accepted { gate.claimUnderLock() }
      lock.release(hold)
      if accepted {
        subscription.request(.unlimited)
      } else {
        subscription.cancel()
      }
    }

    /// Calls `receiveValue` and asks for nothing more (it already asked for everything).
    /// A value that arrives after the sink finished, failed or was cancelled is ignored.
    /// Always inlined: what it adds to the closure call is a dozen instructions, fewer than
    /// a call's own prologue and epilogue.
    @inlinable
    @inline(__always)
    public final func receive(_ value: Input) -> Subscribers.Demand {
      letGoOfClosuresIfDue(gate.deliver({ closures.receiveValue(value) }))
      return .none
    }

    /// Receives the values `next` produces as one run through the delivery gate
    /// (`DeliveryGate.beginRun()`): per value, one check that the sink has not ended
    /// before `next` is asked (as the emitter checks for a cancel before it produces a
    /// value; left out when `next` runs no user code) and one before `receiveValue` (as
    /// ``receive(_:)`` does), nothing else. See
    /// `Subscriber._receiveRun(nextRunsNoUserCode:_:)`.
    ///
    /// Returns once `next` returned `nil`, or once the sink ended (a cancel from anywhere, a
    /// completion sent to it); pulls nothing if the gate cannot be run (it ended, or no
    /// thread can own it). The emitter then goes on value by value through ``receive(_:)``,
    /// which ignores what comes after the end.
    ///
    /// - Parameters:
    ///   - nextRunsNoUserCode: Whether `next` calls only the standard library's code.
    ///   - next: Produces the next value, a dropped value's placeholder, or `nil`.
    @inlinable
    @inline(__always)
    public final func _receiveRun(nextRunsNoUserCode: Bool, _ next: () -> Input??) {
      switch gate.beginRun() {
      case .running(let me):
        let receiveValue = closures.receiveValue
        while nextRunsNoUserCode || gate.isOpenInRun(for: me), let pulled = next() {
          guard let value = pulled else { continue }  // dropped on the way
          guard gate.isOpenInRun(for: me) else { break }
          receiveValue(value)
        }
        letGoOfClosuresIfDue(gate.endOwnersDelivery())
      case .declined(let releaseDuty):
        letGoOfClosuresIfDue(releaseDuty)
      }
    }

    /// Calls `receiveCompletion`, releases the subscription, then lets go of the closures.
    /// Only the first completion counts, and none after ``cancel()``: as Apple's sink, a
    /// later one is ignored.
    @inlinable
    public final func receive(completion: Subscribers.Completion<Failure>) {
      var ending = DeliveryGate.Ending.alreadyEnded
      _ = lock.withLock { () -> SubscriptionStatus in  // released outside the lock
        ending = gate.endFromUpstream()
        return status.take()
      }
      deliverCompletion(completion, ending)
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
      guard !gate.hasEnded else { return }
      // The status is the closure's result and the ending (a trivial value) comes out
      // through a local: a tuple of the two, optional or not, is copied and destroyed
      // through the runtime's value witnesses.
      var ending = DeliveryGate.Ending.alreadyEnded
      lock.withLock {
        status.takeUnlessAwaitingSubscription { ending = gate.endForCancel() }
      }.cancelSubscription()
      switch ending {
      case .releaseDuty:
        letGoOfClosures()
      case .settle(let previousOwner):
        if gate.settle(previousOwner: previousOwner) { letGoOfClosures() }
      case .alreadyEnded, .deliveryReleases:
        break
      }
    }

    /// Takes a publisher's one value and then `.finished` straight from the publisher, with
    /// no subscription object in between (see `JustSubscription.subscribe(_:value:name:)`).
    ///
    /// The same as receiving a subscription that hands over `value` and `.finished` on its
    /// first request: the sink makes that request at once, and never shows the subscription
    /// to anyone, so nothing can tell the two apart. While `value` is being delivered the
    /// sink accepts no subscription (`status` is already `.terminal`) but has not ended
    /// (the gate is open), so that, as with a real subscription, a second subscription
    /// arriving meanwhile is cancelled, and a ``cancel()`` or a completion from inside
    /// `receiveValue` ends the sink and drops the `.finished` that would have followed. A
    /// sink that already has a subscription, or has finished, receives nothing, as it would
    /// cancel the new one. Holding no subscription during the delivery, the sink has none to
    /// copy, cancel or release.
    @inlinable
    internal final func receiveDirectly(_ value: Input) {
      let accepted = lock.withLock { () -> Bool in
        guard status.acceptDirectDelivery() else { return false }
        gate.claimUnderLock()
        return true
      }
      guard accepted else { return }
      if gate.deliver({ closures.receiveValue(value) }) {
        letGoOfClosuresIfDue(true)
        return
      }
      // No lock: every end of the gate is a compare-and-exchange from an open state, so
      // exactly one of this, a cancel and a completion ends it.
      deliverCompletion(.finished, gate.endFromUpstream())
    }

    /// Takes everything a publisher that sends it all on subscription has — at most one
    /// value, then `completion` — when nothing else holds the sink: it was made by
    /// ``Publisher/sink(receiveCompletion:receiveValue:)`` and is being subscribed from
    /// there (see `Publisher._subscribeNewSink(_:)`).
    ///
    /// The same as receiving a subscription that hands over `value` and `completion` on its
    /// first request (the sink makes it at once). Nothing can happen meanwhile: the
    /// closures were written before the sink existed, so they cannot reach it, and no other
    /// code has it. So the sink takes no lock and makes no atomic read-modify-write: it
    /// calls the closures and lets go of them. It has ended when this returns; whoever gets
    /// it later (through the `AnyCancellable`) gets it through a hand-over that orders these
    /// plain writes before anything they do.
    ///
    /// - Parameters:
    ///   - value: The one value, if any.
    ///   - completion: The completion that follows it.
    @inlinable
    internal final func receiveUnshared(_ value: Input?, then completion: Subscribers.Completion<Failure>) {
      _ = status.acceptDirectDelivery()  // `.terminal`: no subscription is accepted after the end
      if let value { closures.receiveValue(value) }
      closures.receiveCompletion(completion)
      gate.endUnshared()
      letGoOfClosures()
    }

    /// Calls `receiveCompletion` unless the sink had ended already, then lets go of the
    /// closures, at once or, if this completion came from inside a value's delivery, when
    /// that delivery returns.
    @inlinable
    @inline(__always)
    internal final func deliverCompletion(_ completion: Subscribers.Completion<Failure>, _ ending: DeliveryGate.Ending)
    {
      switch ending {
      case .alreadyEnded, .settle:
        return
      case .releaseDuty:
        gate.deliverLast { closures.receiveCompletion(completion) }
        letGoOfClosures()
      case .deliveryReleases:
        gate.deliverLast { closures.receiveCompletion(completion) }
      }
    }

    /// After a delivery or a run that returned `due` (the gate ended under it and it was
    /// the outermost): lets go of the closures unless someone else took that duty.
    @inlinable
    @inline(__always)
    internal final func letGoOfClosuresIfDue(_ due: Bool) {
      if due, gate.takeReleaseDuty() { letGoOfClosures() }
    }

    /// Replaces ``closures`` by closures that do nothing and releases the ones the sink was
    /// given (which may run any deinit). Only by the one that took the duty from ``gate``:
    /// once, with no call into the closures running or to come. Inlinable so that it is
    /// specialised; where it is not, see ``letGoOfClosuresUnspecialised()``.
    @inlinable
    internal final func letGoOfClosures() {
      guard _isConcrete(Input.self) && _isConcrete(Failure.self) else {
        letGoOfClosuresUnspecialised()
        return
      }
      let storage = _getUnsafePointerToStoredProperties(self).assumingMemoryBound(
        to: SinkClosures<Input, Failure>.self)
      let given = storage.move()
      storage.initialize(to: SinkClosures(receiveValue: { _ in }, receiveCompletion: { _ in }))
      _ = consume given
    }

    /// ``letGoOfClosures()`` where the compiler did not specialise it (a debug build's
    /// `cancel()` through an `AnyCancellable`, a generic helper in another module). There
    /// the closures that do nothing, of types naming `Input` and `Failure`, captured the
    /// generic environment (two allocations), and moving ``closures`` out looked
    /// `SinkClosures<Input, Failure>` up in the runtime's cache: about 900 instructions per
    /// sink, a tenth of RxSwift's `testPublishSubjectCreating` as a debug build counts it.
    ///
    /// ``closures`` is two thick functions, a function pointer and a context each: four
    /// words whatever `Input` and `Failure` are. The contexts are moved out, and the words
    /// replaced by a function that does nothing with no context; then the contexts are
    /// released. The function is never called (no call into the closures follows), and
    /// would do nothing if it were: a function that returns nothing and ignores its
    /// arguments can stand for any that returns nothing and does not throw.
    @usableFromInline
    internal final func letGoOfClosuresUnspecialised() {
      let words = UnsafeMutableRawPointer(_getUnsafePointerToStoredProperties(self))
      let word = MemoryLayout<UnsafeRawPointer>.stride
      let valueContext = words.load(fromByteOffset: word, as: UnsafeRawPointer?.self)
      let completionContext = words.load(fromByteOffset: 3 * word, as: UnsafeRawPointer?.self)
      let doNothing: (UnsafeRawPointer) -> Void = { _ in }
      let (function, _) = unsafeBitCast(doNothing, to: (UnsafeRawPointer, UnsafeRawPointer?).self)
      words.storeBytes(of: function, toByteOffset: 0, as: UnsafeRawPointer.self)
      words.storeBytes(of: nil, toByteOffset: word, as: UnsafeRawPointer?.self)
      words.storeBytes(of: function, toByteOffset: 2 * word, as: UnsafeRawPointer.self)
      words.storeBytes(of: nil, toByteOffset: 3 * word, as: UnsafeRawPointer?.self)
      if let valueContext { Unmanaged<AnyObject>.fromOpaque(valueContext).release() }
      if let completionContext { Unmanaged<AnyObject>.fromOpaque(completionContext).release() }
    }

    /// Whether the sink let go of the closures it was given (or is letting go of them now).
    internal final var hasLetGoOfClosures: Bool {
      gate.hasReleased
    }

    /// Whether ``closures`` is where ``letGoOfClosures()`` replaces it: the first stored
    /// property of the object (checked by `init` where the module is compiled unoptimised,
    /// and by `SinkLayoutTests`).
    @usableFromInline
    internal final func closuresAreWhereLetGoLooks() -> Bool {
      // Compared a word at a time: `elementsEqual` over the bytes cost about 13,000
      // instructions per sink in an unoptimised build, where `init` runs this check.
      let storage = UnsafeRawPointer(_getUnsafePointerToStoredProperties(self))
      return withUnsafeBytes(of: closures) { bytes in
        var offset = 0
        while offset < bytes.count {
          if bytes.load(fromByteOffset: offset, as: UInt.self) != storage.load(fromByteOffset: offset, as: UInt.self) {
            return false
          }
          offset += MemoryLayout<UInt>.size
        }
        return true
      }
    }

    /// `Sink`
    public final var description: String { "Sink" }

    /// A mirror with no children.
    public final var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The same as ``description``.
    public final var playgroundDescription: Any { description }
  }
}

/// A sink's two closures, kept together as the sink's first stored property so that the sink
/// can replace them while it lives on (see `Subscribers.Sink.letGoOfClosures()`).
@usableFromInline
internal struct SinkClosures<Input, Failure: Error> {
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
  /// What a publisher that sends everything on subscription does in its
  /// `_subscribeNewSink(_:)`: hands `value` (if any) and `completion` to `sink`, which
  /// nothing else holds yet, with no subscription in between — unless an `_Introspection`
  /// is enabled, which must see the subscribe, and then subscribes it.
  ///
  /// - Parameters:
  ///   - value: The one value, if any.
  ///   - completion: The completion that follows it.
  ///   - sink: A sink made by `sink(receiveCompletion:receiveValue:)`, shared with no one yet.
  @inlinable
  @inline(__always)
  internal func handOver(
    _ value: Output?, then completion: Subscribers.Completion<Failure>,
    toNewSink sink: Subscribers.Sink<Output, Failure>
  ) {
    if _slowPath(DebugHook.isActive) {
      subscribe(sink)
    } else {
      sink.receiveUnshared(value, then: completion)
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
    receiveCompletion: __owned @escaping (Subscribers.Completion<Failure>) -> Void,
    receiveValue: __owned @escaping (Output) -> Void
  ) -> AnyCancellable {
    // The closures are taken owned and moved into the sink: borrowed, the caller's closure
    // context was retained into the sink and released after the call (two atomic
    // instructions per sink made, in `flatMap-chain-build-1` 2 of 25).
    let sink = Subscribers.Sink<Output, Failure>(
      receiveCompletion: consume receiveCompletion, receiveValue: consume receiveValue)
    _subscribeNewSink(sink)
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
  public func sink(receiveValue: __owned @escaping (Output) -> Void) -> AnyCancellable {
    sink(receiveCompletion: { _ in }, receiveValue: consume receiveValue)
  }
}
