import Foundation

/// Where the reader writes: standard output (unbuffered, so each row shows as soon as it is
/// written), or a buffer in tests.
public protocol OutputStream: AnyObject, Sendable {
  /// Writes `text` as is.
  func write(_ text: String)
}

/// Standard output or standard error, written with one `write(2)` per call.
public final class FileOutput: OutputStream {
  private let handle: FileHandle
  /// Writes to `handle`.
  public init(_ handle: FileHandle) { self.handle = handle }
  /// Standard output.
  public static let standardOutput = FileOutput(.standardOutput)
  /// Standard error.
  public static let standardError = FileOutput(.standardError)
  public func write(_ text: String) { handle.write(Data(text.utf8)) }
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

  public init(style: Style = .plain, interactive: Bool = false, width: Int = 80, json: Bool = false, now: @escaping @Sendable () -> Date = Date.init) {
    self.style = style
    self.interactive = interactive
    self.width = width
    self.json = json
    self.now = now
  }

  /// The options for standard output in `environment`.
  public static func detect(json: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> OutputOptions {
    let tty = Style.isTerminal(1)
    return OutputOptions(
      style: json ? .plain : .detect(fd: 1, environment: environment),
      interactive: tty && !json && environment["TERM"] != "dumb",
      width: Style.columns(fd: 1) ?? 80, json: json)
  }
}
