/// The HTML of a Hacker News title or text, turned into readable terminal text.
///
/// Hacker News sends a small subset of HTML: entities (`&amp;`, `&#x27;`, `&#x2F;`, …),
/// `<p>` between paragraphs (the first one has none), `<i>`, `<a href="…">`, and
/// `<pre><code>` for code. `HTMLText` parses that into paragraphs of styled runs and code
/// blocks; ``lines(width:style:)`` wraps them to a width. Every piece of text is passed
/// through ``TerminalText/sanitize(_:keepingNewlines:)`` *after* entities are decoded, so
/// an escape character spelled `&#27;` is removed too.
///
/// ```swift
/// let text = HTMLText("Aw shucks<p>I&#x27;ll <i>keep</i> writing")
/// text.lines(width: 40, style: .plain)  // ["Aw shucks", "", "I'll keep writing"]
/// ```
public struct HTMLText: Equatable, Sendable {
  /// A run of text with one look.
  public struct Run: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
      case plain, italic, bold, code
      case link(String)
    }
    public var text: String
    public var kind: Kind
  }

  /// A paragraph of runs, or a preformatted code block.
  public enum Block: Equatable, Sendable {
    case paragraph([Run])
    case code(String)
  }

  /// The blocks, in order.
  public var blocks: [Block]

  /// Parses `html`.
  public init(_ html: String) {
    var parser = HTMLParser(html)
    blocks = parser.parse()
  }

  /// The text on one line: paragraphs joined by a space, code included, no styling.
  public var plainText: String {
    blocks.map { block -> String in
      switch block {
      case .paragraph(let runs): return runs.map(\.text).joined()
      case .code(let code): return code
      }
    }
    .joined(separator: " ")
  }

  /// The text wrapped to `width` columns: paragraphs separated by an empty line, links
  /// shown with their address when their text is not the address, code blocks indented
  /// and not wrapped.
  public func lines(width: Int, style: Style) -> [String] {
    var lines: [String] = []
    for block in blocks {
      if !lines.isEmpty { lines.append("") }
      switch block {
      case .code(let code):
        for line in code.split(separator: "\n", omittingEmptySubsequences: false) {
          lines.append(style.green("  " + line))
        }
        while lines.last == style.green("  ") || lines.last == "  " { lines.removeLast() }
      case .paragraph(let runs):
        lines.append(contentsOf: wrap(runs, width: max(10, width), style: style))
      }
    }
    return lines
  }

  private struct Word {
    var pieces: [(String, Run.Kind)] = []
    var width = 0
  }

  private func wrap(_ runs: [Run], width: Int, style: Style) -> [String] {
    // Split runs into words; a word may span runs ("foo<i>bar</i>").
    var words: [Word] = []
    var current = Word()
    var pendingSpace = false
    func flush() {
      if !current.pieces.isEmpty { words.append(current) }
      current = Word()
    }
    for run in displayRuns(runs) {
      var piece = ""
      for character in run.text {
        if character == " " {
          if !piece.isEmpty { current.pieces.append((piece, run.kind)); piece = "" }
          flush()
          pendingSpace = true
        } else {
          if pendingSpace { pendingSpace = false }
          piece.append(character)
          current.width += TerminalText.width(String(character))
        }
      }
      if !piece.isEmpty { current.pieces.append((piece, run.kind)) }
    }
    flush()

    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    for word in words {
      if lineWidth > 0 && lineWidth + 1 + word.width > width {
        lines.append(line)
        line = ""
        lineWidth = 0
      }
      if lineWidth > 0 {
        line += " "
        lineWidth += 1
      }
      for (text, kind) in word.pieces { line += styled(text, kind, style) }
      lineWidth += word.width
    }
    if lineWidth > 0 { lines.append(line) }
    return lines
  }

  /// Links whose text is not their address get the address after them.
  private func displayRuns(_ runs: [Run]) -> [Run] {
    var result: [Run] = []
    for run in runs {
      result.append(run)
      if case .link(let href) = run.kind {
        let shown = run.text.hasSuffix("...") ? String(run.text.dropLast(3)) : run.text
        if !href.isEmpty, !href.hasPrefix(shown) || shown.isEmpty {
          result.append(Run(text: " <\(href)>", kind: .link(href)))
        }
      }
    }
    return result
  }

  private func styled(_ text: String, _ kind: Run.Kind, _ style: Style) -> String {
    switch kind {
    case .plain: return text
    case .italic: return style.italic(text)
    case .bold: return style.bold(text)
    case .code: return style.green(text)
    case .link: return style.blue(style.underline(text))
    }
  }
}

/// A forgiving parser for the HTML subset Hacker News sends.
private struct HTMLParser {
  let source: [Character]
  var index = 0

  init(_ html: String) { source = Array(html) }

  // State while parsing.
  var blocks: [HTMLText.Block] = []
  var runs: [HTMLText.Run] = []
  var italic = 0
  var bold = 0
  var code = 0
  var link: String?
  var pre = 0
  var preText = ""

  mutating func parse() -> [HTMLText.Block] {
    var text = ""
    while index < source.count {
      let c = source[index]
      if c == "<", let tag = readTag() {
        emit(text)
        text = ""
        handle(tag)
      } else {
        text.append(c)
        index += 1
      }
    }
    emit(text)
    endParagraph()
    if pre > 0 { endPre() }
    return blocks
  }

  struct Tag {
    var name: String
    var closing: Bool
    var attributes: [String: String]
  }

  /// Reads a tag at `index` ("<" … ">"); nil (and `index` unchanged) if it is not one.
  mutating func readTag() -> Tag? {
    var j = index + 1
    var closing = false
    if j < source.count, source[j] == "/" { closing = true; j += 1 }
    var name = ""
    while j < source.count, source[j].isLetter || source[j].isNumber { name.append(source[j]); j += 1 }
    guard !name.isEmpty else { return nil }
    var attributes: [String: String] = [:]
    while j < source.count, source[j] != ">" {
      if source[j].isLetter {
        var key = ""
        while j < source.count, source[j].isLetter || source[j] == "-" { key.append(source[j]); j += 1 }
        while j < source.count, source[j] == " " { j += 1 }
        if j < source.count, source[j] == "=" {
          j += 1
          while j < source.count, source[j] == " " { j += 1 }
          var value = ""
          if j < source.count, source[j] == "\"" || source[j] == "'" {
            let quote = source[j]
            j += 1
            while j < source.count, source[j] != quote { value.append(source[j]); j += 1 }
            j += 1
          } else {
            while j < source.count, source[j] != " ", source[j] != ">" { value.append(source[j]); j += 1 }
          }
          attributes[key.lowercased()] = Entities.decode(value)
        }
      } else {
        j += 1
      }
    }
    guard j < source.count else { return nil }
    index = j + 1
    return Tag(name: name.lowercased(), closing: closing, attributes: attributes)
  }

  mutating func handle(_ tag: Tag) {
    switch (tag.name, tag.closing) {
    case ("p", false), ("br", _):
      if pre > 0 { preText += "\n" } else { endParagraph() }
    case ("i", false), ("em", false): italic += 1
    case ("i", true), ("em", true): italic = max(0, italic - 1)
    case ("b", false), ("strong", false): bold += 1
    case ("b", true), ("strong", true): bold = max(0, bold - 1)
    case ("a", false): link = TerminalText.line(tag.attributes["href"] ?? "")
    case ("a", true): link = nil
    case ("pre", false):
      endParagraph()
      pre += 1
    case ("pre", true):
      if pre > 0 { endPre() }
    case ("code", false): code += 1
    case ("code", true): code = max(0, code - 1)
    default: break
    }
  }

  mutating func emit(_ raw: String) {
    guard !raw.isEmpty else { return }
    let decoded = Entities.decode(raw)
    if pre > 0 {
      preText += TerminalText.sanitize(decoded, keepingNewlines: true)
      return
    }
    var text = TerminalText.sanitize(decoded)
    // Collapse runs of white space as HTML does.
    while text.contains("  ") { text = text.replacing("  ", with: " ") }
    if runs.isEmpty { text = String(text.drop { $0 == " " }) }
    guard !text.isEmpty else { return }
    let kind: HTMLText.Run.Kind =
      if let link { .link(link) } else if code > 0 { .code } else if italic > 0 { .italic } else if bold > 0 {
        .bold
      } else { .plain }
    if let last = runs.last, last.kind == kind {
      runs[runs.count - 1].text += text
    } else {
      runs.append(HTMLText.Run(text: text, kind: kind))
    }
  }

  mutating func endParagraph() {
    while let last = runs.last, last.text.hasSuffix(" ") {
      runs[runs.count - 1].text.removeLast()
      if runs[runs.count - 1].text.isEmpty { runs.removeLast() }
    }
    if !runs.isEmpty { blocks.append(.paragraph(runs)) }
    runs = []
  }

  mutating func endPre() {
    pre = 0
    var text = preText
    while text.hasPrefix("\n") { text.removeFirst() }
    while text.hasSuffix("\n") { text.removeLast() }
    if !text.isEmpty { blocks.append(.code(text)) }
    preText = ""
  }
}

/// HTML character references.
public enum Entities {
  static let named: [String: String] = [
    "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "hellip": "…",
    "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "copy": "©",
    "reg": "®", "trade": "™", "euro": "€", "pound": "£", "times": "×", "middot": "·", "bull": "•",
  ]

  /// `text` with `&name;`, `&#123;` and `&#x7B;` replaced by their characters; unknown
  /// or malformed references are kept as written. A reference to NUL, a surrogate or a
  /// value past U+10FFFF becomes U+FFFD.
  public static func decode(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var result = ""
    var rest = Substring(text)
    while let amp = rest.firstIndex(of: "&") {
      result += rest[..<amp]
      let after = rest[rest.index(after: amp)...]
      guard let semi = after.prefix(12).firstIndex(of: ";") else {
        result += "&"
        rest = after
        continue
      }
      let name = after[..<semi]
      var replacement: String?
      if name.hasPrefix("#x") || name.hasPrefix("#X") {
        replacement = UInt32(name.dropFirst(2), radix: 16).map(character)
      } else if name.hasPrefix("#") {
        replacement = UInt32(name.dropFirst(), radix: 10).map(character)
      } else {
        replacement = named[String(name)]
      }
      if let replacement {
        result += replacement
        rest = after[after.index(after: semi)...]
      } else {
        result += "&"
        rest = after
      }
    }
    result += rest
    return result
  }

  private static func character(_ value: UInt32) -> String {
    guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
    return String(Character(scalar))
  }
}
