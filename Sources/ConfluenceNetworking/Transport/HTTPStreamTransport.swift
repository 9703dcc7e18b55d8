/// How a streaming publisher reads a response: which client, and how much it may hold that
/// the subscriber has not asked for.
///
/// On Linux, `URLSession` (swift-corelibs-foundation over libcurl) cannot pause a transfer:
/// `suspend()` on a running data task neither stops libcurl reading nor the delegate's
/// `didReceive` calls, and the bytes it reads are queued for the delegate without limit.
/// So for `http://` URLs the publishers read through their own small HTTP/1.1 client over a
/// socket, which reads only when the subscriber has asked for more: a subscriber that stops
/// asking stops the reading, and the server's writes block once the kernel's socket buffers
/// are full. For `https://` (TLS) they use `URLSession` and buffer what arrives ahead of
/// demand up to a limit, failing with ``HTTPStreamError/bufferLimitExceeded(_:)`` beyond it.
///
/// ```swift
/// let bytes = HTTPBytesPublisher(request: URLRequest(url: url), transport: .urlSession(bufferLimit: 1 << 20))
/// ```
public struct HTTPStreamTransport: Hashable, Sendable {
  enum Kind: Hashable, Sendable {
    case automatic
    case urlSession
  }

  let kind: Kind

  /// Over `URLSession`: the most bytes held that the subscriber has not asked for yet.
  public let urlSessionBufferLimit: Int

  /// The default limit for bytes held ahead of demand over `URLSession`: 8 MiB.
  public static let defaultURLSessionBufferLimit = 8 << 20

  /// `http://` through the socket client, which reads only on demand; anything else
  /// through `URLSession`, holding at most 8 MiB ahead of demand.
  public static let automatic = HTTPStreamTransport(
    kind: .automatic, urlSessionBufferLimit: defaultURLSessionBufferLimit)

  /// `http://` through the socket client, which reads only on demand; anything else through
  /// `URLSession`, holding at most `urlSessionBufferLimit` bytes ahead of demand.
  ///
  /// - Parameter urlSessionBufferLimit: The most bytes held ahead of demand over `URLSession`.
  /// - Returns: The transport.
  public static func automatic(urlSessionBufferLimit: Int) -> HTTPStreamTransport {
    precondition(urlSessionBufferLimit > 0, "the buffer limit must be positive (it was \(urlSessionBufferLimit))")
    return HTTPStreamTransport(kind: .automatic, urlSessionBufferLimit: urlSessionBufferLimit)
  }

  /// Always `URLSession` (its configuration's proxies, cookies, TLS), holding at most
  /// `bufferLimit` bytes ahead of demand: over `URLSession` a slow subscriber is bounded by
  /// this limit and an error, not by pausing the transfer.
  ///
  /// - Parameter bufferLimit: The most bytes held ahead of demand.
  /// - Returns: The transport.
  public static func urlSession(bufferLimit: Int = defaultURLSessionBufferLimit) -> HTTPStreamTransport {
    precondition(bufferLimit > 0, "the buffer limit must be positive (it was \(bufferLimit))")
    return HTTPStreamTransport(kind: .urlSession, urlSessionBufferLimit: bufferLimit)
  }
}
