/// Three words inside a ``SubjectConduit`` where a subscriber that is a small structure
/// lives in place (``SubjectDownstreamForm/stored``): a `map`, `filter` or `compactMap`
/// relay (a reference and a closure), an `AnySubscriber`. Held there, the subscriber costs
/// no ``SubjectDownstreamBox`` — one allocation and its release per subscription.
///
/// Only the conduit's initialiser writes the words (the subscriber, initialised in place);
/// the thread that takes the subscriber from the conduit destroys it in place, outside the
/// subject's lock (see ``SubjectConduit/letGo(_:)``), or the conduit's deinitialiser does
/// when nobody took it. The words themselves are trivial: the class's own destruction never
/// touches them.
@usableFromInline
@frozen
internal struct SubjectStoredSubscriber {
  @usableFromInline internal var first: UInt = 0
  @usableFromInline internal var second: UInt = 0
  @usableFromInline internal var third: UInt = 0

  @inlinable
  internal init() {}

  /// Whether a subscriber of type `Downstream` fits: three words at most, aligned to a word
  /// at most. A constant where `Downstream` is concrete.
  @inlinable
  @inline(__always)
  internal static func fits<Downstream>(_: Downstream.Type) -> Bool {
    MemoryLayout<Downstream>.size <= MemoryLayout<SubjectStoredSubscriber>.size
      && MemoryLayout<Downstream>.alignment <= MemoryLayout<SubjectStoredSubscriber>.alignment
  }
}

/// What a conduit asks of its stored subscriber besides values, passed as the tag of the
/// completion handler's call (a stored subscriber's own tag is always 0, a completion): so
/// the stored form needs no handler of its own, and every conduit no field for one.
@usableFromInline
internal enum SubjectStoredAccess {
  /// Hand the subscriber the completion the pointer points to.
  @usableFromInline internal static let complete: UInt8 = 0
  /// Destroy the subscriber in place (it was taken, or the conduit is going away); the
  /// pointer is not read.
  @usableFromInline internal static let destroy: UInt8 = 1
  /// Copy the subscriber, for the conduit's mirror, into the `Any?` the pointer points to.
  @usableFromInline internal static let reflect: UInt8 = 2
}
