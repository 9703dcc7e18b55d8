import Confluence

/// An instant on a virtual clock, counted in whole ticks.
///
/// `VirtualTime` is the ready-made time type of ``VirtualTimeScheduler``. A tick has no
/// fixed length of its own: integer literals count ticks, and the
/// `SchedulerTimeIntervalConvertible` conversions of ``VirtualTimeInterval`` read a tick as
/// one nanosecond (so `.seconds(1)` is 1 000 000 000 ticks). Marble diagrams use one tick
/// per character.
///
/// ```swift
/// let scheduler = VirtualTimeScheduler(initialClock: 100)
/// scheduler.advance(by: 50)
/// XCTAssertEqual(scheduler.now, 150)
/// ```
public struct VirtualTime: Strideable, Hashable, Codable, Sendable, ExpressibleByIntegerLiteral,
  CustomStringConvertible
{
  /// The number of ticks since the origin of the virtual clock.
  public var ticks: Int

  /// Creates the instant `ticks` ticks after the origin.
  public init(_ ticks: Int) {
    self.ticks = ticks
  }

  public init(integerLiteral value: Int) {
    self.init(value)
  }

  /// The distance from this instant to `other`.
  public func distance(to other: VirtualTime) -> VirtualTimeInterval {
    VirtualTimeInterval(other.ticks - ticks)
  }

  /// The instant `n` after this one.
  public func advanced(by n: VirtualTimeInterval) -> VirtualTime {
    VirtualTime(ticks + n.ticks)
  }

  public var description: String { String(ticks) }
}
