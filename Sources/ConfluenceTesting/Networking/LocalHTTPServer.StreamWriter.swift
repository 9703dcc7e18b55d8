import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension LocalHTTPServer {
  /// Writes a streamed answer's body over time, for a
  /// ``LocalHTTPServer/Reply/stream(status:contentType:chunked:headers:body:)`` route.
  ///
  /// Each write sends its bytes at once (the socket has no delay; with a chunked body each
  /// write is one chunk). Writes and pauses notice when the client has gone: they return
  /// `false`, and the server records the path in ``LocalHTTPServer/closedBeforeAnswer``.
  ///
  /// ```swift
  /// server.route("/events", .stream(contentType: "text/event-stream") { writer in
  ///   for id in 1...3 {
  ///     guard writer.write("id: \(id)\ndata: tick \(id)\n\n"), writer.pause(0.05) else { return }
  ///   }
  ///   writer.write("data: half an ev")   // and then:
  ///   writer.drop()                      // the connection breaks mid-event
  /// })
  /// ```
  //
  // @unchecked Sendable: used by the one thread that serves its connection.
  public final class StreamWriter: @unchecked Sendable {
    /// What became of a write that may not wait for ever.
    public enum WriteOutcome: Sendable, Equatable {
      /// The client took every byte.
      case written
      /// The client took no more for the whole time allowed: it is not reading.
      case blocked
      /// The client closed the connection.
      case closed
    }

    /// The request being answered, with its headers.
    public let request: Request

    /// How many body bytes the client's connection has taken so far (framing not counted).
    public private(set) var bytesWritten = 0

    private weak var server: LocalHTTPServer?
    private let socket: Int32
    private let chunked: Bool
    private var dropped = false
    private var clientGone = false

    init(server: LocalHTTPServer, socket: Int32, request: Request, chunked: Bool) {
      self.server = server
      self.socket = socket
      self.request = request
      self.chunked = chunked
    }

    /// Writes `bytes` (one chunk of a chunked body), waiting as long as the client needs.
    ///
    /// - Parameter bytes: The body bytes to send.
    /// - Returns: `false` if the client has closed the connection (or it was dropped).
    @discardableResult
    public func write(_ bytes: Data) -> Bool {
      write(bytes, within: nil) == .written
    }

    /// Writes `text` as UTF-8 (one chunk of a chunked body).
    ///
    /// - Parameter text: The text to send.
    /// - Returns: `false` if the client has closed the connection (or it was dropped).
    @discardableResult
    public func write(_ text: String) -> Bool {
      write(Data(text.utf8))
    }

    /// Writes `bytes`, giving up when the client takes nothing for `timeout` seconds.
    ///
    /// ``bytesWritten`` then counts what it took: with a client that stopped reading, what
    /// the two sides' socket buffers hold.
    ///
    /// - Parameters:
    ///   - bytes: The body bytes to send.
    ///   - timeout: How long the client may take no byte at all; `nil` waits for ever.
    /// - Returns: Whether all of it was written, the client was not reading, or had gone.
    public func write(_ bytes: Data, within timeout: TimeInterval?) -> WriteOutcome {
      if dropped || clientGone { return .closed }
      var frame = Data()
      if chunked {
        guard !bytes.isEmpty else { return .written }  // an empty chunk would end the body
        frame.append(Data(String(bytes.count, radix: 16).utf8))
        frame.append(Data("\r\n".utf8))
      }
      let prefix = frame.count
      frame.append(bytes)
      if chunked { frame.append(Data("\r\n".utf8)) }
      let (sent, outcome) = transmit(frame, within: timeout)
      bytesWritten += max(0, min(sent - prefix, bytes.count))
      if outcome == .closed { noteClientGone() }
      return outcome
    }

    /// Waits `seconds`, watching the connection.
    ///
    /// - Parameter seconds: How long to wait.
    /// - Returns: `false` as soon as the client closes the connection.
    @discardableResult
    public func pause(_ seconds: TimeInterval) -> Bool {
      if dropped || clientGone { return false }
      if waitForClientToClose(timeout: seconds) { return false }
      return true
    }

    /// Waits until the client closes the connection, at most `timeout` seconds.
    ///
    /// - Parameter timeout: The longest wait.
    /// - Returns: Whether the client closed it in that time.
    public func waitForClientToClose(timeout: TimeInterval) -> Bool {
      if clientGone { return true }
      if dropped { return false }
      let deadline = Date(timeIntervalSinceNow: timeout)
      var scratch = [UInt8](repeating: 0, count: 512)
      while true {
        let left = deadline.timeIntervalSinceNow
        var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(max(0, min(left, 0.05)) * 1000))
        if ready > 0 {
          // Readable: the client closed its end (or sent bytes, which are read and ignored).
          if poller.revents & Int16(POLLHUP | POLLERR) != 0 || recv(socket, &scratch, scratch.count, 0) <= 0 {
            noteClientGone()
            return true
          }
        }
        if left <= 0 { return false }
      }
    }

    /// Closes the connection now, without finishing the body: the client sees the stream
    /// break wherever the last write left it (mid-event, mid-chunk).
    public func drop() {
      guard !dropped else { return }
      dropped = true
      shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Sends bytes outside the body (the head).
    func sendRaw(_ bytes: Data) -> Bool {
      transmit(bytes, within: nil).outcome == .written
    }

    /// The body's end, after the route's closure returned: the last chunk, unless dropped.
    func finish() {
      if chunked, !dropped, !clientGone {
        _ = transmit(Data("0\r\n\r\n".utf8), within: 5)
      }
    }

    private func noteClientGone() {
      guard !clientGone else { return }
      clientGone = true
      server?.recordClosedEarly(request.path)
    }

    /// Sends `bytes`; returns how many were sent and why it stopped.
    private func transmit(_ bytes: Data, within timeout: TimeInterval?) -> (sent: Int, outcome: WriteOutcome) {
      bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> (Int, WriteOutcome) in
        var offset = 0
        while offset < raw.count {
          var poller = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
          let wait = timeout.map { Int32($0 * 1000) } ?? -1
          let ready = poll(&poller, 1, wait)
          if ready == 0 { return (offset, .blocked) }
          if ready < 0 {
            if errno == EINTR { continue }
            return (offset, .closed)
          }
          if poller.revents & Int16(POLLERR | POLLHUP) != 0 { return (offset, .closed) }
          let sent = send(
            socket, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
          if sent > 0 {
            offset += sent
          } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
            continue
          } else {
            return (offset, .closed)
          }
        }
        return (offset, .written)
      }
    }
  }
}
