import Confluence

/// One event a ``TraceRecorder`` recorded: what happened on which lane (one lane per
/// subscription), when, and on which thread.
///
/// ```swift
/// for event in recorder.events where event.lane == 1 {
///   print(event.kind)
/// }
/// ```
public struct TraceEvent: Sendable, CustomStringConvertible {
  /// What happened.
  public enum Kind: Sendable, Equatable, CustomStringConvertible {
    /// The traced stage's publisher received a subscriber (`subscribe(_:)` was called).
    case subscribed
    /// The subscriber received its subscription, described as `print` shows it.
    case subscription(String)
    /// The subscriber requested demand through `request(_:)`.
    case request(Subscribers.Demand)
    /// The subscriber returned more demand from `receive(_:)`.
    case demandReturned(Subscribers.Demand)
    /// A value arrived (described, at most ``TraceRecorder/valueDescriptionLimit`` characters).
    case value(String)
    /// The publisher finished.
    case finished
    /// The publisher failed with the described error.
    case failure(String)
    /// The subscriber cancelled.
    case cancel

    public var description: String {
      switch self {
      case .subscribed: return "subscribed"
      case .subscription(let description): return "subscription(\(description))"
      case .request(let demand): return "request(\(demand))"
      case .demandReturned(let demand): return "demand returned(\(demand))"
      case .value(let value): return "value(\(value))"
      case .finished: return "finished"
      case .failure(let error): return "failure(\(error))"
      case .cancel: return "cancel"
      }
    }
  }

  /// The order in which the recorder took the event, from 0 since it started.
  public let sequence: Int
  /// The time since the recorder started.
  public let time: Duration
  /// The thread, numbered by the recorder from 1 in the order threads first recorded.
  public let thread: Int
  /// The lane: one per subscription, numbered from 1.
  public let lane: Int
  /// The lane's name: the `trace` label, or the publisher's type for a recording of every
  /// subscription.
  public let laneName: String
  /// What happened.
  public let kind: Kind

  /// Creates an event.
  public init(sequence: Int, time: Duration, thread: Int, lane: Int, laneName: String, kind: Kind) {
    self.sequence = sequence
    self.time = time
    self.thread = thread
    self.lane = lane
    self.laneName = laneName
    self.kind = kind
  }

  public var description: String { "#\(lane) \(laneName): \(kind)" }
}
