import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a connection reports to the one who reads it.
enum HTTPStreamReport: @unchecked Sendable {
  // @unchecked Sendable: HTTPURLResponse is immutable once made; it is handed over, not shared.
  case response(HTTPURLResponse)
  case body(Data)
  case end
  case failure(HTTPStreamError)
}

/// One HTTP exchange read on demand, whatever client carries it.
///
/// The contract: after `start`, the connection reports exactly one `.response` or
/// `.failure`; after each `readNext()` (called only after the response, and never again
/// before its report) exactly one `.body` (some bytes, never empty), `.end` or `.failure`.
/// Reports come one at a time, from the connection's own queue, and none comes after
/// `.end`, `.failure` or `cancel()`. `cancel()` may come from any thread, at any time, and
/// closes the connection at once.
protocol HTTPStreamConnection: AnyObject, Sendable {
  /// Starts the exchange; the connection holds `handler` until it ends or is cancelled.
  func start(_ handler: HTTPStreamReportHandler)
  func readNext()
  func cancel()
}

/// Who reads a connection: it is handed the connection's reports.
protocol HTTPStreamReportHandler: AnyObject, Sendable {
  func handle(_ report: HTTPStreamReport)
}

enum HTTPStreamConnections {
  /// Makes the connection the transport chooses for `request`.
  static func make(
    request: URLRequest, session: URLSession, transport: HTTPStreamTransport, redirectsLeft: Int = 10
  ) -> HTTPStreamConnection {
    if transport.kind == .automatic, request.url?.scheme?.lowercased() == "http" {
      return SocketHTTPConnection(
        request: request, session: session, transport: transport, redirectsLeft: redirectsLeft)
    }
    return URLSessionHTTPConnection(request: request, session: session, bufferLimit: transport.urlSessionBufferLimit)
  }
}
