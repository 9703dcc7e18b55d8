import Foundation
import HackerNews

/// Prints one item — a story, poll, job or comment — with its comment tree, indented.
///
/// ```text
/// My YC app: Dropbox - Throw away your USB drive (getdropbox.com)
/// 111 points by dhouston 17 years ago | 71 comments
/// http://www.getdropbox.com/u/2/screencast.html
///
///   norvig 14 years ago
///   Aw shucks, guys ... you make me blush with your compliments.
///
///     pg 14 years ago
///     A reply, wrapped to the width of the terminal.
/// ```
public struct CommentPrinter {
  let options: OutputOptions
  let retries: Int

  public init(options: OutputOptions, retries: Int) {
    self.options = options
    self.retries = retries
  }

  /// The header of `item`: title, meta line, link, text and poll options.
  public func header(_ item: Item, pollOptions: [Ranked<Item?>] = []) -> String {
    if options.json {
      var text = JSONLines.line(item, extra: ["depth": 0])
      for option in pollOptions.sorted(by: { $0.rank < $1.rank }) {
        if case .success(let part?) = option.result { text += JSONLines.line(part, extra: ["depth": 0]) }
      }
      return text
    }
    let style = options.style
    var lines: [String] = []
    if item.kind == .comment {
      lines.append(contentsOf: comment(item, depth: 0))
      if let parent = item.parent { lines.insert(style.dim("comment on item \(parent)"), at: 0) }
      return lines.joined(separator: "\n") + "\n"
    }
    let row = StoryRow.render(item, rank: 0, rankWidth: 0, options: options)
    // The story row without its rank: title line and meta line.
    let rowLines = row.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let titleLine = rowLines[0].drop { $0 != " " }.dropFirst()
    lines.append(String(titleLine))
    lines.append(rowLines[1].trimmingPrefix(while: { $0 == " " }).description)
    if let url = item.url.map(TerminalText.line), !url.isEmpty { lines.append(style.blue(style.underline(url))) }
    if let text = item.text, !text.isEmpty {
      lines.append("")
      lines.append(contentsOf: HTMLText(text).lines(width: min(options.width, 100), style: style))
    }
    let parts = pollOptions.sorted { $0.rank < $1.rank }
    if !parts.isEmpty {
      lines.append("")
      for part in parts {
        switch part.result {
        case .success(let option?):
          let votes = option.score ?? 0
          let text = TerminalText.line(HTMLText(option.text ?? "").plainText)
          lines.append("  • \(text) " + style.orange("\(votes) point\(votes == 1 ? "" : "s")"))
        case .success(nil):
          lines.append(style.dim("  • [option \(part.id) is not on the server]"))
        case .failure(let error):
          lines.append(style.red("  • [option \(part.id): \(ErrorText.describe(error, retries: retries))]"))
        }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The comment tree below `root`, from the comments fetched for it; `complete` is `false`
  /// when `comments` are only those kept from earlier runs (read offline), and the closing
  /// line then says how many of the thread's comments were kept.
  public func tree(of root: Item, comments: [Ranked<Item?>], complete: Bool = true) -> String {
    var byID: [Int: Ranked<Item?>] = [:]
    for comment in comments { byID[comment.id] = comment }
    var out = ""
    var missing = 0
    var failed = 0
    var shown = 0
    var visited = Set<Int>()

    func walk(_ ids: [Int], depth: Int) {
      for id in ids where visited.insert(id).inserted {
        guard let ranked = byID[id] else { continue }
        switch ranked.result {
        case .success(let item?):
          if !item.deleted && !item.dead { shown += 1 }
          if options.json {
            out += JSONLines.line(item, extra: ["depth": depth])
          } else {
            out += "\n" + comment(item, depth: depth).joined(separator: "\n") + "\n"
          }
          walk(item.kids, depth: depth + 1)
        case .success(nil):
          missing += 1
          if options.json { out += JSONLines.line(id: id, extra: ["depth": depth], error: "not found") }
        case .failure(let error):
          failed += 1
          let message = ErrorText.describe(error, retries: retries)
          if options.json {
            out += JSONLines.line(id: id, extra: ["depth": depth], error: message)
          } else {
            out += "\n" + indent(depth) + options.style.red("[comment \(id): \(message)]") + "\n"
          }
        }
      }
    }
    walk(root.kids, depth: 1)

    if !options.json {
      if root.kids.isEmpty {
        if root.kind != .comment && root.kind != .job { out += "\n" + options.style.dim("No comments yet.") + "\n" }
      } else if missing > 0 || failed > 0 || (!complete && shown < (root.descendants ?? 0)) {
        var line = Self.footer(shown: shown, total: root.descendants, missing: missing)
        if !complete { line = String(line.dropLast()) + " (read offline: only the comments kept are shown)." }
        out += "\n" + options.style.dim(line) + "\n"
      }
    }
    return out
  }

  /// The closing line of a tree that could not be shown whole. It counts in the header's
  /// terms: the header's "N comments" is the item's `descendants`, the API's count of the
  /// thread's live comments (deleted and dead ones are not in it), so the footer says how
  /// many live comments were shown out of those, then how many of the comment ids listed
  /// the server had no item for.
  static func footer(shown: Int, total: Int?, missing: Int) -> String {
    let plural = { (n: Int, word: String) in "\(n) \(word)\(n == 1 ? "" : "s")" }
    var text: String
    if let total, total >= shown {
      text = "\(shown) of the \(plural(total, "comment")) shown"
    } else {
      text = "\(plural(shown, "comment")) shown"
    }
    if missing > 0 {
      text += "; \(missing) of the comment ids listed \(missing == 1 ? "is" : "are") not on the server"
    }
    return text + "."
  }

  private func indent(_ depth: Int) -> String { String(repeating: "  ", count: depth) }

  /// The lines of one comment at `depth`: a header (author and age) and the text.
  func comment(_ item: Item, depth: Int) -> [String] {
    let style = options.style
    let pad = indent(depth)
    if item.deleted { return [pad + style.dim("[deleted]")] }
    var header = style.cyan(TerminalText.line(item.by ?? "?"))
    if let date = item.date { header += " " + style.dim(Age.describe(date, now: options.now())) }
    if item.dead { header += " " + style.dim("[dead]") }
    var lines = [pad + header]
    // Text reads best at most 100 columns wide, however wide the terminal.
    let width = max(20, min(options.width, 100) - pad.count)
    let text = HTMLText(item.text ?? "")
    if item.dead, text.plainText == "[dead]" { return lines }
    lines.append(contentsOf: text.lines(width: width, style: style).map { $0.isEmpty ? "" : pad + $0 })
    return lines
  }
}
