/// Makes text from the network safe to print on a terminal.
///
/// Everything a server sends — titles, authors, comment text, URLs — passes through
/// ``sanitize(_:keepingNewlines:)`` before it reaches the terminal, so that a story cannot
/// move the cursor, clear the screen, retitle the window, plant a hyperlink or reorder
/// text with bidirectional overrides.
public enum TerminalText {
  /// Removes escape sequences (CSI, OSC, DCS, SOS, PM, APC and two-byte escapes, in their
  /// 7-bit and 8-bit forms, with their parameters), C0 and C1 control characters, DEL, and
  /// the bidirectional override and isolate characters.
  ///
  /// Tabs, carriage returns and newlines become spaces, unless `keepingNewlines` is true,
  /// in which case newlines stay (for preformatted code) and tabs become four spaces.
  ///
  /// ```swift
  /// TerminalText.sanitize("Hello\u{1B}[2J\u{1B}]0;pwned\u{07} world")  // "Hello world"
  /// ```
  public static func sanitize(_ text: String, keepingNewlines: Bool = false) -> String {
    let scalars = Array(text.unicodeScalars)
    var out = String.UnicodeScalarView()
    var i = 0
    func skipString(from start: Int) -> Int {
      // Skips an OSC/DCS/SOS/PM/APC string up to and including its terminator (BEL,
      // ESC \ or the 8-bit ST), or to the end of the text.
      var j = start
      while j < scalars.count {
        let v = scalars[j].value
        if v == 0x07 || v == 0x9C { return j + 1 }
        if v == 0x1B, j + 1 < scalars.count, scalars[j + 1] == "\\" { return j + 2 }
        j += 1
      }
      return j
    }
    func skipCSI(from start: Int) -> Int {
      // Parameter and intermediate bytes, then one final byte.
      var j = start
      while j < scalars.count, (0x20...0x3F).contains(scalars[j].value) { j += 1 }
      if j < scalars.count, (0x40...0x7E).contains(scalars[j].value) { j += 1 }
      return j
    }
    while i < scalars.count {
      let scalar = scalars[i]
      let v = scalar.value
      switch v {
      case 0x1B:
        guard i + 1 < scalars.count else { i += 1; continue }
        switch scalars[i + 1] {
        case "[": i = skipCSI(from: i + 2)
        case "]", "P", "X", "^", "_": i = skipString(from: i + 2)
        default:
          var j = i + 1
          while j < scalars.count, (0x20...0x2F).contains(scalars[j].value) { j += 1 }
          if j < scalars.count, (0x30...0x7E).contains(scalars[j].value) { j += 1 }
          i = j
        }
      case 0x9B:
        i = skipCSI(from: i + 1)
      case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
        i = skipString(from: i + 1)
      case 0x0A where keepingNewlines:
        out.append(scalar)
        i += 1
      case 0x09 where keepingNewlines:
        out.append(contentsOf: "    ".unicodeScalars)
        i += 1
      case 0x09, 0x0A, 0x0D:
        out.append(" ")
        i += 1
      case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
        i += 1
      default:
        out.append(scalar)
        i += 1
      }
    }
    return String(out)
  }

  /// ``sanitize(_:keepingNewlines:)`` for a one-line field: runs of white space become one
  /// space, and the ends are trimmed.
  public static func line(_ text: String) -> String {
    sanitize(text).split(whereSeparator: { $0 == " " || $0 == "\u{A0}" }).joined(separator: " ")
  }

  /// The number of terminal columns `text` takes (wide East Asian characters and most
  /// emoji take two; combining marks none).
  public static func width(_ text: String) -> Int {
    var columns = 0
    for character in text {
      guard let first = character.unicodeScalars.first else { continue }
      if first.properties.isEmojiPresentation || isWide(first.value) {
        columns += 2
      } else if first.properties.generalCategory == .nonspacingMark {
        continue
      } else {
        columns += 1
      }
    }
    return columns
  }

  private static func isWide(_ v: UInt32) -> Bool {
    (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
      || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
      || (0xFFE0...0xFFE6).contains(v) || (0x20000...0x3FFFD).contains(v)
  }

  /// `text` cut to at most `columns` columns, with an ellipsis when it was cut.
  public static func truncate(_ text: String, columns: Int) -> String {
    guard width(text) > columns else { return text }
    var result = ""
    var used = 0
    for character in text {
      let w = width(String(character))
      if used + w > columns - 1 { break }
      result.append(character)
      used += w
    }
    return result + "…"
  }
}
