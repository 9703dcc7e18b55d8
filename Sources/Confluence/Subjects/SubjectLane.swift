import Synchronization

// The lone-subscriber lane of a subject: how a value reaches a subject's only subscriber
// with one atomic read-modify-write to take delivery ownership and one to give it up,
// instead of two round trips through the subject's lock (four read-modify-writes).
//
// Why it exists: two uncontended lock round trips would be most of a subject's per-value
// cost. A sender must still (1) never
// deliver to one subscriber from two threads at once (contract rule 5), and (2) notice
// anything that happened while it delivered (a value queued re-entrantly, a cancel, a
// completion, another thread's send waiting its turn). Taking ownership with a compare-and-exchange and
// giving it up with another one does both: the second one fails exactly when something
// happened meanwhile, and the sender then finishes through the lock as any owner does.
// Fewer read-modify-writes would need a re-entrant send to wait for the owner instead of
// queueing (a plain store cannot tell the owner that someone queued a value), which would
// deadlock. (A send from another thread that finds the lane owned does wait, through the
// lock: see `SubjectStorage.deliverAfterWaiting`.)
//
// The lane is open only when nothing but the value itself needs deciding: the subject
// keeps no current value and has not completed, it has exactly one conduit, and that
// conduit's demand is unlimited, nobody owns its delivery, nothing is queued for it and
// it is neither cancelled nor completing. Invariant (kept by `SubjectStorage`): while the
// lane is `open` or `owned`, all of that holds, and the conduit's state machine counts the
// lane as the conduit's owner (`isDelivering`). Every operation under the subject's lock
// that could change it (a send through the lock, a subscribe, a completion, a cancel) first
// closes the lane (`SubjectStorage.closeLane()`); a sender offering a value to several
// subscribers, one of which may have been left alone with its lane open since the sender
// took its snapshot, closes it when it finds that conduit owned. An `open` lane becomes
// `closed` and the conduit unowned; an `owned` lane becomes `ownedClosed`, and the sender
// that owns it stays the conduit's owner, so that the locked operation queues behind it
// exactly as behind any other owner. That sender's give-up exchange then fails, and it
// finishes through the lock. Only an owner that gives ownership up with nothing left to do,
// or a request that makes the demand unlimited, opens the lane again (under the lock).
//
// Own lanes: a subject with several subscribers gives each one with unlimited demand a
// lane of its own (`SubjectConduit.lane`), with the same four states and the same
// protocol, so that a send reaches each of them with two compare-and-exchanges instead of
// a critical section per subscriber. The
// sender's snapshot of the list keeps every conduit alive while it walks it. Invariant:
// a conduit's own lane is open or owned only while the subject has two or more
// subscribers and all the lone lane's conditions on the conduit hold; the lane then holds
// the conduit's ownership. Operations under the lock close it where they could change it:
// a send through the lock that finds the conduit owned (`SubjectStorage.offer`), the
// conduit's cancel, the completion (every conduit's), and a removal that leaves one
// subscriber (whose value then goes through the lock or the lone lane, which do not look
// at own lanes). A conduit's own lane and the lone lane are never open together: each
// opens only for an unowned conduit and makes it owned.

/// The states of a subject's lone-subscriber lane (stored in an `Atomic<UInt8>`). Bit 0 is
/// set exactly in the states a locked operation must close (`open`, `owned`), so that the
/// check costs one test.
@usableFromInline
internal enum SubjectLane {
  /// Closed: values go through the subject's lock.
  @inlinable
  internal static var closed: UInt8 { 0 }

  /// Open: a sender may take delivery ownership with one compare-and-exchange.
  @inlinable
  internal static var open: UInt8 { 1 }

  /// A sender owns delivery through the lane and is calling the subscriber.
  @inlinable
  internal static var owned: UInt8 { 3 }

  /// Closed under the lock while a sender owned delivery through it: the conduit's state
  /// machine now counts that sender as its owner, and the sender finishes through the lock
  /// (which sets `closed`).
  @inlinable
  internal static var ownedClosed: UInt8 { 2 }

  /// Whether a lane in `state` is open or owned, so that a locked operation must close it.
  @inlinable
  @inline(__always)
  internal static func needsClosing(_ state: UInt8) -> Bool {
    state & 1 != 0
  }

  /// Under the lock that guards the lane's conduit: closes `lane`, seen in state `seen`
  /// (open or owned). Returns `true` if it was open: the lane's hold on the conduit's
  /// ownership then ends, and the caller must mark the conduit unowned. (Closed while
  /// owned, the hold passes to the sender that owns the lane.)
  @inlinable
  internal static func close(_ lane: borrowing Atomic<UInt8>, seen: UInt8) -> Bool {
    var current = seen
    while needsClosing(current) {
      let closing = current == open ? closed : ownedClosed
      let (exchanged, original) = lane.compareExchange(
        expected: current, desired: closing, ordering: .acquiringAndReleasing)
      if exchanged { return current == open }
      current = original
    }
    return false
  }
}
