/// ANSI colours and text attributes, or plain text when they are off.
///
/// Colours are on only when the output is a terminal and `NO_COLOR` is not set to a
/// non-empty value (<https://no-color.org>) and `TERM` is not `dumb`.
public struct Style: Sendable, Equatable {
  /// Whether escape sequences are written.
  public let enabled: Bool

  /// A style that writes escape sequences if `enabled`.
  public init(enabled: Bool) { self.enabled = enabled }

  /// Plain text.
  public static let plain = Style(enabled: false)

  /// The style for file descriptor `fd` in `environment`.
  public static func detect(fd: Int32 = 1, environment: [String: String]) -> Style {
    Style(enabled: Terminal.isTerminal(fd) && Terminal.colorAllowed(environment: environment))
  }

  /// Whether `environment` allows colours (``Terminal/colorAllowed(environment:)``).
  public static func colorAllowed(environment: [String: String]) -> Bool {
    Terminal.colorAllowed(environment: environment)
  }

  /// Whether `fd` is a terminal (``Terminal/isTerminal(_:)``).
  public static func isTerminal(_ fd: Int32) -> Bool { Terminal.isTerminal(fd) }

  /// The width of the terminal on `fd` (``Terminal/size(fd:)``), or `nil` if it is not a terminal.
  public static func columns(fd: Int32 = 1) -> Int? { Terminal.size(fd: fd)?.columns }

  private func wrap(_ text: String, _ on: String, _ off: String) -> String {
    enabled && !text.isEmpty ? "\u{1B}[\(on)m\(text)\u{1B}[\(off)m" : text
  }

  public func bold(_ text: String) -> String { wrap(text, "1", "22") }
  public func dim(_ text: String) -> String { wrap(text, "2", "22") }
  public func italic(_ text: String) -> String { wrap(text, "3", "23") }
  public func underline(_ text: String) -> String { wrap(text, "4", "24") }
  public func red(_ text: String) -> String { wrap(text, "31", "39") }
  public func green(_ text: String) -> String { wrap(text, "32", "39") }
  public func yellow(_ text: String) -> String { wrap(text, "33", "39") }
  public func blue(_ text: String) -> String { wrap(text, "34", "39") }
  public func magenta(_ text: String) -> String { wrap(text, "35", "39") }
  public func cyan(_ text: String) -> String { wrap(text, "36", "39") }
  /// The Hacker News orange (256-colour 208).
  public func orange(_ text: String) -> String { wrap(text, "38;5;208", "39") }
}
