import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// The `http-lines` workload (issue 36): N lines of a response from a server on 127.0.0.1,
/// each made into a `String` and folded into the checksum, through ConfluenceNetworking's
/// lines publisher and, as the hand-written reference, through the most direct reading
/// Foundation offers on Linux — a `URLSession` data delegate that splits each `Data` it is
/// handed at its newlines (swift-corelibs-foundation has no `URLSession.bytes(for:)`).
public enum HTTPLines {
  /// Line `index` of the body: JSON-like text of 40–70 bytes, as a news feed's would be.
  public static func line(_ index: Int) -> String {
    "{\"id\":\(index),\"score\":\(index % 977),\"by\":\"user\(index % 131)\",\"kids\":\(index % 23)}"
  }

  /// Folds a delivered line into the checksum: its length and its first and last bytes, so
  /// that a lost, repeated, cut or reordered line changes the result.
  @inlinable
  public static func mix(_ hash: UInt64, _ line: String) -> UInt64 {
    let utf8 = line.utf8
    let last = utf8.isEmpty ? 0 : Int(utf8[utf8.index(before: utf8.endIndex)])
    return Work.mix(hash, utf8.count &* 65_536 &+ Int(utf8.first ?? 0) &* 256 &+ last)
  }

  /// The checksum of the first `n` lines, computed without any network.
  public static func expected(_ n: Int) -> UInt64 {
    var hash = Work.seed
    for index in 0..<n { hash = mix(hash, line(index)) }
    return hash
  }

  /// The URL of the first `n` lines on the shared server.
  public static func url(_ n: Int) -> URL { URL(string: "http://127.0.0.1:\(LinesServer.shared.port)/lines/\(n)")! }

  /// The URL of an endless stream of lines that stops when the client stops reading.
  public static var firehoseURL: URL { URL(string: "http://127.0.0.1:\(LinesServer.shared.port)/firehose")! }

  /// The hand-written reference: a `URLSession` data delegate splitting each chunk at its
  /// newlines (a line split across chunks carried over), a `String` per line, the same fold.
  public static func urlSessionDelegate(_ n: Int) -> UInt64 {
    let reader = DelegateLineReader()
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let session = URLSession(configuration: .ephemeral, delegate: reader, delegateQueue: queue)
    session.dataTask(with: url(n)).resume()
    reader.done.wait()
    session.finishTasksAndInvalidate()
    return reader.checksum
  }
}

/// Splits the `Data` a session hands it into lines.
final class DelegateLineReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked Sendable: the session calls it on its one serial delegate queue; `hash` is
  // read after `done` is signalled.
  let done = DispatchSemaphore(value: 0)
  var checksum = Work.seed
  private var carry: [UInt8] = []

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      guard let base = raw.baseAddress else { return }
      var start = 0
      while start < raw.count, let hit = memchr(base + start, 0x0A, raw.count - start) {
        let end = base.distance(to: UnsafeRawPointer(hit))
        let line: String
        if carry.isEmpty {
          line = String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<end]), as: UTF8.self)
        } else {
          carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[start..<end]))
          line = String(decoding: carry, as: UTF8.self)
          carry.removeAll(keepingCapacity: true)
        }
        checksum = HTTPLines.mix(checksum, line)
        start = end + 1
      }
      carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[start...]))
    }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    if !carry.isEmpty { checksum = HTTPLines.mix(checksum, String(decoding: carry, as: UTF8.self)) }
    done.signal()
  }
}

/// A minimal HTTP/1.1 server on 127.0.0.1 for the `http-lines` workload: `/lines/N` answers
/// the first N lines (`Content-Length`, built once per N); `/firehose` writes lines until the
/// client takes nothing for half a second (or 256 MiB are out) and records how many bytes it
/// took (`lastFirehoseBytes`).
public final class LinesServer: @unchecked Sendable {
  // @unchecked Sendable: `bodies` and `firehoseBytes` are guarded by `lock`; the listening
  // socket is set once in init.
  public static let shared = LinesServer()

  public let port: Int
  private let listener: Int32
  private let lock = NSLock()
  private var bodies: [Int: Data] = [:]
  private var firehoseBytes: Int?

  private init() {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    listen(fd, 64)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    listener = fd
    port = Int(UInt16(bigEndian: address.sin_port))
    let thread = Thread { [self] in
      while true {
        let client = accept(listener, nil, nil)
        if client < 0 { continue }
        Thread { self.serve(client) }.start()
      }
    }
    thread.start()
  }

  /// Bytes the last `/firehose` client took before it stopped reading (nil while running).
  public var lastFirehoseBytes: Int? { lock.withLock { firehoseBytes } }

  /// Forgets the last firehose result.
  public func resetFirehose() { lock.withLock { firehoseBytes = nil } }

  private func body(_ n: Int) -> Data {
    if let body = lock.withLock({ bodies[n] }) { return body }
    var text = ""
    text.reserveCapacity(n * 64)
    for index in 0..<n {
      text += HTTPLines.line(index)
      text += "\n"
    }
    let body = Data(text.utf8)
    lock.withLock { bodies[n] = body }
    return body
  }

  private func serve(_ client: Int32) {
    defer { close(client) }
    var head = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
      let count = recv(client, &buffer, buffer.count, 0)
      if count <= 0 { return }
      head += buffer[0..<count]
      if head.count > 65536 { return }
    }
    let target = String(decoding: head, as: UTF8.self).split(separator: " ").dropFirst().first ?? ""
    if target.hasPrefix("/lines/"), let n = Int(target.dropFirst("/lines/".count)) {
      let body = body(n)
      let response = Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
      _ = sendAll(client, response, timeout: nil)
      _ = sendAll(client, body, timeout: nil)
    } else if target == "/firehose" {
      var size: Int32 = 64 * 1024
      setsockopt(client, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
      _ = sendAll(client, Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n".utf8), timeout: nil)
      let block = body(256)
      var written = 0
      while written < 256 << 20 {
        let (sent, finished) = sendAll(client, block, timeout: 0.5)
        written += sent
        if !finished { break }
      }
      lock.withLock { firehoseBytes = written }
    }
  }

  /// Sends `data`; returns the bytes sent and whether all were (false: closed, or nothing
  /// taken for `timeout` seconds).
  private func sendAll(_ client: Int32, _ data: Data, timeout: TimeInterval?) -> (Int, Bool) {
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> (Int, Bool) in
      var offset = 0
      while offset < raw.count {
        var poller = pollfd(fd: client, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&poller, 1, timeout.map { Int32($0 * 1000) } ?? -1)
        if ready <= 0 || poller.revents & Int16(POLLERR | POLLHUP) != 0 { return (offset, false) }
        let sent = send(client, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        if sent > 0 {
          offset += sent
        } else if sent < 0, errno == EAGAIN || errno == EINTR {
          continue
        } else {
          return (offset, false)
        }
      }
      return (offset, true)
    }
  }
}

/// What a subscriber that stops reading costs: the bytes the server could write, and the
/// reader's heap while it waited (measured by the caller).
public enum SlowReader {
  /// A `URLSession` data delegate whose queue is busy after the first chunk (a consumer that
  /// cannot keep up): the session keeps reading regardless. Returns the bytes the server
  /// wrote before the run stopped (it stops at 256 MiB).
  public static func urlSessionDelegate() -> Int {
    LinesServer.shared.resetFirehose()
    let reader = BlockedReader()
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let session = URLSession(configuration: .ephemeral, delegate: reader, delegateQueue: queue)
    let task = session.dataTask(with: HTTPLines.firehoseURL)
    task.resume()
    let deadline = Date(timeIntervalSinceNow: 20)
    while LinesServer.shared.lastFirehoseBytes == nil, Date() < deadline { usleep(10_000) }
    task.cancel()
    reader.release.signal()
    session.invalidateAndCancel()
    return LinesServer.shared.lastFirehoseBytes ?? -1
  }
}

final class BlockedReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked Sendable: `blocked` is touched only on the session's serial delegate queue.
  let release = DispatchSemaphore(value: 0)
  private var blocked = false

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    guard !blocked else { return }
    blocked = true
    release.wait()
  }
}
