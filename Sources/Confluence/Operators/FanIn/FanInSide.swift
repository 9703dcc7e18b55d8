/// Which upstream an event came from, in the fan-in operators (`zip`, `combineLatest` and
/// their three- and four-upstream forms).
@usableFromInline
internal enum FanInSide: UInt8 {
  case a, b, c, d

  /// This side as a member of a ``FanInSides`` set.
  @inlinable
  internal var member: FanInSides {
    switch self {
    case .a: return .a
    case .b: return .b
    case .c: return .c
    case .d: return .d
    }
  }
}

/// A set of ``FanInSide``s: the upstreams that finished, say.
///
/// A bit set with its few operations written out rather than an `OptionSet`: in a debug
/// build the option-set defaults (`insert`, `isSuperset(of:)`, array literals) run as
/// unspecialised generic code, about 620,000 instructions per build of seven levels of
/// `combineLatest` of four.
@usableFromInline
@frozen
internal struct FanInSides: Equatable {
  @usableFromInline internal var rawValue: UInt8

  @inlinable
  internal init(rawValue: UInt8) { self.rawValue = rawValue }

  /// The empty set.
  @inlinable
  internal init() { self.rawValue = 0 }

  @inlinable internal static var a: FanInSides { FanInSides(rawValue: 1) }
  @inlinable internal static var b: FanInSides { FanInSides(rawValue: 2) }
  @inlinable internal static var c: FanInSides { FanInSides(rawValue: 4) }
  @inlinable internal static var d: FanInSides { FanInSides(rawValue: 8) }

  @inlinable
  internal func contains(_ member: FanInSides) -> Bool { isSuperset(of: member) }

  @inlinable
  internal mutating func insert(_ member: FanInSides) { rawValue |= member.rawValue }

  @inlinable
  internal func isSuperset(of other: FanInSides) -> Bool { rawValue & other.rawValue == other.rawValue }
}
