import Confluence

/// A distance between two ``VirtualTime`` instants, in whole ticks.
///
/// Integer literals count ticks. The `SchedulerTimeIntervalConvertible` conversions read a
/// tick as one nanosecond, so operators written against real schedulers
/// (`.debounce(for: .milliseconds(300), …)`) run unchanged on virtual time.
///
/// ```swift
/// let interval: VirtualTimeInterval = 5          // five ticks
/// XCTAssertEqual(VirtualTimeInterval.microseconds(2), 2_000)
/// ```
public struct VirtualTimeInterval: Hashable, Codable, Sendable, Comparable, SignedNumeric,
  ExpressibleByIntegerLiteral, SchedulerTimeIntervalConvertible, CustomStringConvertible
{
  /// The number of ticks.
  public var ticks: Int

  /// Creates an interval of `ticks` ticks.
  public init(_ ticks: Int) {
    self.ticks = ticks
  }

  public init(integerLiteral value: Int) {
    self.init(value)
  }

  public init?<T: BinaryInteger>(exactly source: T) {
    guard let ticks = Int(exactly: source) else { return nil }
    self.init(ticks)
  }

  /// The interval's size in ticks.
  public var magnitude: Int { ticks.magnitude > UInt(Int.max) ? Int.max : Int(ticks.magnitude) }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.ticks < rhs.ticks }
  public static func + (lhs: Self, rhs: Self) -> Self { Self(lhs.ticks + rhs.ticks) }
  public static func - (lhs: Self, rhs: Self) -> Self { Self(lhs.ticks - rhs.ticks) }
  public static func * (lhs: Self, rhs: Self) -> Self { Self(lhs.ticks * rhs.ticks) }
  public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
  public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }
  public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }

  /// `s` seconds, as 1 000 000 000 ticks per second.
  public static func seconds(_ s: Int) -> Self { Self(s * 1_000_000_000) }
  /// `s` seconds, as 1 000 000 000 ticks per second, rounded to the nearest tick.
  public static func seconds(_ s: Double) -> Self { Self(Int((s * 1_000_000_000).rounded())) }
  /// `ms` milliseconds, as 1 000 000 ticks per millisecond.
  public static func milliseconds(_ ms: Int) -> Self { Self(ms * 1_000_000) }
  /// `us` microseconds, as 1 000 ticks per microsecond.
  public static func microseconds(_ us: Int) -> Self { Self(us * 1_000) }
  /// `ns` nanoseconds, one tick each.
  public static func nanoseconds(_ ns: Int) -> Self { Self(ns) }

  public var description: String { String(ticks) }
}
