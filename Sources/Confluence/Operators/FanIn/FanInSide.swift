/// Which upstream an event came from, in the fan-in operators (`zip`, `combineLatest` and
/// their three- and four-upstream forms).
@usableFromInline
internal enum FanInSide {
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
@usableFromInline
internal struct FanInSides: OptionSet {
  @usableFromInline internal let rawValue: UInt8

  @inlinable
  internal init(rawValue: UInt8) { self.rawValue = rawValue }

  @inlinable internal static var a: FanInSides { FanInSides(rawValue: 1) }
  @inlinable internal static var b: FanInSides { FanInSides(rawValue: 2) }
  @inlinable internal static var c: FanInSides { FanInSides(rawValue: 4) }
  @inlinable internal static var d: FanInSides { FanInSides(rawValue: 8) }
}
