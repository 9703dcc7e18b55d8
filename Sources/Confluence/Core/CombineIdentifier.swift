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
    #if CONFLUENCE_LOCKED_FAST_PATHS
      rawValue =
        combineIdentifierCounter.withLock { counter in
          counter &+= 2
          return counter
        } | 1
    #else
      rawValue = combineIdentifierCounter.wrappingAdd(2, ordering: .relaxed).newValue | 1
    #endif
  }

  /// Creates a Combine identifier, using the bit pattern of the provided object.
  public init(_ obj: AnyObject) {
    rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj)))
  }

  /// The identifier in hexadecimal, such as `0x600000c7d1a0`.
  public var description: String {
    "0x" + String(rawValue, radix: 16)
  }
}

/// The source of ``CombineIdentifier/init()``'s values. Its invariant: each `wrappingAdd`
/// returns a value no other call returns — the read-modify-write is one indivisible step,
/// so two threads never read the same old value (every interleaving of three threads making
/// identifiers is checked by `IdentifierCounterModel` in `Tests/ConfluenceInterleavingTests`,
/// which also shows a load-then-store increment failing). Relaxed: the counter orders no
/// other memory. It wraps after 2⁶³ identifiers. Every inner subscription of `flatMap` and
/// `switchToLatest` makes one, so the rows flatMap-just and switchToLatest-5 pay for it per
/// value; with `CONFLUENCE_LOCKED_FAST_PATHS` it is a counter under a mutex.
#if CONFLUENCE_LOCKED_FAST_PATHS
  private let combineIdentifierCounter = Mutex<UInt64>(0)
#else
  private let combineIdentifierCounter = Atomic<UInt64>(0)
#endif

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
