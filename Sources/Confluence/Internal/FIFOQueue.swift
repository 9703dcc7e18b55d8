/// A first-in, first-out queue of values waiting for demand or for a partner: an array read
/// from a moving head, compacted once the consumed prefix is at least half of it, so
/// appending and removing cost O(1) amortised and no allocation once the storage is warm.
/// Slots are cleared as they are read, so a value is released as soon as it leaves.
///
/// Used by zip's per-upstream buffers, `buffer`, `switchToLatest`, and (through `package`
/// visibility) the extras' `Publishers.Create` and `ReplaySubject`.
@usableFromInline
package struct FIFOQueue<Element> {
  @usableFromInline package var slots: [Element?] = []
  @usableFromInline package var head = 0

  @inlinable
  package init() {}

  @inlinable
  package var isEmpty: Bool { head == slots.count }

  @inlinable
  package var count: Int { slots.count - head }

  @inlinable
  package mutating func append(_ element: Element) {
    slots.append(element)
  }

  /// The queued elements, oldest first.
  @inlinable
  package var elements: [Element] { slots[head...].map { $0! } }

  /// Removes the element `offset` places after the oldest one.
  @inlinable
  package mutating func remove(atOffset offset: Int) {
    slots.remove(at: head + offset)
  }

  /// Removes and returns the oldest element, or `nil` if the queue is empty.
  @inlinable
  package mutating func popFirst() -> Element? {
    guard head < slots.count else { return nil }
    let element = slots[head]
    if head + 1 == slots.count {
      // The common case (zip, buffer): the last element leaves, and emptying the storage
      // releases it without a separate write to its slot.
      slots.removeAll(keepingCapacity: true)
      head = 0
      return element
    }
    slots[head] = nil
    head += 1
    if head >= 16, head * 2 >= slots.count {
      slots.removeFirst(head)
      head = 0
    }
    return element
  }

  /// Removes and returns the oldest element. The queue must not be empty.
  @inlinable
  package mutating func removeFirst() -> Element {
    guard let element = popFirst() else { preconditionFailure("FIFOQueue.removeFirst() on an empty queue") }
    return element
  }
}
