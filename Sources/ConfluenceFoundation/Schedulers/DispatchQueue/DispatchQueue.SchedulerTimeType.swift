import Dispatch

extension DispatchQueue {
  /// The scheduler time type used by the dispatch queue.
  ///
  /// A `SchedulerTimeType` wraps a `DispatchTime`: a point on the monotonic clock that
  /// dispatch uses for deadlines (it does not advance while the machine sleeps, and is not
  /// affected by changes to the wall clock). You get one from the queue's `now` and move
  /// it with a ``Stride``:
  ///
  /// ```swift
  /// let queue = DispatchQueue.main
  /// let inHalfASecond = queue.now.advanced(by: .milliseconds(500))
  /// queue.schedule(after: inHalfASecond) { print("later") }
  /// ```
  ///
  /// Arithmetic is exact, in nanoseconds, and saturates: advancing past the end of the
  /// clock gives the largest time, going back before its start gives time zero, and
  /// `DispatchTime.distantFuture` stays where it is. Times encode as their
  /// `uptimeNanoseconds`.
  public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
    /// The dispatch time represented by this type.
    public var dispatchTime: DispatchTime

    /// Creates a dispatch queue time type instance.
    ///
    /// ```swift
    /// let time = DispatchQueue.SchedulerTimeType(.now() + .seconds(1))
    /// ```
    ///
    /// - Parameter time: The dispatch time to represent.
    @inlinable
    public init(_ time: DispatchTime) {
      dispatchTime = time
    }

    /// Creates a time from a single unsigned integer: its uptime in nanoseconds.
    ///
    /// - Parameter decoder: The decoder to read data from.
    public init(from decoder: Decoder) throws {
      let container = try decoder.singleValueContainer()
      self.init(DispatchTime(uptimeNanoseconds: try container.decode(UInt64.self)))
    }

    /// Encodes this time as a single unsigned integer: its uptime in nanoseconds.
    ///
    /// - Parameter encoder: The encoder to write data to.
    public func encode(to encoder: Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(dispatchTime.uptimeNanoseconds)
    }

    /// Returns the distance to another dispatch queue time.
    ///
    /// ```swift
    /// let start = DispatchQueue.main.now
    /// start.distance(to: start.advanced(by: .seconds(2)))   // .seconds(2)
    /// ```
    ///
    /// - Parameter other: Another dispatch queue time.
    /// - Returns: The time interval between this time and the provided time, in
    ///   nanoseconds, clamped to the range of `Int`.
    @inlinable
    public func distance(to other: SchedulerTimeType) -> Stride {
      let start = dispatchTime.uptimeNanoseconds
      let end = other.dispatchTime.uptimeNanoseconds
      // As Apple's: a time beyond `Int.max` nanoseconds (the distant future, or near it)
      // is infinitely far, whichever way one looks.
      if start == end { return Stride(nanoseconds: 0) }
      guard start <= UInt64(Int.max), end <= UInt64(Int.max) else { return Stride(nanoseconds: .max) }
      return Stride(nanoseconds: Int(end) - Int(start))
    }

    /// Returns a dispatch queue scheduler time calculated by advancing this instance’s
    /// time by the given interval.
    ///
    /// ```swift
    /// let deadline = DispatchQueue.main.now.advanced(by: .milliseconds(250))
    /// ```
    ///
    /// - Parameter n: A time interval to advance; negative to go back.
    /// - Returns: A dispatch queue time advanced by the given interval from this
    ///   instance’s time. `DispatchTime.distantFuture` is returned unchanged.
    @inlinable
    public func advanced(by n: Stride) -> SchedulerTimeType {
      let start = dispatchTime.uptimeNanoseconds
      guard start <= UInt64(Int.max) else { return self }
      // As Apple's: past `Int.max` nanoseconds is the distant future, and before the first
      // nanosecond is the first nanosecond.
      let (sum, overflow) = Int(start).addingReportingOverflow(n.magnitude)
      if overflow {
        return n.magnitude > 0
          ? SchedulerTimeType(.distantFuture) : SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1))
      }
      if sum < 1 { return SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)) }
      return SchedulerTimeType(DispatchTime(uptimeNanoseconds: UInt64(sum)))
    }

    /// Hashes the time's uptime in nanoseconds.
    ///
    /// - Parameter hasher: The hasher to use when combining the components of this
    ///   instance.
    @inlinable
    public func hash(into hasher: inout Hasher) {
      hasher.combine(dispatchTime.uptimeNanoseconds)
    }

    /// Returns whether two times are the same instant.
    @inlinable
    public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
      lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
    }

    /// Returns whether the first time comes before the second.
    @inlinable
    public static func < (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
      lhs.dispatchTime.uptimeNanoseconds < rhs.dispatchTime.uptimeNanoseconds
    }
  }
}
