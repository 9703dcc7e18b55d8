/// A first-in, first-out queue of values waiting for demand or for a partner (see
/// ``SlotQueue``, which it is with `Element?` slots).
///
/// Used by zip's per-upstream buffers, `buffer`, `switchToLatest`, `combineLatest`'s outputs
/// waiting behind a delivery, and (through `package` visibility) the extras'
/// `Publishers.Create` and `ReplaySubject`.
@usableFromInline package typealias FIFOQueue<Element> = SlotQueue<Element?>

/// A first-in, first-out queue whose storage is slots of type `Slot`, an `Optional` of the
/// element: the oldest value in a slot of its own, the others in a ring buffer over an array
/// whose capacity is a power of two, doubled when full. Appending and removing cost O(1)
/// amortised, nothing is allocated once the storage is warm, and slots are cleared as they
/// are read, so a value is released as soon as it leaves.
///
/// The oldest value's own slot serves the common pattern (zip's buffers, a hop's pending
/// events: one value in, one out) without touching the array at all; the ring behind it is
/// never resized to empty, so a queue that fills and drains keeps its storage.
///
/// Generic over the slot, not the element (``FIFOQueue`` names it by its element): code the
/// compiler did not specialise then finds the slot type's metadata in the queue's own generic
/// arguments, where a queue generic over `Element` looked `Optional<Element>` up in the
/// runtime's cache (see ``OptionalValue``) each time it filled or emptied a slot — four look-ups
/// per value for `zip`'s two queues (``FIFOQueueing``). `append(_:)` and `removeFirst()`
/// form no `Element?`; `popFirst()` does, as its result.
@usableFromInline
package struct SlotQueue<Slot: OptionalValue> {
  @usableFromInline package typealias Element = Slot.Wrapped

  /// The elements after the oldest: empty, or a power-of-two number of slots; they are the
  /// `count - 1` slots from `head` on, wrapping around.
  @usableFromInline package var slots: [Slot] = []
  @usableFromInline package var head = 0
  @usableFromInline package var storedCount = 0
  /// Whether ``slots`` holds storage (`!slots.isEmpty`), kept apart so that it is read
  /// without the slot type's metadata (see ``isEmptyWithNoStorage``).
  @usableFromInline package var keepsSlots = false
  /// The oldest element, if any. Stored last: the fields before it then sit at the same
  /// offsets whatever `Element` is, so that generic code the compiler did not specialise
  /// reads them without looking up this queue's metadata in the runtime's cache.
  @usableFromInline package var oldest: Slot

  @inlinable
  @inline(__always)
  package init() {
    oldest = Slot.emptySlot
  }

  /// Drops every element, field by field in place (the stored array's storage is released;
  /// a queue that never used its ring leaves the empty array as it is, which costs no call
  /// into the runtime to release it and retain another).
  /// Whether ``removeAll()`` would change nothing: nothing stored (so ``oldest`` is empty)
  /// and no slots kept. Read from fields whose place does not depend on the slot type, so
  /// that code the compiler did not specialise asks this without looking the queue's types
  /// up (a call to ``removeAll()`` there looks up the queue's, the slot's and the array's).
  @inlinable
  @inline(__always)
  package var isEmptyWithNoStorage: Bool { storedCount == 0 && !keepsSlots }

  @inlinable
  package mutating func removeAll() {
    oldest = Slot.emptySlot
    if keepsSlots {
      slots = []
      keepsSlots = false
    }
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
      oldest.fillSlot(with: element)
      storedCount = 1
    } else if _isConcrete(Slot.self) {
      appendBehindOldest(element)
    } else {
      appendBehindOldestOutOfLine(element)
    }
  }

  /// ``append(_:)`` when the queue is not empty: into the ring.
  @inlinable
  @inline(__always)
  internal mutating func appendBehindOldest(_ element: Element) {
    if storedCount - 1 == slots.count { grow() }
    slots[slotIndex(storedCount)] = Slot(slotOf: element)
    storedCount &+= 1
  }

  /// ``appendBehindOldest(_:)`` as a call of its own, for code the compiler did not
  /// specialise: there, the ring's path names the element type, which such code looks up as
  /// the slot type's associated type, and inlined it made every ``append(_:)`` do so on entry,
  /// also when the element goes to the oldest slot.
  @inlinable
  @inline(never)
  internal mutating func appendBehindOldestOutOfLine(_ element: Element) {
    appendBehindOldest(element)
  }

  /// Moves the ring's elements, oldest first, into storage of twice the size (at least 4).
  @usableFromInline
  internal mutating func grow() {
    var larger = [Slot](repeating: Slot.emptySlot, count: Swift.max(4, slots.count * 2))
    for offset in 1..<storedCount {
      larger[offset - 1] = slots[slotIndex(offset)].takeSlot()
    }
    slots = larger
    keepsSlots = true
    head = 0
  }

  /// The element `offset` places after the oldest one.
  @inlinable
  internal func element(atOffset offset: Int) -> Element {
    offset == 0 ? oldest.optional! : slots[slotIndex(offset)].optional!
  }

  /// The queued elements, oldest first.
  @inlinable
  package var elements: [Element] {
    (0..<storedCount).map { element(atOffset: $0) }
  }

  /// Removes the element `offset` places after the oldest one.
  @inlinable
  package mutating func remove(atOffset offset: Int) {
    confluencePrecondition(offset >= 0 && offset < storedCount, "FIFOQueue.remove(atOffset:) out of range")
    if offset == 0 {
      _ = removeFirst()
      return
    }
    // Close the gap by moving the later elements one slot towards the head.
    for later in offset..<(storedCount - 1) {
      slots[slotIndex(later)] = slots[slotIndex(later + 1)].takeSlot()
    }
    slots[slotIndex(storedCount - 1)] = Slot.emptySlot
    storedCount -= 1
  }

  /// Removes and returns the oldest element, or `nil` if the queue is empty.
  @inlinable
  @inline(__always)
  package mutating func popFirst() -> Element? {
    guard storedCount > 0 else { return nil }
    return removeFirst()
  }

  /// Removes and returns the oldest element. The queue must not be empty.
  @inlinable
  @inline(__always)
  package mutating func removeFirst() -> Element {
    confluencePrecondition(storedCount > 0, "FIFOQueue.removeFirst() on an empty queue")
    let element = oldest.takeWrapped()
    storedCount &-= 1
    if storedCount > 0 {
      oldest = slots[head].takeSlot()
      head = (head &+ 1) & (slots.count &- 1)
    }
    return element
  }
}
