import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 (an ephemeral port) for testing networking code
/// (`URLSession.dataTaskPublisher`) against a real server: real sockets, one thread per
/// connection, one response per connection (`Connection: close`).
///
/// Routes map a path to what to do: answer with a status and body (optionally after a
/// delay), drop the connection without answering, or stream a body written over time
/// (``Reply/stream(status:contentType:chunked:headers:body:)``: chunks, pauses, a drop in
/// the middle, and the request's headers to look at), or decide from the request which of
/// these to give (``Reply/decide(_:)``); an unknown path answers 404. It
/// records the requests it received (``receivedRequests``, with their headers) and whether a
/// client closed its connection while a delayed or streamed answer was pending (a cancelled
/// request).
///
/// ```swift
/// let server = try LocalHTTPServer()
/// server.route("/v0/item/1.json", .respond(status: 200, body: Data(#"{"id":1}"#.utf8)))
/// let cancellable = URLSession.shared
///   .dataTaskPublisher(for: server.baseURL.appendingPathComponent("/v0/item/1.json"))
///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.data.count) })
/// ```
///
/// Not for production: it reads only the request line and headers, and serves each
/// connection on its own thread. A route is matched by the request's path, its query left
/// out.
//
// @unchecked Sendable: `routes`, `requests`, `received` and `closedEarly` are guarded by
// `lock`; the listening socket is set once in init and closed once in stop().
public final class LocalHTTPServer: @unchecked Sendable {
  /// What a route answers.
  public enum Reply: Sendable {
    /// Answer with `status` and `body` after `delay` seconds.
    case respond(status: Int, body: Data, delay: TimeInterval = 0, contentType: String = "application/json")
    /// Close the connection without answering.
    case drop
    /// Answer with `status`, `contentType` and `headers`, then let `body` write the body
    /// over time through a ``StreamWriter`` (which also shows the request). With `chunked`,
    /// each write is one chunk of a `Transfer-Encoding: chunked` body, ended with the last
    /// chunk when `body` returns (unless it dropped the connection); without it, the body
    /// has no length and the close ends it. The connection closes when `body` returns.
    ///
    /// Streamed answers use a small socket send buffer (64 KiB asked for), so a client that
    /// stops reading blocks the writer soon after its own receive buffer is full:
    /// ``StreamWriter/write(_:within:)`` tells when that happens and
    /// ``StreamWriter/bytesWritten`` how much the client took before.
    case stream(
      status: Int = 200, contentType: String, chunked: Bool = true, headers: [String: String] = [:],
      body: @Sendable (StreamWriter) -> Void)
    /// Decide from the request (its headers, its query) which reply to give: a server that
    /// resumes a stream after `Last-Event-ID`, or ends it with 204 once everything is out.
    indirect case decide(@Sendable (Request) -> Reply)
  }

  private let lock = NSLock()
  private var routes: [String: Reply] = [:]
  private var requests: [String] = []
  private var received: [Request] = []
  private var closedEarly: [String] = []
  private let listener: Int32
  private var stopped = false
  /// The port the server listens on.
  public let port: Int

  /// The server's base URL, `http://127.0.0.1:<port>`.
  public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// Starts a server on 127.0.0.1, on a port the system picks.
  ///
  /// - Throws: A `POSIXError` if no socket could be bound.
  public init() throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(fd, 128) == 0 else {
      close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    listener = fd
    port = Int(UInt16(bigEndian: address.sin_port))
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "LocalHTTPServer"
    thread.start()
  }

  deinit { stop() }

  /// Sets what `path` answers.
  public func route(_ path: String, _ reply: Reply) {
    lock.withLock { routes[path] = reply }
  }

  /// The paths asked for so far, in order of arrival.
  public var requestedPaths: [String] { lock.withLock { requests } }

  /// The requests received so far, in order of arrival, with their headers.
  public var receivedRequests: [Request] { lock.withLock { received } }

  /// The paths whose client closed the connection before a delayed answer was sent, or
  /// while a streamed answer was being written.
  public var closedBeforeAnswer: [String] { lock.withLock { closedEarly } }

  /// Notes that the client of `path` closed its connection before the answer was done.
  func recordClosedEarly(_ path: String) {
    lock.withLock { closedEarly.append(path) }
  }

  /// Stops accepting connections.
  ///
  /// The listening socket is shut down here, which wakes the accept loop, and closed by the
  /// loop as it leaves: closed here, its descriptor could be handed to the next server's
  /// socket while the loop, not yet woken, calls `accept` on that number again, and serves
  /// the next server's connection with this server's routes (a 404 where a test expected
  /// its body).
  public func stop() {
    let fd = lock.withLock { () -> Int32? in
      if stopped { return nil }
      stopped = true
      return listener
    }
    if let fd {
      shutdown(fd, Int32(SHUT_RDWR))
    }
  }

  private func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if lock.withLock({ stopped }) {
          close(listener)
          return
        }
        continue
      }
      let thread = Thread { [self] in serve(client) }
      thread.start()
    }
  }

  private func serve(_ client: Int32) {
    defer { close(client) }
    guard let request = readRequest(client) else { return }
    let path = request.path
    var reply = lock.withLock { () -> Reply? in
      requests.append(path)
      received.append(request)
      return routes[path]
    }
    while case .decide(let decide)? = reply { reply = decide(request) }
    switch reply {
    case nil:
      write(client, status: 404, body: Data("not found".utf8), contentType: "text/plain")
    case .drop:
      return
    case .respond(let status, let body, let delay, let contentType)?:
      if delay > 0, !waitWhileOpen(client, seconds: delay) {
        lock.withLock { closedEarly.append(path) }
        return
      }
      write(client, status: status, body: body, contentType: contentType)
    case .stream(let status, let contentType, let chunked, let headers, let body)?:
      var size: Int32 = 64 * 1024
      setsockopt(client, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
      var yes: Int32 = 1
      setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
      var head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")\r\nContent-Type: \(contentType)\r\n"
      for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
      head += chunked ? "Transfer-Encoding: chunked\r\n" : ""
      head += "Connection: close\r\n\r\n"
      let writer = StreamWriter(server: self, socket: client, request: request, chunked: chunked)
      guard writer.sendRaw(Data(head.utf8)) else { return recordClosedEarly(path) }
      body(writer)
      writer.finish()
    case .decide?:
      return  // replaced by what it decided, above
    }
  }

  /// Reads up to the end of the request head; returns the request line's parts and headers.
  private func readRequest(_ client: Int32) -> Request? {
    var head = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !head.contains(Data("\r\n\r\n".utf8)) {
      let count = recv(client, &buffer, buffer.count, 0)
      if count <= 0 { return nil }
      head.append(contentsOf: buffer[0..<count])
    }
    let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
    let parts = (lines.first ?? "").split(separator: " ")
    guard parts.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].trimmingCharacters(in: .whitespaces)
      headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let target = String(parts[1])
    let path =
      target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
    return Request(method: String(parts[0]), target: target, path: path, headers: headers)
  }

  /// Waits `seconds`, watching the connection: returns `false` as soon as the client
  /// closes it.
  private func waitWhileOpen(_ client: Int32, seconds: TimeInterval) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    var byte: UInt8 = 0
    while Date() < deadline {
      var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, 20)
      if ready > 0 {
        // Readable with nothing to read: the client closed its end.
        if recv(client, &byte, 1, Int32(MSG_PEEK)) <= 0 { return false }
      }
    }
    return true
  }

  private func write(_ client: Int32, status: Int, body: Data, contentType: String) {
    let head =
      "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")\r\nContent-Type: \(contentType)\r\n"
      + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    var bytes = Data(head.utf8)
    bytes.append(body)
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let sent = send(client, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        if sent <= 0 { return }
        offset += sent
      }
    }
  }
}
