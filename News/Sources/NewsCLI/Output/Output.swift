import Foundation

#if canImport(Glibc)
  import Glibc
  private let systemWrite = Glibc.write
#elseif canImport(Musl)
  import Musl
  private let systemWrite = Musl.write
#elseif canImport(Darwin)
  import Darwin
  private let systemWrite = Darwin.write
#endif

/// Where the reader writes: standard output (unbuffered, so each row shows as soon as it is
/// written), or a buffer in tests.
public protocol OutputStream: AnyObject, Sendable {
  /// Writes `text` as is.
  func write(_ text: String)
}

/// Standard output or standard error, written with `write(2)` until every byte is out.
///
/// A write that fails because the reader of a pipe went away (`EPIPE`, as in
/// `news top | head -2`) ends the process at once with status 0: the reader has all it
/// wanted. Any other failure of standard output ends it with status 1 and a message on
/// standard error; failures on standard error are ignored (there is nowhere left to say so).
/// Needs ``Terminal/ignoreBrokenPipe()`` first, or `SIGPIPE` ends the process with 141.
public final class FileOutput: OutputStream {
  private let fd: Int32
  /// Writes to file descriptor `fd`.
  public init(fd: Int32) { self.fd = fd }
  /// Standard output.
  public static let standardOutput = FileOutput(fd: 1)
  /// Standard error.
  public static let standardError = FileOutput(fd: 2)

  public func write(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
      if count >= 0 {
        offset += count
        continue
      }
      let error = errno
      if error == EINTR || error == EAGAIN { continue }
      guard fd != 2 else { return }
      if error == EPIPE { _exit(0) }
      let message = Array("news: cannot write the output: \(String(cString: strerror(error)))\n".utf8)
      _ = message.withUnsafeBytes { systemWrite(2, $0.baseAddress!, $0.count) }
      _exit(1)
    }
  }
}

/// Text collected in memory, with the time each write arrived.
// Safe: `lock` guards `writes`.
public final class BufferOutput: OutputStream, @unchecked Sendable {
  private let lock = NSLock()
  private var writes: [(Date, String)] = []
  public init() {}
  public func write(_ text: String) { lock.withLock { writes.append((Date(), text)) } }
  /// Everything written.
  public var text: String { lock.withLock { writes.map(\.1).joined() } }
  /// Each write with its time.
  public var timedWrites: [(Date, String)] { lock.withLock { writes } }
}

/// How the reader prints: colours, width, terminal behaviour, JSON, and the clock.
public struct OutputOptions: Sendable {
  /// Colours and attributes.
  public var style: Style
  /// Whether the output is an interactive terminal (progress line, screen redraws).
  public var interactive: Bool
  /// Columns to wrap text to.
  public var width: Int
  /// One JSON object per line instead of text.
  public var json: Bool
  /// The time ages are measured from.
  public var now: @Sendable () -> Date

  public init(
    style: Style = .plain, interactive: Bool = false, width: Int = 80, json: Bool = false,
    now: @escaping @Sendable () -> Date = Date.init
  ) {
    self.style = style
    self.interactive = interactive
    self.width = width
    self.json = json
    self.now = now
  }

  /// The options for standard output in `environment`.
  public static func detect(json: Bool, environment: [String: String] = ProcessInfo.processInfo.environment)
    -> OutputOptions
  {
    OutputOptions(
      style: json ? .plain : .detect(fd: 1, environment: environment),
      interactive: !json && Terminal.isInteractive(1, environment: environment),
      width: Terminal.size(fd: 1)?.columns ?? 80, json: json)
  }
}
