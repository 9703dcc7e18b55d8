import Synchronization

/// A unique identifier for identifying publisher streams.
///
/// To conform to ``CustomCombineIdentifierConvertible`` in a subscription or subject that
/// you implement as a structure, create an instance of `CombineIdentifier` as follows:
///
/// ```swift
/// let combineIdentifier = CombineIdentifier()
/// ```
///
/// Identifiers made with ``init()`` are unique for the life of the process; one made with
/// ``init(_:)`` identifies an object.
public struct CombineIdentifier: Hashable, CustomStringConvertible, Sendable {
  @usableFromInline
  internal let rawValue: UInt64

  /// Creates a unique Combine identifier.
  public init() {
    // Odd values, so they never collide with an object address (which is aligned).
    rawValue = combineIdentifierCounter.wrappingAdd(2, ordering: .relaxed).newValue | 1
  }

  /// Creates a Combine identifier, using the bit pattern of the provided object.
  public init(_ obj: AnyObject) {
    rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj)))
  }

  /// An identifier for part `part` (1–255) of `object`, such as one upstream side of a
  /// fan-in operator whose subscribers are structures sharing that object: the object's
  /// address with `part` in the top byte, which no address uses. It is unique among live
  /// objects' parts as ``init(_:)`` is among live objects, never equals an address (the top
  /// byte), nor one made by ``init()`` (those are odd, an address is aligned), and costs no
  /// atomic instruction, which ``init()``'s counter does: one per upstream subscribed.
  @inlinable
  internal init(_ object: AnyObject, part: UInt8) {
    confluencePrecondition(part > 0, "CombineIdentifier(_:part:) needs a part from 1 to 255")
    rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(object))) | UInt64(part) &<< 56
  }

  /// The identifier in hexadecimal, such as `0x600000c7d1a0`.
  public var description: String {
    "0x" + String(rawValue, radix: 16)
  }
}

/// The source of ``CombineIdentifier/init()``'s values: an atomic counter, advanced by 2. It
/// was a counter under a lock until the tree rows of the benchmark (issue 35) showed it: every
/// `zip` and `combineLatest` makes one identifier per upstream it subscribes to, and the lock
/// with its owner bookkeeping cost about 60 instructions each, against 10 for one relaxed
/// fetch-and-add. A single read-modify-write has no interleaving to check: two calls always get
/// different values. It wraps after 2⁶³ identifiers.
private let combineIdentifierCounter = Atomic<UInt64>(0)

/// A protocol for uniquely identifying publisher streams.
///
/// If you create a custom ``Subscription`` or ``Subscriber`` type, implement this protocol
/// so that development tools can uniquely identify publisher chains in your app. If your
/// type is a class, Combine provides an implementation of ``combineIdentifier`` for you.
/// If your type is a structure, set up the identifier as follows:
///
/// ```swift
/// let combineIdentifier = CombineIdentifier()
/// ```
public protocol CustomCombineIdentifierConvertible {
  /// A unique identifier for publisher streams.
  var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
  /// The identifier of this object.
  public var combineIdentifier: CombineIdentifier {
    CombineIdentifier(self)
  }
}
