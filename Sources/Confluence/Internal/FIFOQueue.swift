/// A first-in, first-out queue of values waiting for demand or for a partner: the oldest
/// value in a slot of its own, the others in a ring buffer over an array whose capacity is a
/// power of two, doubled when full. Appending and removing cost O(1) amortised, nothing is
/// allocated once the storage is warm, and slots are cleared as they are read, so a value is
/// released as soon as it leaves.
///
/// The oldest value's own slot serves the common pattern (zip's buffers, a hop's pending
/// events: one value in, one out) without touching the array at all; the ring behind it is
/// never resized to empty, so a queue that fills and drains keeps its storage.
///
/// Used by zip's per-upstream buffers, `buffer`, `switchToLatest`, the scheduler hop of
/// `receive(on:)`/`delay`, and (through `package` visibility) the extras' `Publishers.Create`
/// and `ReplaySubject`.
@usableFromInline
package struct FIFOQueue<Element> {
  /// The elements after the oldest: empty, or a power-of-two number of slots; they are the
  /// `count - 1` slots from `head` on, wrapping around.
  @usableFromInline package var slots: [Element?] = []
  @usableFromInline package var head = 0
  @usableFromInline package var storedCount = 0
  /// The oldest element, if any. Stored last: the fields before it then sit at the same
  /// offsets whatever `Element` is, so that generic code the compiler did not specialise
  /// reads them without looking up this queue's metadata in the runtime's cache.
  @usableFromInline package var oldest: Element?

  @inlinable
  package init() {}

  /// Drops every element, field by field in place (the stored array's storage is released;
  /// a queue that never used its ring leaves the empty array as it is, which costs no call
  /// into the runtime to release it and retain another).
  @inlinable
  package mutating func removeAll() {
    oldest = nil
    if !slots.isEmpty { slots = [] }
    head = 0
    storedCount = 0
  }

  @inlinable
  package var isEmpty: Bool { storedCount == 0 }

  @inlinable
  package var count: Int { storedCount }

  /// The ring slot holding the element `offset` places after the oldest one (offset ≥ 1).
  @inlinable
  internal func slotIndex(_ offset: Int) -> Int {
    (head &+ offset &- 1) & (slots.count &- 1)
  }

  @inlinable
  @inline(__always)
  package mutating func append(_ element: Element) {
    if storedCount == 0 {
      oldest = element
    } else {
      if storedCount - 1 == slots.count { grow() }
      slots[slotIndex(storedCount)] = element
    }
    storedCount &+= 1
  }

  /// Moves the ring's elements, oldest first, into storage of twice the size (at least 4).
  @usableFromInline
  internal mutating func grow() {
    var larger = [Element?](repeating: nil, count: Swift.max(4, slots.count * 2))
    for offset in 1..<storedCount {
      larger[offset - 1] = slots[slotIndex(offset)].take()
    }
    slots = larger
    head = 0
  }

  /// The element `offset` places after the oldest one.
  @inlinable
  internal func element(atOffset offset: Int) -> Element {
    offset == 0 ? oldest! : slots[slotIndex(offset)]!
  }

  /// The queued elements, oldest first.
  @inlinable
  package var elements: [Element] {
    (0..<storedCount).map { element(atOffset: $0) }
  }

  /// Removes the element `offset` places after the oldest one.
  @inlinable
  package mutating func remove(atOffset offset: Int) {
    precondition(offset >= 0 && offset < storedCount, "FIFOQueue.remove(atOffset:) out of range")
    if offset == 0 {
      _ = popFirst()
      return
    }
    // Close the gap by moving the later elements one slot towards the head.
    for later in offset..<(storedCount - 1) {
      slots[slotIndex(later)] = slots[slotIndex(later + 1)].take()
    }
    slots[slotIndex(storedCount - 1)] = nil
    storedCount -= 1
  }

  /// Removes and returns the oldest element, or `nil` if the queue is empty.
  @inlinable
  @inline(__always)
  package mutating func popFirst() -> Element? {
    guard storedCount > 0 else { return nil }
    let element = oldest.take()
    storedCount &-= 1
    if storedCount > 0 {
      oldest = slots[head].take()
      head = (head &+ 1) & (slots.count &- 1)
    }
    return element
  }

  /// Removes and returns the oldest element. The queue must not be empty.
  @inlinable
  @inline(__always)
  package mutating func removeFirst() -> Element {
    guard let element = popFirst() else { preconditionFailure("FIFOQueue.removeFirst() on an empty queue") }
    return element
  }
}
