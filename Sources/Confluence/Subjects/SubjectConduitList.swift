/// A subject's subscribers in subscription order, with a lone one kept outside any buffer.
///
/// Most subjects have one subscriber, many are created for it (`let subject = …;
/// subject.sink { … }`), and an array allocates a buffer for its first element: about 300
/// instructions (malloc, free, the buffer's header and its release) of the 4,000 that
/// creating a subject, subscribing, sending and cancelling cost. Here one subscriber is held
/// in ``lone``; from two on, all of them are in ``many``, in order, which is also the
/// snapshot a send to several subscribers keeps alive (``snapshot``), so that send allocates
/// nothing either.
///
/// Invariant: `lone != nil` exactly when there is one element, and `many` is then empty
/// (it may keep its capacity, so a second subscriber that comes and goes allocates once).
/// `head` is `many`'s first element when `many` holds any, else `nil`.
@usableFromInline
internal struct SubjectConduitList<Element: AnyObject>: RandomAccessCollection {
  @usableFromInline internal var lone: Element?
  @usableFromInline internal var many: ContiguousArray<Element>
  /// The first of two or more elements (`many[0]`), kept apart: unspecialised code reads it as a
  /// stored reference, without calling into `ContiguousArray`, which would need the element
  /// type's generic metadata there (see `SubjectStorage.sendThroughLock(_:)`).
  @usableFromInline internal private(set) var head: Element?

  /// An empty list.
  @inlinable
  @inline(__always)
  internal init() {
    many = []
  }

  /// An empty list, for code the compiler did not specialise: there, `[]` and
  /// `ContiguousArray()` are calls that take the element type's metadata, which a subject's
  /// initialiser then looked up in the runtime's cache (about 330 instructions) for every
  /// subject made. The empty storage is taken from an array of a concrete type instead, as
  /// `emptyArray()` does; specialised, ``init()`` costs nothing and this a retain and a
  /// release.
  @inlinable
  @inline(__always)
  internal init(unspecialised: Void) {
    many = unsafeBitCast(ContiguousArray<Never>(), to: ContiguousArray<Element>.self)
  }

  @inlinable
  internal var startIndex: Int { 0 }

  @inlinable
  internal var endIndex: Int { count }

  // `count`, `isEmpty`, `indices` and the search below are the collection's defaults spelled
  // out: in an unoptimised build the defaults run as unspecialised generic code (`count` as
  // `distance(from:to:)`), about 3,800 instructions per send to two subscribers.

  // Read from `lone` and `head` while there are fewer than two elements: where the code is
  // not specialised, `many.count` is a call with the element type's metadata (a look-up on
  // every cancel of a subject's only subscriber).
  @inlinable
  @inline(__always)
  internal var count: Int {
    if lone != nil { return 1 }
    return head == nil ? 0 : many.count
  }

  @inlinable
  internal var isEmpty: Bool { lone == nil && head == nil }

  @inlinable
  internal var indices: Range<Int> { 0..<count }

  // The lone element's paths are inlined and the others called out of line: in code the
  // compiler did not specialise, a call to a method of this generic type looks up its
  // metadata (and the element's), and a function that touches `many` looks up
  // `ContiguousArray`'s on entry, both on every subscribe and cancel of a subject's only
  // subscriber.

  /// The position of `element` itself (compared by identity), `nil` if absent.
  @inlinable
  @inline(__always)
  internal func firstIndex(identicalTo element: Element) -> Int? {
    if let lone { return lone === element ? 0 : nil }
    return firstIndexInMany(identicalTo: element)
  }

  /// ``firstIndex(identicalTo:)`` without a lone element.
  @inlinable
  @inline(never)
  internal func firstIndexInMany(identicalTo element: Element) -> Int? {
    var index = 0
    while index < many.count {
      if many[index] === element { return index }
      index += 1
    }
    return nil
  }

  @inlinable
  internal subscript(position: Int) -> Element {
    if let lone {
      confluencePrecondition(position == 0, "index out of range")
      return lone
    }
    return many[position]
  }

  /// Every element, in order, as the array a send to several subscribers holds on to:
  /// `many` itself (no copy, no allocation) when there are two or more.
  @inlinable
  internal var snapshot: ContiguousArray<Element> {
    if let lone { return [lone] }
    return many
  }

  @inlinable
  @inline(__always)
  internal mutating func append(_ element: __owned Element) {
    // Empty: neither a lone element nor a head (`head` is set exactly while `many` holds any).
    if lone == nil && head == nil {
      lone = element
    } else {
      appendBesideOthers(element)
    }
  }

  /// ``append(_:)`` to a list that is not empty.
  @inlinable
  @inline(never)
  internal mutating func appendBesideOthers(_ element: __owned Element) {
    if let first = lone {
      lone = nil
      many.append(first)
      many.append(element)
      head = first
    } else if many.isEmpty {
      lone = element
    } else {
      many.append(element)
    }
  }

  /// Removes and returns the element at `position`.
  @inlinable
  @inline(__always)
  internal mutating func remove(at position: Int) -> Element {
    if let element = lone {
      confluencePrecondition(position == 0, "index out of range")
      lone = nil
      return element
    }
    return removeFromMany(at: position)
  }

  /// ``remove(at:)`` without a lone element.
  @inlinable
  @inline(never)
  internal mutating func removeFromMany(at position: Int) -> Element {
    let removed = many.remove(at: position)
    if many.count == 1 {
      lone = many[0]
      many.removeAll(keepingCapacity: true)
    }
    head = many.first
    return removed
  }

  /// Replaces the elements with `elements`, in order.
  @inlinable
  internal mutating func replace(with elements: ContiguousArray<Element>) {
    if elements.count == 1 {
      lone = elements[0]
      many = []
    } else {
      lone = nil
      many = elements
    }
    head = many.first
  }
}
