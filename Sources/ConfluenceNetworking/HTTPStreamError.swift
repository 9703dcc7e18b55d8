import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An error that ends a stream read over HTTP: the connection, the response or the body
/// was not what the publisher can deliver.
///
/// ``HTTPBytesPublisher``, ``HTTPLinesPublisher`` and ``EventSourcePublisher`` fail with it.
/// Each case says what went wrong and carries what a caller needs to react:
///
/// ```swift
/// let cancellable = URLSession.shared.eventSourcePublisher(for: url, scheduler: DispatchQueue.main)
///   .sink(
///     receiveCompletion: { completion in
///       if case .failure(.unexpectedContentType) = completion { startPolling() }
///     },
///     receiveValue: { print($0) })
/// ```
public enum HTTPStreamError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The connection could not be made, or it failed or was lost while the body was read.
  ///
  /// The `URLError`'s code says which: `.cannotConnectToHost`, `.cannotFindHost`,
  /// `.timedOut` (no answer within the request's `timeoutInterval`),
  /// `.networkConnectionLost` (the connection closed before the body's end).
  case connectionFailed(URLError)

  /// The server answered with a status the publisher does not accept.
  ///
  /// ``HTTPLinesPublisher`` accepts 2xx statuses; ``EventSourcePublisher`` accepts 200 (and
  /// ends cleanly on 204), as the `EventSource` standard does.
  case unacceptableStatus(Int)

  /// The server answered an event-source request with a `Content-Type` other than
  /// `text/event-stream` (the associated value is the header's value, `nil` without one):
  /// the server does not stream.
  case unexpectedContentType(String?)

  /// A line of the body is longer than the limit, in bytes, its terminator not counted.
  case lineTooLong(maximumLength: Int)

  /// An event's data grew beyond the limit, in bytes, before the blank line that ends it.
  case eventTooLarge(maximumLength: Int)

  /// The server broke HTTP/1.1's framing (a malformed status line, header or chunk size);
  /// the associated value says what was wrong.
  case malformedResponse(String)

  /// Over `URLSession`, which cannot pause a transfer on Linux, more body bytes arrived
  /// than the subscriber asked for and the limit allows (the associated value is the limit).
  case bufferLimitExceeded(Int)

  /// The server sent more redirects than the publisher follows (the value is the limit).
  case tooManyRedirects(Int)

  /// Hashes the case and what identifies it (a `URLError` by its code, as its description shows).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(description)
  }

  public var description: String {
    switch self {
    case .connectionFailed(let error): "connection failed (URLError \(error.code.rawValue))"
    case .unacceptableStatus(let status): "unacceptable HTTP status \(status)"
    case .unexpectedContentType(let type): "unexpected content type \(type ?? "(none)")"
    case .lineTooLong(let limit): "a line is longer than \(limit) bytes"
    case .eventTooLarge(let limit): "an event is larger than \(limit) bytes"
    case .malformedResponse(let what): "malformed HTTP response: \(what)"
    case .bufferLimitExceeded(let limit): "more than \(limit) bytes arrived that the subscriber did not ask for"
    case .tooManyRedirects(let limit): "more than \(limit) redirects"
    }
  }
}
