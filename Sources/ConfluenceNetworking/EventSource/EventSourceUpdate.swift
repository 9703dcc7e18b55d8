/// What an ``EventSourcePublisher`` delivers: the stream's events, and the moments its
/// connection opens and drops.
///
/// The three cases are the `EventSource` interface's `open`, `message` and `error`
/// events: a subscriber that only wants the events takes ``event`` (or uses
/// ``EventSourcePublisher/events()``); one that shows the connection's state switches on
/// all three.
///
/// ```swift
/// let cancellable = URLSession.shared.eventSourcePublisher(for: url, scheduler: DispatchQueue.main)
///   .sink(receiveCompletion: { print("ended:", $0) }) { update in
///     switch update {
///     case .open: status = "live"
///     case .event(let event): apply(event)
///     case .reconnecting(let reconnection): status = "reconnecting in \(reconnection.delay)"
///     }
///   }
/// ```
public enum EventSourceUpdate: Hashable, Sendable {
  /// The connection opened: the server answered 200 with `text/event-stream`. First, and
  /// again after each reconnection.
  case open
  /// An event of the stream.
  case event(ServerSentEvent)
  /// The connection dropped (or could not be made) and will be made again after
  /// `reconnection.delay`.
  case reconnecting(EventSourceReconnection)

  /// The event, if this update is one.
  public var event: ServerSentEvent? {
    if case .event(let event) = self { return event }
    return nil
  }
}

/// Why and when an ``EventSourcePublisher`` connects again.
public struct EventSourceReconnection: Hashable, Sendable {
  /// How many attempts in a row have now failed to keep a connection: 1 after a connection
  /// that was open drops, counting up while new ones fail, back to 0 once one opens.
  public var attempt: Int

  /// How long the publisher waits before connecting again: the reconnection time (the
  /// server's last `retry`, or the configuration's), doubled for each further failed
  /// attempt in a row, at most the configuration's maximum.
  public var delay: Duration

  /// The last event ID the new connection sends as `Last-Event-ID` (none if empty).
  public var lastEventID: String

  /// What ended the connection: `nil` when the server closed the stream in the ordinary way.
  public var error: HTTPStreamError?

  /// Creates a reconnection record.
  ///
  /// - Parameters:
  ///   - attempt: How many attempts in a row have failed.
  ///   - delay: The wait before connecting again.
  ///   - lastEventID: The ID the new connection sends as `Last-Event-ID`.
  ///   - error: What ended the connection, `nil` for an ordinary close.
  public init(attempt: Int, delay: Duration, lastEventID: String, error: HTTPStreamError?) {
    self.attempt = attempt
    self.delay = delay
    self.lastEventID = lastEventID
    self.error = error
  }
}

/// How an ``EventSourcePublisher`` reconnects and how much one event may hold.
///
/// ```swift
/// var configuration = EventSourceConfiguration()
/// configuration.reconnectionTime = .milliseconds(500)
/// configuration.maximumReconnectAttempts = 5
/// let events = URLSession.shared.eventSourcePublisher(
///   for: url, scheduler: DispatchQueue.main, configuration: configuration)
/// ```
public struct EventSourceConfiguration: Hashable, Sendable {
  /// The wait before reconnecting until the server sends `retry`: 3 seconds by default.
  public var reconnectionTime: Duration = .seconds(3)

  /// The longest wait between attempts, however many failed in a row: 60 seconds by default.
  public var maximumReconnectionDelay: Duration = .seconds(60)

  /// How many attempts in a row may fail before the publisher fails with the last error;
  /// `nil` (the default) never gives up, as a browser's `EventSource` does not.
  public var maximumReconnectAttempts: Int? = nil

  /// The last event ID to start from: the first connection sends it as `Last-Event-ID`
  /// when it is not empty, to resume a stream read before.
  public var lastEventID: String = ""

  /// The most bytes one line, and one event's data, may have: 1 MiB by default.
  public var maximumEventLength: Int = 1 << 20

  /// Which client reads the stream.
  public var transport: HTTPStreamTransport = .automatic

  /// Creates the default configuration.
  public init() {}
}
