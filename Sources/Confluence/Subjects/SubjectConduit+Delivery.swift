import Synchronization

extension SubjectConduit: SubjectSendingHead {
  /// A send to a subject without a current value that has two or more subscribers, in
  /// unspecialised code, called on the first of them (``SubjectConduitList/head``)
  /// inside the critical section `acquired` that `SubjectStorage.sendThroughLock(_:)` opened:
  /// the same plan as `SubjectState.plan(_:keepingCurrentValue:)` makes for several
  /// subscribers (a snapshot of the list) and the same offer to the first as
  /// `SubjectStorage.offerFirst(_:as:)` makes, then the lock released and
  /// ``deliver(_:toEach:first:of:)``. Written as a method of the conduit, for the reason
  /// ``deliver(_:toEach:first:of:)`` gives: the plan, the offer and the loop that took four
  /// look-ups of generic metadata per send in unspecialised code take none.
  @inlinable
  @inline(never)
  internal func sendAsHead(_ value: Output, releasing acquired: Lock.Hold) {
    let conduits = storage.state.conduits.many
    // Through its own lane, after the lock, if that is open.
    let first =
      lane.load(ordering: .relaxed) == SubjectLane.open ? nil : storage.offer(value, to: Unmanaged.passUnretained(self))
    storage.lock.release(acquired)
    Self.deliver(value, toEach: conduits, first: first, of: storage)
  }

  /// Offers `value` to each of `conduits`, subscribers of `storage`, in turn (the first may have been
  /// offered it already, in the critical section that planned the send), and delivers it to
  /// each that takes it.
  ///
  /// A subscriber whose own lane is open (unlimited demand, nobody delivering, nothing
  /// queued; see `SubjectLane`) is served through it: one compare-and-exchange takes
  /// delivery, one gives it up, and no critical section is needed. Any other subscriber goes
  /// through the lock, where one critical section both finishes a delivery (hands the
  /// returned demand back and gives ownership up, when nothing happened meanwhile, and opens
  /// the lane if it may) and offers the value to the next subscriber. The order of the
  /// transitions is the same as finishing and offering in two critical sections, and a
  /// delivery through the lock is finished before the next subscriber is served through
  /// its lane, so the returned demand is in place before anything else can be sent.
  ///
  /// A static method of the conduit class rather than a method of the subject's storage:
  /// called as `Self.deliver` from ``sendAsHead(_:releasing:)``, which unspecialised code runs on
  /// the first conduit, it takes the conduit type's generic metadata from that object, where
  /// a function of the storage looked it up in the runtime's cache on every send (about 400
  /// instructions), as did each of the functions that planned the send. Code specialised for
  /// the subject's types calls it by the type's name, which costs nothing there.
  @inlinable
  internal static func deliver(
    _ value: Output, toEach conduits: ContiguousArray<SubjectConduit>, first: SubjectOffer?,
    of storage: SubjectStorage<Output, Failure>
  ) {
    // `conduits`, a snapshot of the list, keeps every conduit alive until this returns.
    var finishing: Unmanaged<SubjectConduit>?
    var more = Subscribers.Demand.none
    var index = conduits.startIndex
    // The first conduit's offer, when it was made in the critical section that planned the
    // send (no delivery is being finished then).
    var offeredWhilePlanning = first
    while index < conduits.endIndex {
      let conduit = Unmanaged.passUnretained(conduits[index])
      let offered: SubjectOffer
      if let made = offeredWhilePlanning {
        offered = made
        offeredWhilePlanning = nil
      } else {
        if conduit._withUnsafeGuaranteedRef({ $0.lane.load(ordering: .relaxed) == SubjectLane.open }) {
          if let owned = finishing {
            owned._withUnsafeGuaranteedRef { $0.continueDelivery(after: more) }
            finishing = nil
          }
          if conduit._withUnsafeGuaranteedRef({ storage.sendThroughOwnLane(value, to: $0) }) {
            index += 1
            continue
          }
        }
        let (finished, result) = storage.lock.withLock { () -> (Bool, SubjectOffer) in
          if let finishing {
            guard finishing._withUnsafeGuaranteedRef({ $0.state.finishDelivery(returning: more) }) else {
              return (false, .declined)
            }
            finishing._withUnsafeGuaranteedRef { $0.forgetDeliveringThread() }
            finishing._withUnsafeGuaranteedRef { storage.openLaneIfEligible(for: $0) }
          }
          return (true, storage.offer(value, to: conduit))
        }
        if !finished {
          // Something happened during the previous delivery (a value or the completion was
          // queued, a cancel, an owed current value): see to it before the next subscriber.
          finishing.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.continueDeliveryAfterEvents(after: more) }
          finishing = nil
          continue
        }
        finishing = nil
        offered = result
      }
      switch offered {
      case .owned:
        more = conduit._withUnsafeGuaranteedRef { $0.send(value) }
        finishing = conduit
      case .declined:
        break
      case .busy:
        // This thread owns no delivery now (any previous one finished above).
        storage.deliverAfterWaiting(value, to: conduit)
      }
      index += 1
    }
    if let finishing {
      finishing._withUnsafeGuaranteedRef { $0.continueDelivery(after: more) }
    }
  }
}
