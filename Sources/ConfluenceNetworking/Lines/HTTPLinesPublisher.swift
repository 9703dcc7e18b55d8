import Confluence
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A publisher that delivers the lines of an HTTP response's body as they arrive, read only
/// as fast as the subscriber asks for them.
///
/// Make one with ``FoundationNetworking/URLSession/linesPublisher(for:maximumLineLength:)-(URLRequest,_)``
/// or ``HTTPBytesPublisher/lines(maximumLineLength:)``. The body is read as UTF-8 (invalid
/// bytes become U+FFFD) and split at `"\n"` and `"\r\n"` (a lone `"\r"` is an ordinary
/// character); the lines come without their terminators. A line split across network
/// chunks, even inside a multi-byte character, arrives whole; an empty line is `""`; a last
/// line without a newline is delivered before `.finished`.
///
/// ```swift
/// // Newline-delimited JSON, one record per line:
/// let cancellable = URLSession.shared.linesPublisher(for: URLRequest(url: feedURL))
///   .map { Data($0.utf8) }
///   .decode(type: Record.self, decoder: JSONDecoder())
///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
/// ```
///
/// A response whose status is not 2xx fails with ``HTTPStreamError/unacceptableStatus(_:)``;
/// a line longer than `maximumLineLength` bytes fails with
/// ``HTTPStreamError/lineTooLong(maximumLength:)`` as soon as it is known to be too long;
/// a connection that breaks fails with ``HTTPStreamError/connectionFailed(_:)`` after the
/// complete lines received before the break. A failure comes once the lines before it have
/// been asked for and delivered, and so does `.finished`.
///
/// Back-pressure: a line per unit of demand. When the lines read so far are delivered and
/// the subscriber asks for more, the publisher asks its upstream for one more chunk. It holds
/// at most one chunk (64 KiB over `http://`) and the start of one line (at most
/// `maximumLineLength` bytes); with no demand, nothing more is read. `cancel()` closes
/// the connection at once.
public struct HTTPLinesPublisher: Publisher {
  /// The kind of values published: a line, without its terminator.
  public typealias Output = String

  /// The kind of errors published.
  public typealias Failure = HTTPStreamError

  /// The default limit on a line's length: 1 MiB.
  public static let defaultMaximumLineLength = 1 << 20

  /// The publisher whose body is split into lines.
  public let upstream: HTTPBytesPublisher

  /// The most bytes a line may have, its terminator not counted.
  public let maximumLineLength: Int

  /// Creates a publisher of the lines of `upstream`'s body.
  ///
  /// ```swift
  /// let lines = HTTPLinesPublisher(upstream: HTTPBytesPublisher(request: URLRequest(url: url)))
  /// ```
  ///
  /// - Parameters:
  ///   - upstream: The response to read.
  ///   - maximumLineLength: The most bytes a line may have, its terminator not counted.
  public init(upstream: HTTPBytesPublisher, maximumLineLength: Int = defaultMaximumLineLength) {
    confluencePrecondition(maximumLineLength > 0, "maximumLineLength must be positive (it was \(maximumLineLength))")
    self.upstream = upstream
    self.maximumLineLength = maximumLineLength
  }

  /// Attaches `subscriber`: the request is sent when it first asks for a line.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let subscription = HTTPLinesSubscription(
      downstream: HTTPLinesDownstream(subscriber), maximumLineLength: maximumLineLength)
    upstream.subscribe(subscription)
    subscriber.receive(subscription: subscription)
  }
}
