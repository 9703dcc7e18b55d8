import Confluence
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A publisher that reads a server-sent event stream (`text/event-stream`) as the WHATWG
/// HTML standard's `EventSource` does: events as the server dispatches them, and a new
/// connection, resuming after the last event ID, whenever one drops.
///
/// Make one with ``FoundationNetworking/URLSession/eventSourcePublisher(for:scheduler:configuration:)-(URLRequest,_,_)``
/// or this type's initializer. The first connection is made when the subscriber first asks
/// for a value; the request is sent with `Accept: text/event-stream` and
/// `Cache-Control: no-store` (and `Last-Event-ID` once there is one). The subscriber
/// receives ``EventSourceUpdate/open`` when the server answers 200 with
/// `text/event-stream`, then ``EventSourceUpdate/event(_:)`` for each event (parsed as
/// ``ServerSentEventParser`` describes), and when the connection drops or ends,
/// ``EventSourceUpdate/reconnecting(_:)`` and, after the wait it names, a new connection.
///
/// ```swift
/// var request = URLRequest(url: URL(string: "http://127.0.0.1:8080/v0/topstories.json")!)
/// let cancellable = URLSession.shared.eventSourcePublisher(for: request, scheduler: DispatchQueue.main)
///   .compactMap(\.event)
///   .filter { $0.type == "put" || $0.type == "patch" }
///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.type, $0.data) })
/// ```
///
/// Reconnection follows the standard: the wait is the reconnection time (the server's last
/// `retry` field, else ``EventSourceConfiguration/reconnectionTime``), doubled for each
/// further attempt in a row that fails, up to ``EventSourceConfiguration/maximumReconnectionDelay``,
/// measured on `scheduler` (pass a `TestScheduler` to test it in virtual time). The new
/// request carries `Last-Event-ID`: the ID of the last event dispatched. An event that a
/// drop cut short is discarded, never delivered in part, so a server that resumes after
/// `Last-Event-ID` loses and repeats nothing across a reconnection.
///
/// The stream ends:
/// - with `.finished` when the server answers 204 No Content (the standard's way to stop a
///   client);
/// - with ``HTTPStreamError/unacceptableStatus(_:)`` for any other status than 200, and
///   ``HTTPStreamError/unexpectedContentType(_:)`` when the server does not answer with
///   `text/event-stream` — the sign that it does not stream, for a caller to fall back to
///   polling;
/// - with the last error when ``EventSourceConfiguration/maximumReconnectAttempts``
///   attempts in a row have failed; with ``HTTPStreamError/lineTooLong(maximumLength:)`` or
///   ``HTTPStreamError/eventTooLarge(maximumLength:)`` beyond
///   ``EventSourceConfiguration/maximumEventLength``.
///
/// Back-pressure: one update per unit of demand. The publisher reads the next chunk of the
/// stream only when the events of the last one are delivered and the subscriber wants more,
/// so it holds at most one chunk (64 KiB over `http://`), one event's data and two pending
/// connection updates; with no demand, nothing is read, and a reconnection waits until its
/// ``EventSourceUpdate/reconnecting(_:)`` has been delivered. `cancel()` closes the
/// connection at once and stops any pending reconnection.
public struct EventSourcePublisher<Context: Scheduler>: Publisher {
  /// The kind of values published: the events, and the connection opening and dropping.
  public typealias Output = EventSourceUpdate

  /// The kind of errors published.
  public typealias Failure = HTTPStreamError

  /// The request each connection sends (with the event-stream headers added).
  public let request: URLRequest

  /// The session whose configuration applies.
  public let session: URLSession

  /// The scheduler the reconnection waits are measured on.
  public let scheduler: Context

  /// How the publisher reconnects, and its limits.
  public let configuration: EventSourceConfiguration

  /// Creates a publisher of the event stream at `request`'s URL.
  ///
  /// ```swift
  /// let events = EventSourcePublisher(request: URLRequest(url: url), scheduler: DispatchQueue.main)
  /// ```
  ///
  /// - Parameters:
  ///   - request: The request each connection sends.
  ///   - session: The session whose configuration applies.
  ///   - scheduler: The scheduler the reconnection waits are measured on.
  ///   - configuration: How the publisher reconnects, and its limits.
  public init(
    request: URLRequest, session: URLSession = .shared, scheduler: Context,
    configuration: EventSourceConfiguration = EventSourceConfiguration()
  ) {
    confluencePrecondition(configuration.maximumEventLength > 0, "maximumEventLength must be positive")
    confluencePrecondition(configuration.reconnectionTime >= .zero, "reconnectionTime must not be negative")
    self.request = request
    self.session = session
    self.scheduler = scheduler
    self.configuration = configuration
  }

  /// Attaches `subscriber`: the first connection is made when it first asks for a value.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    subscriber.receive(subscription: EventSourceSubscription(parent: self, downstream: AnySubscriber(subscriber)))
  }

  /// Returns a publisher of the stream's events only, without the connection's updates.
  ///
  /// ```swift
  /// let puts = URLSession.shared.eventSourcePublisher(for: url, scheduler: DispatchQueue.main)
  ///   .events()
  ///   .filter { $0.type == "put" }
  /// ```
  ///
  /// - Returns: A publisher of the events.
  public func events() -> Publishers.CompactMap<Self, ServerSentEvent> {
    compactMap(\.event)
  }
}
