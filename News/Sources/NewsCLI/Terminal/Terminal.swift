#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything the commands ask of the terminal, in one place: whether a descriptor is a
/// terminal, its size, whether colours are allowed, and how a closed pipe is handled.
///
/// ```swift
/// if Terminal.isTerminal(1), let size = Terminal.size(fd: 1) {
///   print("\(size.columns)×\(size.rows)")
/// }
/// ```
public enum Terminal {
  /// The size of a terminal, in character cells.
  public struct Size: Sendable, Hashable {
    /// Lines.
    public var rows: Int
    /// Columns.
    public var columns: Int

    /// A size of `rows` lines by `columns` columns.
    public init(rows: Int, columns: Int) {
      self.rows = rows
      self.columns = columns
    }
  }

  /// Whether `fd` is a terminal.
  public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

  /// The size of the terminal on `fd`, or `nil` if it is not a terminal.
  public static func size(fd: Int32 = 1) -> Size? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
    return Size(rows: Int(size.ws_row), columns: Int(size.ws_col))
  }

  /// Whether `environment` allows colours: `NO_COLOR` unset or empty
  /// (<https://no-color.org>), `TERM` not `dumb`.
  public static func colorAllowed(environment: [String: String]) -> Bool {
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
    return environment["TERM"] != "dumb"
  }

  /// Whether `fd` is a terminal that takes screen control (`TERM` is not `dumb`).
  public static func isInteractive(_ fd: Int32, environment: [String: String]) -> Bool {
    isTerminal(fd) && environment["TERM"] != "dumb"
  }

  /// Makes a write to a closed pipe fail with `EPIPE` instead of killing the process with
  /// `SIGPIPE`, so that ``FileOutput`` can end the run quietly (`news top | head -2`).
  public static func ignoreBrokenPipe() {
    signal(SIGPIPE, SIG_IGN)
  }
}
