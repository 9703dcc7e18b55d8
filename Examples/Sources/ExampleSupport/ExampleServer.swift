import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1, so that the networking chapters run without a
/// network and print the same thing every time.
///
/// It answers each path of `routes` with that body (status 200, JSON), anything else with
/// 404, one request per connection, after `delay` seconds. A real program talks to a real
/// server; only the URL changes.
///
/// ```swift
/// let server = try ExampleServer(routes: ["/mydata.json": #"{"name":"Confluence"}"#])
/// let url = server.baseURL.appendingPathComponent("mydata.json")
/// ```
//
// @unchecked Sendable: every stored property is a `let`; the accept loop runs on its own
// thread and reads only those.
public final class ExampleServer: @unchecked Sendable {
  #if canImport(Darwin)
    private let noSignal: Int32 = 0
  #else
    // A client that hung up must not kill the process with SIGPIPE.
    private let noSignal = Int32(MSG_NOSIGNAL)
  #endif
  /// The server's base URL, `http://127.0.0.1:<port>`.
  public let baseURL: URL
  private let routes: [String: String]
  private let delay: TimeInterval
  private let listener: Int32

  /// Starts serving `routes` on a port the system picks.
  ///
  /// - Parameters:
  ///   - routes: The body to answer for each path.
  ///   - delay: How long each answer waits, in seconds.
  public init(routes: [String: String], delay: TimeInterval = 0) throws {
    #if canImport(Darwin)
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #else
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(fd, 16) == 0 else {
      close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    self.listener = fd
    self.routes = routes
    self.delay = delay
    self.baseURL = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
    let thread = Thread { [self] in
      while case let client = accept(listener, nil, nil), client >= 0 {
        serve(client)
      }
    }
    thread.start()
  }

  private func serve(_ client: Int32) {
    defer { close(client) }
    #if canImport(Darwin)
      // A client that hung up must not kill the process with SIGPIPE.
      var yes: Int32 = 1
      setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
    #endif
    var head = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !String(decoding: head, as: UTF8.self).contains("\r\n\r\n") {
      let count = recv(client, &buffer, buffer.count, 0)
      if count <= 0 { return }
      head += buffer[0..<count]
    }
    let requestLine = String(decoding: head, as: UTF8.self).split(separator: "\r\n").first ?? ""
    let path = requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
    if delay > 0 { Thread.sleep(forTimeInterval: delay) }
    let (status, body) = routes[path].map { ("200 OK", $0) } ?? ("404 Not Found", "not found")
    let response = Array(
      ("HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
        + "Connection: close\r\n\r\n\(body)").utf8)
    var offset = 0
    while offset < response.count {
      let sent = response[offset...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, noSignal) }
      if sent <= 0 { return }
      offset += sent
    }
  }
}
