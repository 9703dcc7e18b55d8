/// What `zip`'s logics need of a queue: ``FIFOQueue``'s members, behind a protocol so that a
/// logic can be generic over its queue types rather than over their elements.
///
/// In generic code the compiler did not specialise, a logic generic over its elements
/// (`ZipLogic<A, B>`) would look `FIFOQueue<A>`'s metadata up in the runtime's cache on
/// every value, to find the queue's oldest element; generic over the queues
/// (`ZipLogic<FIFOQueue<A>, FIFOQueue<B>>`), it reads that metadata from its own generic
/// arguments. Specialised, the calls are direct and inline, as before.
@usableFromInline
internal protocol FIFOQueueing {
  associatedtype Element

  init()

  /// Whether the queue holds no element.
  var isEmpty: Bool { get }

  /// How many elements the queue holds.
  var count: Int { get }

  /// Adds `element` after the newest one.
  mutating func append(_ element: Element)

  /// Removes and returns the oldest element. The queue must not be empty.
  mutating func removeFirst() -> Element

  /// Drops every element.
  mutating func removeAll()
}

extension SlotQueue: FIFOQueueing {}
