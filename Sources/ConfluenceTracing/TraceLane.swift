/// A lane of a trace: one subscription, by number and name.
///
/// A ``TraceRecorder`` hands out lanes; events are recorded against one.
///
/// ```swift
/// let lane = recorder.openLane(named: "fetch")
/// print(lane)  // "#1 fetch"
/// ```
public struct TraceLane: Sendable, Hashable, CustomStringConvertible {
  /// The lane's number, from 1.
  public let id: Int
  /// The lane's name.
  public let name: String

  /// Creates a lane.
  public init(id: Int, name: String) {
    self.id = id
    self.name = name
  }

  public var description: String { "#\(id) \(name)" }
}
