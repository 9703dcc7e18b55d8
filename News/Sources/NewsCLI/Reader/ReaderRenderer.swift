import Foundation
import HackerNews

/// Draws the reader: a pure function from ``ReaderState`` to the frame a terminal of the
/// state's size shows, one string per row.
///
/// Every frame has exactly `size.rows` lines and no line is wider than `size.columns`
/// columns. Row 1 names the feeds, the last row is the status line (the filter prompt, a
/// message, or the keys), and the rows between show the list, a story with its comments,
/// or the keys.
///
/// ```text
/// Hacker News  [1 top]  2 new  3 best  4 ask  5 show  6 jobs
///
/// ▶ 1. When your data doesn’t fit in memory: the basic techniques (pythonspeed.com)
///      268 points by itamarst 6 hours ago | 134 comments
/// ```
struct ReaderRenderer {
  let style: Style
  /// The time ages are measured from.
  let now: Date

  /// The frame of `state`.
  func render(_ state: ReaderState) -> [String] {
    let size = state.size
    guard size.rows >= 3, size.columns >= 10 else {
      return (0..<max(0, size.rows)).map { $0 == 0 ? Self.clip("Too small", to: max(0, size.columns)) : "" }
    }
    let bodyHeight = size.rows - 3
    let body: [String]
    if state.showHelp {
      body = help()
    } else if let story = state.story {
      body = storyBody(story, state: state, height: bodyHeight)
    } else {
      body = listBody(state, height: bodyHeight)
    }
    var lines = [header(state), ""]
    lines += body.prefix(bodyHeight)
    lines += Array(repeating: "", count: max(0, bodyHeight - body.count))
    lines.append(statusLine(state))
    return lines.map { Self.clip($0, to: size.columns) }
  }

  // MARK: Header and status line

  static let feedNames: [Feed: String] = [
    .top: "top", .new: "new", .best: "best", .ask: "ask", .show: "show", .job: "jobs",
  ]

  private func header(_ state: ReaderState) -> String {
    var line = style.orange(style.bold("Hacker News"))
    for (index, feed) in Feed.allCases.enumerated() {
      let name = "\(index + 1) \(Self.feedNames[feed]!)"
      line += "  " + (feed == state.feed ? style.orange(style.bold("[\(name)]")) : style.dim(name))
    }
    if state.list.loading { line += "  " + style.dim("loading …") }
    return line
  }

  private func statusLine(_ state: ReaderState) -> String {
    if let input = state.filterInput, state.story == nil, !state.showHelp {
      return "/" + TerminalText.line(input) + "▏" + style.dim("  Enter keep · Esc clear")
    }
    if !state.status.isEmpty { return style.yellow(TerminalText.line(state.status)) }
    if state.showHelp { return style.dim("any key: back") }
    if state.story != nil {
      return style.dim("j/k comment · n/p top-level · Enter fold · d/u scroll · h back · ? keys · q quit")
    }
    if !state.filter.isEmpty {
      return style.dim("filter “\(TerminalText.line(state.filter))” · Esc clear · / edit · ? keys · q quit")
    }
    let keys = style.dim("j/k move · Enter open · 1-6 feeds · / filter · r refresh · ? keys · q quit")
    // The feed's event streams, first: live, or reconnecting after a drop.
    switch state.connection {
    case nil, .notStreaming?: return keys
    case .live?: return style.green("● live") + style.dim(" · ") + keys
    case .reconnecting(let streams, _)?:
      return style.yellow("○ reconnecting \(streams) stream\(streams == 1 ? "" : "s")") + style.dim(" · ") + keys
    }
  }

  // MARK: The list

  private func listBody(_ state: ReaderState, height: Int) -> [String] {
    let list = state.list
    let ids = state.visibleIDs
    if ids.isEmpty {
      if let error = list.error {
        return [
          style.red("Cannot load the \(Self.feedNames[state.feed]!) stories: \(error)"), "", style.dim("r: try again"),
        ]
      }
      if list.loading { return [style.dim("Loading the \(Self.feedNames[state.feed]!) stories …")] }
      if !state.filter.isEmpty { return [style.dim("No story matches “\(TerminalText.line(state.filter))”.")] }
      return [style.dim("No stories.")]
    }
    var lines: [String] = []
    if let error = list.error { lines.append(style.red("Refresh failed: \(error)")) }
    let perPage = max(1, (height - lines.count) / 2)
    let selected = state.selectedRow
    let first = (selected / perPage) * perPage
    let rankWidth = String(list.ids.count).count
    for (offset, id) in ids[first..<min(ids.count, first + perPage)].enumerated() {
      let row = first + offset
      lines += storyRow(
        id: id, item: list.items[id], failure: list.failures[id], rank: list.ids.firstIndex(of: id) ?? row,
        rankWidth: rankWidth, selected: row == selected, read: state.readMarks.contains(id),
        fresh: list.fresh.contains(id), columns: state.size.columns
      )
    }
    return lines
  }

  private func storyRow(
    id: Int, item: Item?, failure: String?, rank: Int, rankWidth: Int, selected: Bool, read: Bool, fresh: Bool,
    columns: Int
  ) -> [String] {
    let marker = selected ? style.orange("▶") + " " : "  "
    let number = String(rank + 1) + "."
    let prefix = marker + String(repeating: " ", count: max(0, rankWidth + 1 - number.count)) + style.dim(number) + " "
    let indent = String(repeating: " ", count: rankWidth + 4)
    guard let item else {
      if let failure { return [prefix + style.red("[item \(id): \(failure)]"), ""] }
      return [prefix + style.dim("…"), ""]
    }
    var title = TerminalText.line(HTMLText(item.title ?? "").plainText)
    if item.deleted { title = "[deleted]" } else if title.isEmpty { title = item.dead ? "[dead]" : "[untitled]" }
    let domain = Domain.of(item.url)
    let room = max(10, columns - indent.count - (domain.map { TerminalText.width($0) + 3 } ?? 0))
    title = TerminalText.truncate(title, columns: room)
    var first = prefix + (read ? style.dim(title) : style.bold(title))
    if let domain { first += " " + style.dim("(\(domain))") }

    var meta: [String] = []
    if item.kind != .job {
      let points = item.score ?? 0
      var byline = style.orange("\(points) point\(points == 1 ? "" : "s")")
      if let by = item.by.map(TerminalText.line), !by.isEmpty { byline += " by " + style.cyan(by) }
      meta.append(byline)
    }
    if let date = item.date { meta.append(style.dim(Age.describe(date, now: now))) }
    var second = meta.joined(separator: " ")
    if item.kind != .job {
      let comments = item.descendants ?? 0
      second += style.dim(" | ") + (comments == 0 ? "discuss" : "\(comments) comment\(comments == 1 ? "" : "s")")
    }
    if read { second += style.dim(" · read") }
    if fresh { second += " · " + style.green("new") }
    return [first, indent + second]
  }

  // MARK: A story and its thread

  private func storyBody(_ view: StoryView, state: ReaderState, height: Int) -> [String] {
    let item = view.story
    let width = min(state.size.columns, 100)
    var lines: [String] = []
    var title = TerminalText.line(HTMLText(item.title ?? "").plainText)
    if title.isEmpty { title = item.deleted ? "[deleted]" : "[untitled]" }
    var first = (view.cursor == nil ? style.orange("▶") + " " : "  ") + style.bold(title)
    if let domain = Domain.of(item.url) { first += " " + style.dim("(\(domain))") }
    lines.append(first)
    var meta: [String] = []
    if item.kind != .job {
      let points = item.score ?? 0
      var byline = style.orange("\(points) point\(points == 1 ? "" : "s")")
      if let by = item.by.map(TerminalText.line), !by.isEmpty { byline += " by " + style.cyan(by) }
      meta.append(byline)
    }
    if let date = item.date { meta.append(style.dim(Age.describe(date, now: now))) }
    lines.append("  " + meta.joined(separator: " "))
    if let url = item.url.map(TerminalText.line), !url.isEmpty { lines.append("  " + style.blue(style.underline(url))) }
    if let text = item.text, !text.isEmpty {
      lines.append("")
      lines += HTMLText(text).lines(width: width - 2, style: style).map { $0.isEmpty ? "" : "  " + $0 }
    }
    lines.append("")

    let rows = view.visibleRows
    let loaded = view.comments.count
    if view.loading {
      let expected = max(item.descendants ?? 0, item.kids.count)
      lines.append(style.dim("Loading comments: \(loaded) of \(max(expected, loaded)) …"))
    } else if item.kids.isEmpty {
      lines.append(style.dim("No comments yet."))
    } else {
      var summary = "\(loaded) comment\(loaded == 1 ? "" : "s")"
      if !view.failures.isEmpty { summary += ", \(view.failures.count) could not be loaded" }
      if !view.missing.isEmpty { summary += ", \(view.missing.count) not on the server" }
      lines.append(style.dim(summary))
    }

    // Where each comment starts, to scroll the selected one into view.
    var selectedRange: Range<Int>?
    for row in rows {
      let start = lines.count
      lines.append("")
      lines += comment(row, in: view, width: width)
      if row.id == view.cursor { selectedRange = (start + 1)..<lines.count }
    }
    // The selected comment goes to the top, under one line of the comment before it, when
    // it would not fit below; then the view moves down by the lines scrolled, but not
    // past the last page.
    var top = 0
    if let selectedRange, selectedRange.upperBound > height { top = max(0, selectedRange.lowerBound - 1) }
    top = min(top + view.scroll, max(top, lines.count - height))
    return Array(lines[top...])
  }

  private func comment(_ row: StoryView.Row, in view: StoryView, width: Int) -> [String] {
    let selected = row.id == view.cursor
    let gutter = selected ? style.orange("▶") + " " : "  "
    let pad = String(repeating: "  ", count: row.depth - 1)
    guard let item = view.comments[row.id] else {
      return [gutter + pad + style.red("[comment \(row.id): \(view.failures[row.id] ?? "not loaded")]")]
    }
    if item.deleted { return [gutter + pad + style.dim("[deleted]")] }
    var header = style.cyan(TerminalText.line(item.by ?? "?"))
    if let date = item.date { header += " " + style.dim(Age.describe(date, now: now)) }
    if item.dead { header += " " + style.dim("[dead]") }
    if view.collapsed.contains(row.id) {
      let hidden = view.replyCount(of: row.id)
      header += " " + style.yellow("[+\(hidden) repl\(hidden == 1 ? "y" : "ies")]")
    }
    var lines = [gutter + pad + header]
    let text = HTMLText(item.text ?? "")
    if item.dead, text.plainText == "[dead]" { return lines }
    let textWidth = max(20, width - 2 - pad.count)
    lines += text.lines(width: textWidth, style: style).map { $0.isEmpty ? "" : "  " + pad + $0 }
    return lines
  }

  // MARK: The keys

  private func help() -> [String] {
    let keys: [(String, String)] = [
      ("j k ↓ ↑", "move down and up (comments, in a story)"),
      ("Space b", "a page down and up"),
      ("g G", "first and last"),
      ("Enter l →", "open the story and its comments"),
      ("h ← Backspace", "back to the list"),
      ("n p", "next and previous top-level comment"),
      ("PgDn PgUp d u", "in a story: scroll a page down and up"),
      ("Enter Space c", "in a story: fold or unfold the replies of a comment"),
      ("1 … 6, Tab", "top, new, best, ask, show, jobs"),
      ("/", "filter the list as you type (Enter keeps it, Esc clears it)"),
      ("o", "open the link (or show it when there is no opener)"),
      ("r", "refresh"),
      ("?", "these keys"),
      ("q", "quit"),
    ]
    return [style.bold("Keys"), ""]
      + keys.map { "  " + style.cyan($0.0.padding(toLength: 16, withPad: " ", startingAt: 0)) + $0.1 }
  }

  // MARK: Clipping

  /// `line` cut to `columns` terminal columns; escape sequences take no room, and a cut
  /// line that was styled ends with a reset.
  static func clip(_ line: String, to columns: Int) -> String {
    var out = ""
    var used = 0
    var inEscape = false
    var styled = false
    for character in line {
      if inEscape {
        out.append(character)
        if let scalar = character.unicodeScalars.first, (0x40...0x7E).contains(scalar.value), character != "[" {
          inEscape = false
        }
        continue
      }
      if character == "\u{1B}" {
        inEscape = true
        styled = true
        out.append(character)
        continue
      }
      let width = TerminalText.width(String(character))
      if used + width > columns { return styled ? out + "\u{1B}[0m" : out }
      out.append(character)
      used += width
    }
    return out
  }
}
