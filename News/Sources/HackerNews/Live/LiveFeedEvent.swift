/// What ``API/liveFeed(_:limit:scheduler:)`` publishes: the feed's ids and its items as the
/// server streams their changes, and the state of the streams.
///
/// ```swift
/// let cancellable = api.liveFeed(.top, limit: 30, scheduler: DispatchQueue.main)
///   .sink { event in
///     switch event {
///     case .listed(let ids): order = ids
///     case .item(let item): items[item.id] = item
///     case .missing(let id): items[id] = nil
///     case .connection(.notStreaming): startPolling()
///     case .connection(let state): statusLine = "\(state)"
///     }
///   }
/// ```
public enum LiveFeedEvent: Hashable, Sendable {
  /// The feed's first ids, in rank order: first when its stream opens, then each time
  /// they change.
  case listed([Int])
  /// An item of the listed ids: first whole, then again each time it changes.
  case item(Item)
  /// A listed id the server has no item for.
  case missing(Int)
  /// The streams' state changed.
  case connection(Connection)

  /// The state of a live feed's streams.
  public enum Connection: Hashable, Sendable, CustomStringConvertible {
    /// Every stream is open.
    case live
    /// Some streams dropped and are reconnecting: how many, and the attempt of the feed's
    /// own stream (0 when the feed's stream is open).
    case reconnecting(streams: Int, attempt: Int)
    /// The server does not stream (it answered the event-stream request with another
    /// content type, or a 4xx status): the caller polls instead. The live feed ends.
    case notStreaming(String)

    public var description: String {
      switch self {
      case .live: "live"
      case .reconnecting(let streams, _): "reconnecting \(streams) stream\(streams == 1 ? "" : "s") …"
      case .notStreaming(let reason): "not streaming (\(reason)): polling"
      }
    }
  }
}
