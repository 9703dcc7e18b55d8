import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal as a full screen: raw mode, the alternate screen, frames drawn row by row,
/// and the terminal given back as it was.
///
/// ``enter()`` saves the terminal's settings (termios), switches to raw mode (no echo, no
/// line editing, no signals from keys: Ctrl-C arrives as a key), turns the alternate screen
/// on and hides the cursor. ``leave()`` undoes all of it, once, whichever path ends the
/// reader (`q`, Ctrl-C, SIGINT, SIGTERM, end of input).
// Safe: `lock` guards `saved`, `previous` and `active`; writes to the terminal happen under
// it so that a frame and the restore never interleave.
final class TerminalScreen: @unchecked Sendable {
  private let lock = NSLock()
  private var saved: termios?
  private var previous: [String] = []
  private var previousSize: TerminalSize?
  private var active = false

  init() {}

  /// Raw mode, alternate screen, cursor hidden.
  func enter() {
    lock.withLock {
      guard !active else { return }
      var settings = termios()
      if tcgetattr(0, &settings) == 0 {
        saved = settings
        var raw = settings
        cfmakeraw(&raw)
        tcsetattr(0, TCSAFLUSH, &raw)
      }
      active = true
      previous = []
      Self.output("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }
  }

  /// Shows `frame`: on a fresh screen or after a resize every row, otherwise only the rows
  /// that changed.
  func draw(_ frame: [String]) {
    lock.withLock {
      guard active else { return }
      var text = ""
      let size = TerminalInput.size()
      let redraw = frame.count != previous.count || size != previousSize
      previousSize = size
      if redraw { text += "\u{1B}[H\u{1B}[2J" }
      for (row, line) in frame.enumerated() where redraw || previous[row] != line {
        text += "\u{1B}[\(row + 1);1H\u{1B}[2K" + line + "\u{1B}[0m"
      }
      previous = frame
      Self.output(text)
    }
  }

  /// Cursor shown, alternate screen off, the saved termios back.
  func leave() {
    lock.withLock {
      guard active else { return }
      active = false
      Self.output("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
      if var saved { tcsetattr(0, TCSAFLUSH, &saved) }
    }
  }

  /// Writes all of `text` to standard output; a closed terminal ends the write quietly.
  private static func output(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return }
      bytes = bytes.dropFirst(written)
    }
  }
}
