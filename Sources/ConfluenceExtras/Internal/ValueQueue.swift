/// A first-in, first-out queue of values waiting for demand (``Publishers/Create``,
/// ``ReplaySubject``): an array read from a moving
/// head, compacted once the consumed prefix is at least half of it. Slots are cleared as
/// they are read, so a consumed value is released at once.
@usableFromInline
internal struct ValueQueue<Element> {
  @usableFromInline internal var slots: [Element?] = []
  @usableFromInline internal var head = 0

  @inlinable
  internal init() {}

  @inlinable
  internal var isEmpty: Bool { head == slots.count }

  @inlinable
  internal var count: Int { slots.count - head }

  @inlinable
  internal mutating func append(_ element: Element) {
    slots.append(element)
  }

  /// The queued elements, oldest first.
  @inlinable
  internal var elements: [Element] { slots[head...].map { $0! } }

  /// Removes the element `offset` places after the oldest one.
  @inlinable
  internal mutating func remove(atOffset offset: Int) {
    slots.remove(at: head + offset)
  }

  @inlinable
  internal mutating func popFirst() -> Element? {
    guard head < slots.count else { return nil }
    let element = slots[head]
    slots[head] = nil
    head += 1
    if head == slots.count {
      slots.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 16, head * 2 >= slots.count {
      slots.removeFirst(head)
      head = 0
    }
    return element
  }
}
