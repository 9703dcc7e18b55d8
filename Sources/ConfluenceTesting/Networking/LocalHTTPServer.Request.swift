import Foundation

extension LocalHTTPServer {
  /// A request as ``LocalHTTPServer`` received it: its method, target, path and headers.
  ///
  /// ```swift
  /// server.route("/events", .stream(contentType: "text/event-stream") { writer in
  ///   let resumeAfter = writer.request.header("Last-Event-ID")   // nil on a first connection
  ///   writer.write("id: 1\ndata: hello\n\n")
  /// })
  /// ```
  public struct Request: Sendable, Equatable {
    /// The request's method (`GET`, `POST`, …).
    public var method: String
    /// The request target as sent: the path with its query, if any.
    public var target: String
    /// The target's path, without the query: what the routes match.
    public var path: String
    /// The header fields, with the names as the client sent them.
    public var headers: [String: String]

    /// Creates a request record.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - target: The request target (path and query).
    ///   - path: The path alone.
    ///   - headers: The header fields.
    public init(method: String, target: String, path: String, headers: [String: String]) {
      self.method = method
      self.target = target
      self.path = path
      self.headers = headers
    }

    /// The value of a header field, its name compared without regard to case; `nil` if the
    /// request did not have it.
    ///
    /// - Parameter name: The field's name.
    /// - Returns: The field's value.
    public func header(_ name: String) -> String? {
      headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
  }
}
