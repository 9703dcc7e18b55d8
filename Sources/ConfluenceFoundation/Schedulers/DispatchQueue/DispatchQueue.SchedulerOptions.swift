import Dispatch

extension DispatchQueue {
  /// Options that affect the operation of the dispatch queue scheduler.
  ///
  /// ```swift
  /// let group = DispatchGroup()
  /// DispatchQueue.global().schedule(options: .init(qos: .userInitiated, group: group)) {
  ///   print("in the group")
  /// }
  /// group.wait()
  /// ```
  ///
  /// `qos` and `flags` apply to every kind of scheduled action; `group` applies to
  /// actions scheduled with ``DispatchQueue/schedule(options:_:)``, as on Darwin.
  public struct SchedulerOptions: Sendable {
    /// The dispatch queue quality of service.
    public var qos: DispatchQoS

    /// The dispatch queue work item flags.
    public var flags: DispatchWorkItemFlags {
      get { DispatchWorkItemFlags(rawValue: flagsRawValue) }
      set { flagsRawValue = newValue.rawValue }
    }

    /// The dispatch group, if any, that should be used for performing actions.
    public var group: DispatchGroup?

    // `DispatchWorkItemFlags` is not `Sendable` on Linux, but it is a plain option set of
    // `UInt` bits: storing the bits keeps the options truly `Sendable`.
    private var flagsRawValue: UInt

    /// Creates a dispatch queue scheduler options instance with the given options.
    ///
    /// ```swift
    /// let options = DispatchQueue.SchedulerOptions(qos: .background, flags: .barrier)
    /// ```
    ///
    /// - Parameters:
    ///   - qos: The quality of service for the scheduled work.
    ///   - flags: The work item flags for the scheduled work.
    ///   - group: The dispatch group to associate immediate actions with, if any.
    public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
      self.qos = qos
      self.flagsRawValue = flags.rawValue
      self.group = group
    }
  }
}
