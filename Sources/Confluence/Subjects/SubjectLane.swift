import Synchronization

// The lone-subscriber lane of a subject: how a value reaches a subject's only subscriber
// with one atomic read-modify-write to take delivery ownership and one to give it up,
// instead of two round trips through the subject's lock (four read-modify-writes).
//
// Why it exists: two uncontended lock round trips would be most of a subject's per-value
// cost. (Since the subject's lock is biased to the thread that made it, that thread's round
// trips take no atomic instruction; the lane still pays for itself there once bound, below:
// a lone subscriber's value through the lock is 226 instructions, through a bound lane 94.
// For a subscription that gets one value, the open lane's three compare-and-exchanges are a
// cost the lock would not have had; Benchmarks/RESULTS.md, thirty-third part, says why
// the lane still opens at the first request.) A sender must still (1) never
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
//
// Bound lanes: the two compare-and-exchanges above are most of a lone subscriber's cost
// per value (measured: about 70% of `subject-1`'s time), so a thread that keeps sending
// gets the lone lane bound to it and then sends with none. After `bindingStreak` values in
// a row through the lane from one thread, that thread's give-up binds the lane instead,
// under the lock: the lane's word becomes the address of the thread's `SubjectLaneBinding`,
// which holds `busy`, a flag only that thread ever writes. The bound thread's send:
// (1) store `busy = 1`, (2) read the lane: still bound to it? (3) call the subscriber,
// (4) store `busy = 0`, (5) read the lane again. Plain loads and stores, no fence. The lane
// stays bound (and the conduit owned by it) until a locked operation closes it, and it is
// never bound again without first being closed and opened: a bound thread that reads its
// word in (2) and (5) has not been closed in between.
//
// Closing a bound lane (under the lock): (a) store `ownedClosed` (sequentially
// consistent), (b) if the closer is not the bound thread, run the kernel's process-wide
// barrier (`ProcessBarrier`): every running thread executes a full fence, (c) read `busy`,
// (d) record the verdict in the binding and, if `busy` was 0, mark the lane `closed` and
// the conduit unowned; if it was 1, the bound thread stays the conduit's owner and the
// lane stays `ownedClosed`, as for an owned lane. This is Dekker's protocol with one side's
// fence paid by the other side: if the bound thread's read in (2) came before (a), its
// store in (1) precedes the barrier and (c) sees `busy = 1`; if the barrier's fence on that
// thread came before its store in (1), its read in (2) sees the close and it does not
// call the subscriber. Likewise after (4): a closer that read `busy = 1` is certain to
// have been seen by the read in (5). A bound thread whose read in (2) or (5) sees the
// lane closed takes the lock and the verdict (which the closer recorded in the same
// critical section): as the owner it finishes through the lock, as after a failed
// give-up (after (2), having delivered nothing, and then sends its value as if the lane
// had not been bound); otherwise it is done (after (5)) or sends through the other paths
// (after (2)). A closer that is the bound thread itself (a re-entrant send, a cancel or a
// completion from inside the subscriber) reads its own `busy` and needs no barrier. A
// re-entrant send on the bound thread finds its own `busy` set and takes the lock, which
// closes the lane with an `owner` verdict and queues its value, as for an owned lane.
//
// The barrier costs microseconds (2.2 µs measured here with another thread running), so
// binding is only for a thread that keeps sending: each close of a bound lane from
// another thread doubles the streak that binding needs (`bindingStreak`), and a subject
// binds at most `maximumBindings` threads (the bindings stay until the subject goes away,
// since a slow bound thread may still write its `busy`). Where the kernel has no
// process-wide barrier, lanes are never bound.

/// The states of a subject's lanes: a conduit's own lane (an `Atomic<UInt8>`) and the
/// lone-subscriber lane (an `Atomic<UInt>`, whose word is otherwise the address of the
/// `SubjectLaneBinding` it is bound to). Bit 0 is set exactly in the states a locked
/// operation must close (`open`, `owned`), so that an own lane's check costs one test.
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

  /// Whether the lone lane's word `word` is open or owned (unbound), or bound, so that a
  /// locked operation must close it.
  @inlinable
  @inline(__always)
  internal static func needsClosing(lone word: UInt) -> Bool {
    word != UInt(closed) && word != UInt(ownedClosed)
  }

  /// Whether the lone lane's word `word` is a binding's address (the lane is bound to a
  /// thread) rather than one of the four states.
  @inlinable
  @inline(__always)
  internal static func isBound(_ word: UInt) -> Bool {
    word > UInt(owned)
  }

  /// How many values in a row one thread must send through the lone lane before the lane is
  /// bound to it, once bound lanes have been closed from other threads `unbindings` times:
  /// 32, doubled per such close, at most 4,096 (each of those closes cost a process-wide
  /// barrier, a few microseconds).
  @inlinable
  internal static func bindingStreak(afterUnbindings unbindings: UInt8) -> UInt32 {
    32 << min(UInt32(unbindings), 7)
  }

  /// The most threads a subject binds its lone lane to in its life.
  @inlinable
  internal static var maximumBindings: Int { 8 }

  /// Under the lock that guards the lane's conduit: closes a conduit's own `lane`, seen in
  /// state `seen` (open or owned). Returns `true` if it was open: the lane's hold on the
  /// conduit's ownership then ends, and the caller must mark the conduit unowned. (Closed
  /// while owned, the hold passes to the sender that owns the lane.)
  @inlinable
  internal static func close(_ lane: borrowing Atomic<UInt8>, seen: UInt8) -> Bool {
    close(seen) { lane.compareExchange(expected: $0, desired: $1, ordering: .acquiringAndReleasing) }
  }

  /// ``close(_:seen:)`` for the lone lane, seen open or owned (not bound).
  @inlinable
  internal static func close(lone lane: borrowing Atomic<UInt>, seen: UInt) -> Bool {
    close(seen) { lane.compareExchange(expected: $0, desired: $1, ordering: .acquiringAndReleasing) }
  }

  /// The loop of both ``close(_:seen:)``s: `exchange(expected, desired)` is the lane's
  /// compare-and-exchange, which may fail while a sender takes or gives the lane up.
  @inlinable
  @inline(__always)
  internal static func close<Word: FixedWidthInteger>(
    _ seen: Word, exchange: (Word, Word) -> (exchanged: Bool, original: Word)
  ) -> Bool {
    var current = seen
    while current == Word(open) || current == Word(owned) {
      let (exchanged, original) = exchange(current, current == Word(open) ? Word(closed) : Word(ownedClosed))
      if exchanged { return current == Word(open) }
      current = original
    }
    return false
  }
}
