/// The events a ``SchedulerHopSubscription`` has taken and not yet delivered, oldest first:
/// a first-in, first-out queue with one producer (upstream, whose events are serialised)
/// and one consumer (whichever scheduled action owns delivery), and no lock between them.
///
/// It is a chain of segments. The producer end (`tail`, `tailIndex`) is written
/// only by `append`, the consumer end (`head`, `headIndex`) only by `removeFirst`, and the
/// two ends sit on different cache lines, so the producing and the delivering thread do
/// not pull one line back and forth on every event (as a lock and a shared array did).
///
/// No atomic orders the two ends: the caller's protocol does. Every element is appended
/// *before* the action that will remove it is scheduled, and a scheduler runs an action
/// only after it was scheduled (the action closure itself travels that way), so the write
/// of an element, and of a segment's `next`, happens before the read. The consumer never
/// asks whether the queue is empty: it removes one element per scheduled action.
///
/// A segment the consumer has left is kept (one at a time) for the producer's next one, so
/// a steady flow allocates nothing; when the producer runs ahead, each new segment is twice
/// as large as the one before (up to `maximumSegmentCapacity`), so a long queue costs few
/// allocations.
@usableFromInline
internal final class SchedulerHopQueue<Element> {
  /// Elements in the first segment.
  @inlinable internal static var initialSegmentCapacity: Int { 16 }
  /// Elements in the largest segment.
  @inlinable internal static var maximumSegmentCapacity: Int { 1024 }

  /// The producer end: the segment being filled and its first free slot.
  @exclusivity(unchecked) @usableFromInline internal var tail: SchedulerHopSegment<Element>
  @exclusivity(unchecked) @usableFromInline internal var tailIndex = 0

  @usableFromInline internal let padding = CacheLinePadding()

  /// The consumer end: the segment being read and its oldest element.
  @exclusivity(unchecked) @usableFromInline internal var head: SchedulerHopSegment<Element>
  @exclusivity(unchecked) @usableFromInline internal var headIndex = 0

  @usableFromInline internal let padding2 = CacheLinePadding()

  /// Guards `spare` (taken once per segment, not per element).
  @usableFromInline internal let spareLock = Lock()
  /// A segment the consumer has left, for the producer to fill again. Guarded by
  /// `spareLock`. (`@exclusivity(unchecked)`: the lock already serialises every access.)
  @exclusivity(unchecked) @usableFromInline internal var spare: SchedulerHopSegment<Element>?

  @inlinable
  internal init() {
    let first = SchedulerHopSegment<Element>(capacity: Self.initialSegmentCapacity)
    tail = first
    head = first
  }

  /// Adds `element` at the end. Producer only.
  @inlinable
  internal func append(_ element: consuming Element) {
    if tailIndex == tail.capacity { startSegment() }
    (tail.slots + tailIndex).initialize(to: element)
    tailIndex += 1
  }

  /// The tail segment is full: links the spare, or a new larger segment, after it.
  @inlinable
  internal func startSegment() {
    let next =
      spareLock.withLock { () -> SchedulerHopSegment<Element>? in
        let segment = spare
        spare = nil
        return segment
      } ?? SchedulerHopSegment<Element>(capacity: Swift.min(tail.capacity * 2, Self.maximumSegmentCapacity))
    next.next = nil
    tail.next = next
    tail = next
    tailIndex = 0
  }

  /// Removes and returns the oldest element. Consumer only, and only for an element whose
  /// `append` happened before (see the type's discussion): the queue is never empty here.
  @inlinable
  internal func removeFirst() -> Element {
    if headIndex == head.capacity {
      let done = head
      // Set by the producer before it appended the element this call is for.
      head = done.next.unsafelyUnwrapped
      headIndex = 0
      spareLock.withLock {
        if spare == nil { spare = done }
      }
    }
    let element = (head.slots + headIndex).move()
    headIndex += 1
    return element
  }

  @inlinable
  deinit {
    // Elements whose actions never ran (a scheduler dropped them): release them.
    var segment = head
    var index = headIndex
    while segment !== tail || index != tailIndex {
      if index == segment.capacity {
        segment = segment.next.unsafelyUnwrapped
        index = 0
        continue
      }
      (segment.slots + index).deinitialize(count: 1)
      index += 1
    }
  }
}
