/// A scheduler for performing synchronous actions.
///
/// You can only use this scheduler for immediate actions. If you attempt to schedule
/// actions after a specific date, this scheduler ignores the date and performs them
/// immediately.
///
/// ```swift
/// let cancellable = Just(1)
///   .receive(on: ImmediateScheduler.shared)
///   .sink { print($0) }   // prints 1 at once, on this thread
/// ```
public struct ImmediateScheduler: Scheduler, Sendable {
  /// The time type used by the immediate scheduler.
  public struct SchedulerTimeType: Strideable, Sendable {
    /// The increment by which the immediate scheduler counts time.
    public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
      SchedulerTimeIntervalConvertible, Sendable
    {
      /// The type used when evaluating floating-point literals.
      public typealias FloatLiteralType = Double

      /// The type used when evaluating integer literals.
      public typealias IntegerLiteralType = Int

      /// The type used for expressing the stride’s magnitude.
      public typealias Magnitude = Int

      /// The value of this time interval.
      public var magnitude: Int

      /// Creates an immediate scheduler time interval from the given time interval.
      public init(_ value: Int) {
        magnitude = value
      }

      /// Creates an immediate scheduler time interval from an integer seconds value.
      public init(integerLiteral value: Int) {
        self.init(value)
      }

      /// Creates an immediate scheduler time interval from a floating-point seconds value.
      public init(floatLiteral value: Double) {
        self.init(Int(value))
      }

      /// Creates an immediate scheduler time interval from a binary integer type, if it
      /// can be represented exactly.
      public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Int(exactly: source) else { return nil }
        self.init(value)
      }

      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
      public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
      public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
      public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

      // The immediate scheduler has no clock: as Apple's, a stride made from a unit of time
      // is zero (`.seconds(1100) == 0`). Strides made from numbers keep them, so they still
      // compare and add.

      /// A zero stride: the immediate scheduler has no time.
      public static func seconds(_ s: Int) -> Stride { Stride(0) }
      /// A zero stride: the immediate scheduler has no time.
      public static func seconds(_ s: Double) -> Stride { Stride(0) }
      /// A zero stride: the immediate scheduler has no time.
      public static func milliseconds(_ ms: Int) -> Stride { Stride(0) }
      /// A zero stride: the immediate scheduler has no time.
      public static func microseconds(_ us: Int) -> Stride { Stride(0) }
      /// A zero stride: the immediate scheduler has no time.
      public static func nanoseconds(_ ns: Int) -> Stride { Stride(0) }
    }

    /// The immediate scheduler has no clock: every instant is the same.
    @usableFromInline
    internal init() {}

    /// Returns the distance to another immediate scheduler time; always zero.
    public func distance(to other: SchedulerTimeType) -> Stride { 0 }

    /// Adds the given stride to this time; the result is the same instant.
    public func advanced(by n: Stride) -> SchedulerTimeType { self }
  }

  /// The immediate scheduler accepts no options.
  public typealias SchedulerOptions = Never

  /// The shared instance of the immediate scheduler.
  ///
  /// You cannot create instances of the immediate scheduler yourself. Use only the shared
  /// instance.
  public static let shared = ImmediateScheduler()

  private init() {}

  /// The immediate scheduler’s definition of the current moment in time.
  public var now: SchedulerTimeType { SchedulerTimeType() }

  /// The minimum tolerance allowed by the immediate scheduler.
  public var minimumTolerance: SchedulerTimeType.Stride { 0 }

  /// Performs the action at once, on the calling thread.
  public func schedule(options: Never?, _ action: @escaping () -> Void) {
    action()
  }

  /// Performs the action at once, on the calling thread, ignoring the date.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void
  ) {
    action()
  }

  /// Performs the action once, at once; there is nothing to repeat or cancel, so, as
  /// Apple's, it returns the empty subscription (`Subscriptions.empty`).
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
    options: Never?, _ action: @escaping () -> Void
  ) -> Cancellable {
    action()
    return Subscriptions.empty
  }
}
