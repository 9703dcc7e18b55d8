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
    rawValue = combineIdentifierCounter.next() | 1
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

/// The source of ``CombineIdentifier/init()``'s values: a counter under a lock. No benchmark
/// row makes identifiers per value (the inner subscriptions of `flatMap` and
/// `switchToLatest`, which make one each, are skipped for `Just`), so an atomic counter would
/// save nothing measured (ARCHITECTURE.md, "Lock-free protocols"). It wraps after 2⁶³
/// identifiers.
private final class CombineIdentifierCounter: @unchecked Sendable {
  // @unchecked Sendable: `value` is read and written only under `lock`.
  private let lock = Lock()
  private var value: UInt64 = 0

  /// The next even value, never returned before.
  func next() -> UInt64 {
    lock.withLock {
      value &+= 2
      return value
    }
  }
}

private let combineIdentifierCounter = CombineIdentifierCounter()

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
