import Confluence
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An HTTP/1.1 exchange over a plain TCP socket that reads only when asked to: the
/// streaming publishers' client for `http://` URLs (see `HTTPStreamTransport`).
///
/// The socket is non-blocking and read by a dispatch read source on the connection's serial
/// queue. The source runs while the head is awaited and, afterwards, only between a
/// `readNext()` and the body bytes that answer it: at most one `recv` of `chunkSize` bytes
/// is held in memory, and while nobody asks, nothing is read — the kernel's receive buffer
/// (`receiveBufferSize`, set before connecting) fills, the window closes, and the server's
/// writes block. `cancel()`, from any thread, shuts the socket down at once while it connects
/// or sends the request (interrupting a blocked `connect` or `send`); once the source reads,
/// the cancel closes the socket on the queue, as soon as a delivery in progress returns.
///
/// One request per connection (`Connection: close`); the body is framed by
/// `Content-Length`, `Transfer-Encoding: chunked` or the close. Redirects (301, 302, 303,
/// 307, 308) are followed, to `https://` through `URLSession`.
//
// @unchecked Sendable: `cancelled`, `socketForShutdown` and `forward` are guarded by `lock`
// (and the socket is shut down and closed only inside it, so a shutdown never reaches a
// reused descriptor); everything else is touched only on `queue`.
final class SocketHTTPConnection: HTTPStreamConnection, @unchecked Sendable {
  /// The most bytes one `recv` takes, and so the most body bytes one report carries.
  static let chunkSize = 64 * 1024
  /// The kernel receive buffer asked for each socket (Linux doubles it for its own
  /// bookkeeping): with `chunkSize`, what bounds the bytes read ahead of demand.
  static let receiveBufferSize: Int32 = 128 * 1024

  private enum Phase {
    case idle
    case head
    case body
    case ended
  }

  private let request: URLRequest
  private let session: URLSession
  private let transport: HTTPStreamTransport
  private let redirectsLeft: Int
  private let queue = DispatchQueue(label: "ConfluenceNetworking.SocketHTTPConnection")

  private let lock = Lock()
  private var cancelled = false
  private var socketForShutdown: Int32 = -1
  private var forward: HTTPStreamConnection?

  // Confined to `queue`.
  private var report: HTTPStreamReportHandler?
  private var phase = Phase.idle
  private var socketFD: Int32 = -1
  private var source: DispatchSourceRead?
  private var sourceSuspended = false
  private var headBytes: [UInt8] = []
  private var decoder = HTTPBodyDecoder(framing: .none)
  private var pendingBody = Data()
  private var wantsBody = false
  private var closedByServer = false
  private var url: URL
  private var method: String
  private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)

  init(request: URLRequest, session: URLSession, transport: HTTPStreamTransport, redirectsLeft: Int) {
    self.request = request
    self.session = session
    self.transport = transport
    self.redirectsLeft = redirectsLeft
    url = request.url ?? URL(fileURLWithPath: "/")
    method = request.httpMethod ?? "GET"
  }

  deinit {
    buffer.deallocate()
  }

  func start(_ report: HTTPStreamReportHandler) {
    queue.async { [self] in
      self.report = report
      if isCancelled { return }
      connectAndSend()
    }
  }

  func readNext() {
    if let forward = lock.withLock({ self.forward }) {
      forward.readNext()
      return
    }
    queue.async { [self] in
      guard phase == .body else { return }
      if !pendingBody.isEmpty {
        let body = pendingBody
        pendingBody = Data()
        deliver(.body(body))
      } else if decoder.isComplete || (closedByServer && decoder.endsAtClose) {
        end(with: .end)
      } else {
        wantsBody = true
        resumeSource()
      }
    }
  }

  func cancel() {
    let forward = lock.withLock { () -> HTTPStreamConnection? in
      guard !cancelled else { return nil }
      cancelled = true
      if socketForShutdown >= 0 { shutdown(socketForShutdown, Int32(SHUT_RDWR)) }
      return self.forward
    }
    forward?.cancel()
    queue.async { [self] in
      phase = .ended
      report = nil
      tearDown()
    }
  }

  private var isCancelled: Bool { lock.withLock { cancelled } }

  // MARK: - Connecting

  private func connectAndSend() {
    phase = .head
    guard let host = url.host, url.scheme?.lowercased() == "http" else {
      return end(with: .failure(.connectionFailed(URLError(.unsupportedURL))))
    }
    let port = url.port ?? 80
    let timeout = request.timeoutInterval > 0 ? request.timeoutInterval : 60
    let deadline = Date(timeIntervalSinceNow: timeout)
    switch openConnection(host: host, port: port, deadline: deadline) {
    case .failure(let error):
      return end(with: .failure(.connectionFailed(error)))
    case .success(let descriptor):
      socketFD = descriptor
    }
    if !sendAll(requestBytes(host: host, port: port), deadline: deadline) {
      return end(with: .failure(.connectionFailed(URLError(isCancelled ? .cancelled : .networkConnectionLost))))
    }
    // From here on a cancel no longer shuts the socket down from its own thread: it cancels
    // the read source on this queue, whose cancel handler closes the descriptor. A shutdown of
    // both directions makes epoll report a hang-up, which dispatch on Linux answers by
    // unregistering the source from its manager thread; a cancel of the source at the same
    // moment finalises it a second time, and dispatch traps ("Source finalized twice").
    let proceed = lock.withLock { () -> Bool in
      guard !cancelled else { return false }
      socketForShutdown = -1
      return true
    }
    if !proceed {
      return end(with: .failure(.connectionFailed(URLError(.cancelled))))
    }
    let source = DispatchSource.makeReadSource(fileDescriptor: socketFD, queue: queue)
    source.setEventHandler { [weak self] in self?.readable() }
    // The descriptor is closed only once the source is cancelled: closed earlier, its number
    // could be reused by the next socket while dispatch still watches it for this source.
    let descriptor = socketFD
    source.setCancelHandler { [weak self] in
      if let self {
        self.closeSocket(descriptor)
      } else {
        close(descriptor)
      }
    }
    self.source = source
    sourceSuspended = false
    source.resume()
    // The head must arrive within the request's timeout; the body may be idle for as long
    // as the server likes (an event stream sends keep-alives at its own pace).
    queue.asyncAfter(deadline: .now() + max(0, deadline.timeIntervalSinceNow)) { [weak self] in
      guard let self, self.phase == .head, self.socketFD >= 0 else { return }
      self.end(with: .failure(.connectionFailed(URLError(.timedOut))))
    }
  }

  /// Resolves `host` and connects to the first address that answers, before `deadline`.
  private func openConnection(host: String, port: Int, deadline: Date) -> Result<Int32, URLError> {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc) || canImport(Musl)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var list: UnsafeMutablePointer<addrinfo>?
    let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    guard getaddrinfo(bareHost, String(port), &hints, &list) == 0, let first = list else {
      return .failure(URLError(.cannotFindHost))
    }
    defer { freeaddrinfo(list) }
    var failure = URLError.Code.cannotConnectToHost
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let address = entry {
      entry = address.pointee.ai_next
      let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
      if descriptor < 0 { continue }
      var size = Self.receiveBufferSize
      setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
      var yes: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_KEEPALIVE, &yes, socklen_t(MemoryLayout<Int32>.size))
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      // Registered before connecting, so that a cancel shuts the attempt down.
      let registered = lock.withLock { () -> Bool in
        guard !cancelled else { return false }
        socketForShutdown = descriptor
        return true
      }
      if !registered {
        close(descriptor)
        return .failure(URLError(.cancelled))
      }
      var status = connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen)
      if status != 0, errno == EINPROGRESS {
        status = waitFor(descriptor, events: Int16(POLLOUT), deadline: deadline) ? 0 : -1
        if status == 0 {
          var error: Int32 = 0
          var length = socklen_t(MemoryLayout<Int32>.size)
          getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
          if error != 0 { status = -1 }
        } else if Date() >= deadline {
          failure = .timedOut
        }
      }
      if status == 0, !isCancelled { return .success(descriptor) }
      closeSocket(descriptor)
      if isCancelled { return .failure(URLError(.cancelled)) }
      if failure == .timedOut { break }
    }
    return .failure(URLError(failure))
  }

  /// Polls `descriptor` for `events` until `deadline`; `false` on timeout, error or hang-up.
  private func waitFor(_ descriptor: Int32, events: Int16, deadline: Date) -> Bool {
    while true {
      let left = deadline.timeIntervalSinceNow
      if left <= 0 || isCancelled { return false }
      var poller = pollfd(fd: descriptor, events: events, revents: 0)
      let ready = poll(&poller, 1, Int32(min(left * 1000, 1000)) + 1)
      if ready > 0 {
        return poller.revents & events != 0 && poller.revents & Int16(POLLERR | POLLNVAL) == 0
      }
      if ready < 0, errno != EINTR { return false }
    }
  }

  private func requestBytes(host: String, port: Int) -> [UInt8] {
    let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
    var target = components?.percentEncodedPath ?? "/"
    if target.isEmpty { target = "/" }
    if let query = components?.percentEncodedQuery { target += "?" + query }
    var fields: [(String, String)] = [("Host", port == 80 ? host : "\(host):\(port)")]
    var names: Set<String> = ["host"]
    for (name, value) in request.allHTTPHeaderFields ?? [:] where !names.contains(name.lowercased()) {
      fields.append((name, value))
      names.insert(name.lowercased())
    }
    for case (let name as String, let value as String) in session.configuration.httpAdditionalHeaders ?? [:]
    where !names.contains(name.lowercased()) {
      fields.append((name, value))
      names.insert(name.lowercased())
    }
    let body = request.httpBody ?? Data()
    if !body.isEmpty || method == "POST" || method == "PUT" {
      fields.append(("Content-Length", String(body.count)))
    }
    fields.append(("Connection", "close"))
    var head = "\(method) \(target) HTTP/1.1\r\n"
    for (name, value) in fields { head += "\(name): \(value)\r\n" }
    head += "\r\n"
    return Array(head.utf8) + Array(body)
  }

  private func sendAll(_ bytes: [UInt8], deadline: Date) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes { raw in
        send(socketFD, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
      }
      if sent > 0 {
        offset += sent
      } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
        if !waitFor(socketFD, events: Int16(POLLOUT), deadline: deadline) { return false }
      } else {
        return false
      }
    }
    return true
  }

  // MARK: - Reading

  private func readable() {
    guard phase == .head || phase == .body, socketFD >= 0 else { return }
    let count = recv(socketFD, buffer.baseAddress, buffer.count, 0)
    if count < 0 {
      if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
      return end(with: .failure(.connectionFailed(URLError(.networkConnectionLost))))
    }
    if count == 0 { return endOfInput() }
    let bytes = UnsafeRawBufferPointer(rebasing: buffer[..<count])
    if phase == .head {
      headBytes.append(contentsOf: bytes)
      parseHead()
      return
    }
    var body = Data()
    do {
      try decoder.decode(bytes, into: &body)
    } catch {
      return end(with: .failure(error))
    }
    if decoder.isComplete { closeAfterBody() }
    if body.isEmpty {
      if decoder.isComplete, wantsBody {
        wantsBody = false
        end(with: .end)
      }
      return
    }
    wantsBody = false
    suspendSource()
    deliver(.body(body))
  }

  private func parseHead() {
    while let end = HTTPResponseHead.endOfHead(in: headBytes) {
      let head: HTTPResponseHead
      let method = self.method
      let framing: HTTPBodyDecoder.Framing
      do {
        head = try HTTPResponseHead(parsing: headBytes[..<end])
        framing = try head.framing(method: method)
      } catch {
        return self.end(with: .failure(error))
      }
      let leftover = Array(headBytes[end...])
      headBytes = leftover
      if (100..<200).contains(head.status), head.status != 101 { continue }  // 100 Continue and friends
      if [301, 302, 303, 307, 308].contains(head.status), let location = head.field("Location") {
        return redirect(to: location, status: head.status)
      }
      guard let response = head.response(for: url) else {
        return self.end(with: .failure(.malformedResponse("a response Foundation could not represent")))
      }
      decoder = HTTPBodyDecoder(framing: framing)
      headBytes = []
      do {
        try leftover.withBytes { raw throws(HTTPStreamError) in try decoder.decode(raw, into: &pendingBody) }
      } catch {
        return self.end(with: .failure(error))
      }
      if decoder.isComplete { closeAfterBody() }
      phase = .body
      suspendSource()
      deliver(.response(response))
      return
    }
    if headBytes.count > HTTPResponseHead.maximumLength {
      end(with: .failure(.malformedResponse("a response head beyond \(HTTPResponseHead.maximumLength) bytes")))
    }
  }

  private func endOfInput() {
    closedByServer = true
    if phase == .head {
      return end(with: .failure(.connectionFailed(URLError(.networkConnectionLost))))
    }
    suspendSource()
    if decoder.endsAtClose {
      if wantsBody {
        wantsBody = false
        end(with: .end)
      }
    } else {
      end(with: .failure(.connectionFailed(URLError(.networkConnectionLost))))
    }
  }

  private func redirect(to location: String, status: Int) {
    guard redirectsLeft > 0 else { return end(with: .failure(.tooManyRedirects(10))) }
    guard let target = URL(string: location, relativeTo: url)?.absoluteURL else {
      return end(with: .failure(.malformedResponse("the redirect location \(location.debugDescription)")))
    }
    var next = request
    next.url = target
    if status == 303 || ((status == 301 || status == 302) && method == "POST") {
      next.httpMethod = "GET"
      next.httpBody = nil
    }
    let connection = HTTPStreamConnections.make(
      request: next, session: session, transport: transport, redirectsLeft: redirectsLeft - 1)
    let report = self.report
    phase = .ended
    self.report = nil
    tearDown()
    let proceed = lock.withLock { () -> Bool in
      guard !cancelled else { return false }
      forward = connection
      return true
    }
    guard proceed, let report else { return }
    connection.start(report)
  }

  // MARK: - The source and the socket

  private func resumeSource() {
    guard let source, sourceSuspended else { return }
    sourceSuspended = false
    source.resume()
  }

  private func suspendSource() {
    guard let source, !sourceSuspended else { return }
    sourceSuspended = true
    source.suspend()
  }

  /// The body is complete: nothing more is read, and the server need not wait for us.
  private func closeAfterBody() {
    tearDown()
  }

  /// Stops reading and closes the socket: through the source's cancel handler if there is a
  /// source (which owns the descriptor from then on), at once otherwise.
  private func tearDown() {
    if let source {
      source.cancel()
      resumeSource()  // a suspended source's cancellation completes only once it is resumed
      self.source = nil
    } else if socketFD >= 0 {
      closeSocket(socketFD)
    }
    socketFD = -1
  }

  private func closeSocket(_ descriptor: Int32) {
    lock.withLock {
      if socketForShutdown == descriptor { socketForShutdown = -1 }
      close(descriptor)
    }
  }

  private func deliver(_ item: HTTPStreamReport) {
    guard let report, !isCancelled else { return }
    report.handle(item)
  }

  private func end(with item: HTTPStreamReport) {
    guard phase != .ended else { return }
    phase = .ended
    let report = self.report
    self.report = nil
    tearDown()
    guard let report, !isCancelled else { return }
    report.handle(item)
  }
}
