import Synchronization

/// One thread's hold on a subject's lone-subscriber lane while the lane is bound to it
/// (`SubjectLane`, "Bound lanes"): the lane's word is then this object's address, and the
/// thread delivers through the lane with plain loads and stores of ``busy``.
///
/// A subject keeps its bindings (`SubjectStorage.laneBindings`, a list, at most
/// `SubjectLane.maximumBindings`, one per thread) until it goes away, and reuses a thread's
/// binding each time the lane is bound to that thread again: ``busy`` is written by one
/// thread only, ever, so a thread that is slow to see that the lane was closed cannot
/// overwrite another thread's mark.
@usableFromInline
internal final class SubjectLaneBinding {
  /// What a locked operation that closed the bound lane decided about the bound thread.
  @usableFromInline
  internal enum Verdict {
    /// No close since the lane was bound to this binding.
    case pending
    /// The bound thread had marked itself ``busy``: it stays the conduit's owner, and
    /// finishes through the lock.
    case owner
    /// The bound thread was not delivering: the conduit was left unowned.
    case notOwner
  }

  /// The `confluence_thread_token()` of the thread this binding belongs to.
  @usableFromInline
  internal let thread: UInt

  /// 1 while ``thread`` delivers through the bound lane (set just before it checks the lane
  /// once more, cleared after the subscriber returns), else 0. Written only by ``thread``,
  /// with plain stores; read by a closer on another thread after the process-wide barrier.
  @usableFromInline
  internal let busy = Atomic<UInt8>(0)

  /// The last close's decision (guarded by the subject's lock): set by the closer, taken by
  /// the bound thread when it finds the lane closed, reset whenever the lane is bound.
  @exclusivity(unchecked) @usableFromInline
  internal var verdict = Verdict.pending

  /// The subject's binding made before this one (its list of bindings).
  @usableFromInline
  internal let next: SubjectLaneBinding?

  /// Creates the binding of the thread whose token is `thread`, in front of `next` in the
  /// subject's list.
  @inlinable
  internal init(thread: UInt, next: SubjectLaneBinding?) {
    self.thread = thread
    self.next = next
  }

  /// The lane's word while it is bound to this binding: the object's address, which is
  /// never one of `SubjectLane`'s four small states.
  @inlinable
  internal var word: UInt {
    UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
  }

  /// The binding whose ``word`` is `word` (kept alive by the subject's list of bindings).
  @inlinable
  @inline(__always)
  internal static func bound(by word: UInt) -> Unmanaged<SubjectLaneBinding> {
    Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped)
  }

  /// Under the subject's lock: the verdict of the close the bound thread just found, which
  /// is then forgotten.
  @inlinable
  internal func takeVerdict() -> Verdict {
    let taken = verdict
    confluencePrecondition(taken != .pending, "a bound lane was closed without a verdict on its thread")
    verdict = .pending
    return taken
  }
}
