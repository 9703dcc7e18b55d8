import Confluence
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A publisher that delivers an HTTP response as it arrives: the response first, then the
/// body's bytes in chunks, read only as fast as the subscriber asks for them.
///
/// Make one with ``FoundationNetworking/URLSession/bytesPublisher(for:transport:)`` or
/// this type's initializer. Each subscriber gets its own request, sent when it first asks for
/// a value. It receives ``Part/response(_:)`` once, then ``Part/bytes(_:)`` for each chunk
/// of the body (never empty; chunk boundaries are wherever the network put them), then
/// `.finished` at the body's end. Any status is delivered, as `dataTaskPublisher` does:
/// checking it is the caller's business. A connection that cannot be made, or that closes
/// before the body's end, fails with ``HTTPStreamError/connectionFailed(_:)``.
///
/// ```swift
/// var total = 0
/// let cancellable = URLSession.shared.bytesPublisher(for: URLRequest(url: downloadURL))
///   .sink(
///     receiveCompletion: { print("done:", $0, total) },
///     receiveValue: { part in
///       if case .bytes(let chunk) = part { total += chunk.count }
///     })
/// ```
///
/// Back-pressure: each value is one request's worth. Over `http://` the publisher reads
/// the socket only while the subscriber has demand: at most one chunk of 64 KiB is held in
/// memory, and the kernel's receive buffer (128 KiB asked for) fills and stops the server
/// when the subscriber stops asking. Over `https://`, through `URLSession`, which cannot
/// pause, at most ``HTTPStreamTransport/urlSessionBufferLimit`` bytes are held ahead of
/// demand before the stream fails (see ``HTTPStreamTransport``). `cancel()` closes the
/// connection at once. `request(.none)` traps.
public struct HTTPBytesPublisher: Publisher {
  /// What the publisher delivers: the response, then the body's bytes.
  public enum Part: Equatable, @unchecked Sendable {
    // @unchecked Sendable: an HTTPURLResponse is not changed after it is made.

    /// The response's status and headers, delivered once, first.
    case response(HTTPURLResponse)
    /// The next bytes of the body, as they arrived.
    case bytes(Data)
  }

  /// The kind of values published: the response, then the body in chunks.
  public typealias Output = Part

  /// The kind of errors published.
  public typealias Failure = HTTPStreamError

  /// The request sent for each subscriber.
  public let request: URLRequest

  /// The session whose configuration applies (its additional headers; over `URLSession`,
  /// everything else too).
  public let session: URLSession

  /// Which client reads the response.
  public let transport: HTTPStreamTransport

  /// Creates a publisher that sends `request` for each subscriber.
  ///
  /// ```swift
  /// let bytes = HTTPBytesPublisher(request: URLRequest(url: url))
  /// ```
  ///
  /// - Parameters:
  ///   - request: The request to send.
  ///   - session: The session whose configuration applies.
  ///   - transport: Which client reads the response: by default the socket client for
  ///     `http://` and `URLSession` for anything else.
  public init(request: URLRequest, session: URLSession = .shared, transport: HTTPStreamTransport = .automatic) {
    self.request = request
    self.session = session
    self.transport = transport
  }

  /// Attaches `subscriber`: the request is sent when it first asks for a value.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    subscriber.receive(subscription: HTTPBytesSubscription(parent: self, downstream: AnySubscriber(subscriber)))
  }

  /// Returns a publisher of the body's lines, read only as fast as they are asked for.
  ///
  /// ```swift
  /// let lines = HTTPBytesPublisher(request: URLRequest(url: url)).lines()
  /// ```
  ///
  /// - Parameter maximumLineLength: The most bytes one line may have, its terminator not
  ///   counted; a longer line fails the stream with ``HTTPStreamError/lineTooLong(maximumLength:)``.
  /// - Returns: A publisher of the body's lines.
  public func lines(maximumLineLength: Int = HTTPLinesPublisher.defaultMaximumLineLength) -> HTTPLinesPublisher {
    HTTPLinesPublisher(upstream: self, maximumLineLength: maximumLineLength)
  }
}
