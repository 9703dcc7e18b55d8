import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 (an ephemeral port) for testing networking code
/// (`URLSession.dataTaskPublisher`) against a real server: real sockets, one thread per
/// connection, one response per connection (`Connection: close`).
///
/// Routes map a path to what to do: answer with a status and body (optionally after a
/// delay), or drop the connection without answering; an unknown path answers 404. It
/// records the paths it was asked for and whether a client closed its connection while a
/// delayed answer was pending (a cancelled request).
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
/// connection on its own thread.
//
// @unchecked Sendable: `routes`, `requests` and `closedEarly` are guarded by `lock`; the
// listening socket is set once in init and closed once in stop().
public final class LocalHTTPServer: @unchecked Sendable {
  /// What a route answers.
  public enum Reply: Sendable {
    /// Answer with `status` and `body` after `delay` seconds.
    case respond(status: Int, body: Data, delay: TimeInterval = 0, contentType: String = "application/json")
    /// Close the connection without answering.
    case drop
  }

  private let lock = NSLock()
  private var routes: [String: Reply] = [:]
  private var requests: [String] = []
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

  /// The paths whose client closed the connection before a delayed answer was sent.
  public var closedBeforeAnswer: [String] { lock.withLock { closedEarly } }

  /// Stops accepting connections.
  public func stop() {
    let fd = lock.withLock { () -> Int32? in
      if stopped { return nil }
      stopped = true
      return listener
    }
    if let fd {
      shutdown(fd, Int32(SHUT_RDWR))
      close(fd)
    }
  }

  private func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if lock.withLock({ stopped }) { return }
        continue
      }
      let thread = Thread { [self] in serve(client) }
      thread.start()
    }
  }

  private func serve(_ client: Int32) {
    defer { close(client) }
    guard let path = readRequestPath(client) else { return }
    let reply = lock.withLock { () -> Reply? in
      requests.append(path)
      return routes[path]
    }
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
    }
  }

  /// Reads up to the end of the request head; returns the request's path.
  private func readRequestPath(_ client: Int32) -> String? {
    var head = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !head.contains(Data("\r\n\r\n".utf8)) {
      let count = recv(client, &buffer, buffer.count, 0)
      if count <= 0 { return nil }
      head.append(contentsOf: buffer[0..<count])
    }
    let firstLine = String(decoding: head, as: UTF8.self).split(separator: "\r\n").first ?? ""
    let parts = firstLine.split(separator: " ")
    return parts.count >= 2 ? String(parts[1]) : nil
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
