import Foundation

/// A scheduler time that is a `Date`, with a ``SecondsSchedulerStride``: what
/// `RunLoop.SchedulerTimeType` and `OperationQueue.SchedulerTimeType` have in common, written
/// once.
///
/// The two public types keep Apple's names and members; each declares only its `date` and
/// `init(_:)` (and synthesises `Equatable`, `Hashable` and `Codable` from the date), and
/// takes the rest from here. The members below are public so that they can stand for the
/// public protocols' requirements (`Strideable`, `Comparable`); they are reached through
/// those conformances.
@usableFromInline
internal protocol DateSchedulerTime: Strideable, Hashable where Stride: SecondsSchedulerStride {
  /// The date represented by this time.
  var date: Date { get }

  /// Creates a time at `date`.
  init(_ date: Date)
}

extension DateSchedulerTime {
  /// Returns the distance to another time, in seconds.
  ///
  /// ```swift
  /// let start = RunLoop.main.now
  /// start.distance(to: start.advanced(by: 2.5))   // 2.5 seconds
  /// ```
  ///
  /// - Parameter other: Another time of the same scheduler.
  /// - Returns: The time interval between this time and the provided time, in seconds.
  @inlinable
  public func distance(to other: Self) -> Stride {
    Stride(other.date.timeIntervalSince(date))
  }

  /// Returns a time calculated by advancing this instance’s time by the given interval.
  ///
  /// ```swift
  /// let deadline = OperationQueue.main.now.advanced(by: .seconds(1))
  /// ```
  ///
  /// - Parameter n: A time interval to advance; negative to go back.
  /// - Returns: A time advanced by the given interval from this instance’s time.
  @inlinable
  public func advanced(by n: Stride) -> Self {
    Self(date.addingTimeInterval(n.magnitude))
  }

  /// Returns whether the first time comes before the second.
  @inlinable
  public static func < (lhs: Self, rhs: Self) -> Bool {
    lhs.date < rhs.date
  }
}
