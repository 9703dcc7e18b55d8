import Confluence
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSession {
  /// Returns a publisher of a response as it arrives: the response, then the body's bytes
  /// in chunks, read only as fast as the subscriber asks.
  ///
  /// ```swift
  /// let cancellable = URLSession.shared.bytesPublisher(for: URLRequest(url: url))
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: one chunk per unit of demand; see ``HTTPBytesPublisher``.
  ///
  /// - Parameters:
  ///   - request: The request to send for each subscriber.
  ///   - transport: Which client reads the response.
  /// - Returns: A publisher of the response and its body's bytes.
  public func bytesPublisher(for request: URLRequest, transport: HTTPStreamTransport = .automatic)
    -> HTTPBytesPublisher
  {
    HTTPBytesPublisher(request: request, session: self, transport: transport)
  }

  /// Returns a publisher of a response as it arrives, for a URL.
  ///
  /// ```swift
  /// let bytes = URLSession.shared.bytesPublisher(for: URL(string: "http://127.0.0.1:8080/big")!)
  /// ```
  ///
  /// Back-pressure: one chunk per unit of demand; see ``HTTPBytesPublisher``.
  ///
  /// - Parameter url: The URL to get for each subscriber.
  /// - Returns: A publisher of the response and its body's bytes.
  public func bytesPublisher(for url: URL) -> HTTPBytesPublisher {
    HTTPBytesPublisher(request: URLRequest(url: url), session: self)
  }

  /// Returns a publisher of the lines of a response's body, read only as fast as the
  /// subscriber asks.
  ///
  /// ```swift
  /// let cancellable = URLSession.shared.linesPublisher(for: URLRequest(url: url))
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: one line per unit of demand; see ``HTTPLinesPublisher``.
  ///
  /// - Parameters:
  ///   - request: The request to send for each subscriber.
  ///   - maximumLineLength: The most bytes one line may have, its terminator not counted.
  /// - Returns: A publisher of the body's lines.
  public func linesPublisher(
    for request: URLRequest, maximumLineLength: Int = HTTPLinesPublisher.defaultMaximumLineLength
  ) -> HTTPLinesPublisher {
    HTTPLinesPublisher(upstream: bytesPublisher(for: request), maximumLineLength: maximumLineLength)
  }

  /// Returns a publisher of the lines of a response's body, for a URL.
  ///
  /// ```swift
  /// let lines = URLSession.shared.linesPublisher(for: URL(string: "http://127.0.0.1:8080/log")!)
  /// ```
  ///
  /// Back-pressure: one line per unit of demand; see ``HTTPLinesPublisher``.
  ///
  /// - Parameters:
  ///   - url: The URL to get for each subscriber.
  ///   - maximumLineLength: The most bytes one line may have, its terminator not counted.
  /// - Returns: A publisher of the body's lines.
  public func linesPublisher(
    for url: URL, maximumLineLength: Int = HTTPLinesPublisher.defaultMaximumLineLength
  ) -> HTTPLinesPublisher {
    linesPublisher(for: URLRequest(url: url), maximumLineLength: maximumLineLength)
  }

  /// Returns a publisher of the server-sent event stream at a request's URL, reconnecting
  /// as the `EventSource` standard does, its waits measured on `scheduler`.
  ///
  /// ```swift
  /// let cancellable = URLSession.shared
  ///   .eventSourcePublisher(for: URLRequest(url: url), scheduler: DispatchQueue.main)
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: one update per unit of demand; see ``EventSourcePublisher``.
  ///
  /// - Parameters:
  ///   - request: The request each connection sends.
  ///   - scheduler: The scheduler the reconnection waits are measured on.
  ///   - configuration: How the publisher reconnects, and its limits.
  /// - Returns: A publisher of the stream's events and connection updates.
  public func eventSourcePublisher<Context: Scheduler>(
    for request: URLRequest, scheduler: Context, configuration: EventSourceConfiguration = EventSourceConfiguration()
  ) -> EventSourcePublisher<Context> {
    EventSourcePublisher(request: request, session: self, scheduler: scheduler, configuration: configuration)
  }

  /// Returns a publisher of the server-sent event stream at a URL.
  ///
  /// ```swift
  /// let events = URLSession.shared.eventSourcePublisher(
  ///   for: URL(string: "http://127.0.0.1:8080/v0/topstories.json")!, scheduler: DispatchQueue.main)
  /// ```
  ///
  /// Back-pressure: one update per unit of demand; see ``EventSourcePublisher``.
  ///
  /// - Parameters:
  ///   - url: The URL of the stream.
  ///   - scheduler: The scheduler the reconnection waits are measured on.
  ///   - configuration: How the publisher reconnects, and its limits.
  /// - Returns: A publisher of the stream's events and connection updates.
  public func eventSourcePublisher<Context: Scheduler>(
    for url: URL, scheduler: Context, configuration: EventSourceConfiguration = EventSourceConfiguration()
  ) -> EventSourcePublisher<Context> {
    eventSourcePublisher(for: URLRequest(url: url), scheduler: scheduler, configuration: configuration)
  }
}
