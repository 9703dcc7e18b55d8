import Foundation
import HackerNews

/// The two lines of a story in a list, as on the Hacker News front page, with the item's id
/// (for `news item ID`) and, once it was opened, a read mark:
///
/// ```text
///  1. When your data doesn’t fit in memory: the basic techniques (pythonspeed.com)
///     268 points by itamarst 5 hours ago | 134 comments | id 21502323 | read
/// ```
public enum StoryRow {
  /// The row of `item` at `rank` (from 0); `rankWidth` is the width of the widest rank;
  /// `read` adds the read mark.
  public static func render(_ item: Item, rank: Int, rankWidth: Int, options: OutputOptions, read: Bool = false)
    -> String
  {
    let style = options.style
    let number = String(rank + 1) + "."
    let indent = String(repeating: " ", count: rankWidth + 2)
    let prefix = String(repeating: " ", count: max(0, rankWidth + 1 - number.count)) + style.dim(number) + " "
    var title = TerminalText.line(HTMLText(item.title ?? "").plainText)
    if item.deleted {
      title = "[deleted]"
    } else if title.isEmpty {
      title = item.dead ? "[dead]" : "[untitled]"
    } else if item.dead {
      title = "[dead] " + title
    }
    let domain = Domain.of(item.url)
    let room = max(20, options.width - indent.count - (domain.map { TerminalText.width($0) + 3 } ?? 0))
    if options.interactive { title = TerminalText.truncate(title, columns: room) }
    var first = prefix + style.bold(title)
    if let domain { first += " " + style.dim("(\(domain))") }

    var meta: [String] = []
    if item.kind != .job {
      let points = item.score ?? 0
      var byline = style.orange("\(points) point\(points == 1 ? "" : "s")")
      if let by = item.by.map(TerminalText.line), !by.isEmpty { byline += " by " + style.cyan(by) }
      meta.append(byline)
    }
    if let date = item.date { meta.append(style.dim(Age.describe(date, now: options.now()))) }
    var second = meta.joined(separator: " ")
    if item.kind != .job {
      let comments = item.descendants ?? 0
      let count = comments == 0 ? "discuss" : "\(comments) comment\(comments == 1 ? "" : "s")"
      second += (second.isEmpty ? "" : style.dim(" | ")) + count
    }
    second += (second.isEmpty ? "" : style.dim(" | ")) + style.dim("id \(item.id)")
    if read { second += style.dim(" | ") + style.green("read") }
    return first + "\n" + indent + second + "\n"
  }

  /// The row of an id with no item: the server has none, or, offline, none was kept
  /// (`reason` is then "was not kept").
  public static func missing(
    id: Int, rank: Int, rankWidth: Int, options: OutputOptions, reason: String = "is not on the server"
  ) -> String {
    let number = String(rank + 1) + "."
    let prefix = String(repeating: " ", count: max(0, rankWidth + 1 - number.count)) + options.style.dim(number) + " "
    return prefix + options.style.dim("[item \(id) \(reason)]") + "\n"
  }

  /// The row of an id that could not be fetched, with why.
  public static func failed(id: Int, rank: Int, rankWidth: Int, error: API.Error, retries: Int, options: OutputOptions)
    -> String
  {
    let number = String(rank + 1) + "."
    let prefix = String(repeating: " ", count: max(0, rankWidth + 1 - number.count)) + options.style.dim(number) + " "
    return prefix + options.style.red("[item \(id): \(ErrorText.describe(error, retries: retries))]") + "\n"
  }
}

/// Error messages for people.
public enum ErrorText {
  /// What went wrong, with the retries when there were some.
  public static func describe(_ error: API.Error, retries: Int) -> String {
    let message = error.errorDescription ?? "\(error)"
    switch error {
    case .serverError(let status, _) where status >= 500 || status == 429:
      return retries > 0 ? "\(message), \(retries + 1) attempts" : message
    case .timedOut, .connectionLost:
      return retries > 0 ? "\(message), \(retries + 1) attempts" : message
    default:
      return message
    }
  }
}
