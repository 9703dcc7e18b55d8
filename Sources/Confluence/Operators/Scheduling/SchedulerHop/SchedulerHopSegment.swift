/// One block of a ``SchedulerHopQueue``: uninitialised storage for `capacity` elements (the
/// queue tracks which slots hold one) and the next segment, once the producer needs it.
@usableFromInline
internal final class SchedulerHopSegment<Element> {
  @usableFromInline internal let slots: UnsafeMutablePointer<Element>
  @usableFromInline internal let capacity: Int
  /// Written by the producer before it appends into the next segment; read by the consumer
  /// after it has removed this segment's last element (see ``SchedulerHopQueue``).
  @exclusivity(unchecked) @usableFromInline internal var next: SchedulerHopSegment?

  @inlinable
  internal init(capacity: Int) {
    slots = .allocate(capacity: capacity)
    self.capacity = capacity
  }

  @inlinable
  deinit {
    slots.deallocate()
  }
}
