import Foundation
import HackerNews
import NewsStore

/// Prints the stories of a feed in rank order, each as soon as it and every story above it
/// have arrived; on a terminal, a progress line below the rows says what is still loading.
///
/// Stories arrive in any order (several requests are in flight); a story that arrives
/// before one ranked above it waits in a small buffer. A story that cannot be fetched is
/// printed in its place as an error row, so nothing that did arrive is lost.
///
/// Stories marked read show the read mark; stories whose title contains one of `keywords`
/// are left out (their rank is skipped) and counted in ``hidden``.
///
/// Not thread-safe: feed it from one serial queue.
public final class FeedPrinter {
  private let output: any OutputStream
  private let options: OutputOptions
  private let retries: Int
  private let title: String
  private let readIDs: Set<Int>
  private let keywords: [String]
  /// What a missing row says of its item: "is not on the server", or offline "was not kept".
  public var missingReason = "is not on the server"
  private var ids: [Int] = []
  private var waiting: [Int: Ranked<Item?>] = [:]
  private var next = 0
  private var progressShown = false

  /// How many rows were printed, and how many of them were errors or missing items.
  public private(set) var printed = 0
  public private(set) var failed = 0
  public private(set) var missing = 0
  /// How many stories the keyword filters left out.
  public private(set) var hidden = 0
  /// When the first row was written.
  public private(set) var firstRowAt: Date?
  /// When the ids arrived.
  public private(set) var listedAt: Date?

  /// A printer to `output`; `title` names the feed in the progress line, `readIDs` are the
  /// stories to mark read, and stories with one of `keywords` in their title are left out.
  public init(
    output: any OutputStream, options: OutputOptions, retries: Int, title: String,
    readIDs: Set<Int> = [], keywords: [String] = []
  ) {
    self.output = output
    self.options = options
    self.retries = retries
    self.title = title
    self.readIDs = readIDs
    self.keywords = keywords
  }

  /// Shows, on a terminal, that the feed's list is loading.
  public func start() {
    guard options.interactive else { return }
    output.write(options.style.dim("Loading \(title) …"))
    progressShown = true
  }

  /// Handles one event of ``API/feed(_:limit:maxConcurrent:)``.
  public func receive(_ event: FeedEvent) {
    switch event {
    case .listed(let ids):
      listedAt = Date()
      self.ids = ids
      if ids.isEmpty, !options.json {
        clearProgress()
        output.write(options.style.dim("No stories.") + "\n")
      }
      showProgress()
    case .item(let ranked):
      waiting[ranked.rank] = ranked
      var text = ""
      while let ready = waiting.removeValue(forKey: next) {
        text += row(ready)
        next += 1
      }
      if !text.isEmpty {
        clearProgress()
        output.write(text)
        if firstRowAt == nil { firstRowAt = Date() }
      }
      showProgress()
    }
  }

  /// Clears the progress line; call when the feed is done.
  public func finish() {
    clearProgress()
  }

  private var rankWidth: Int { String(max(1, ids.count)).count }

  private func row(_ ranked: Ranked<Item?>) -> String {
    printed += 1
    switch ranked.result {
    case .success(let item?):
      if KeywordFilter.hides(item, keywords: keywords) {
        printed -= 1
        hidden += 1
        return ""
      }
      if options.json { return JSONLines.line(item, extra: ["rank": ranked.rank + 1]) }
      return StoryRow.render(
        item, rank: ranked.rank, rankWidth: rankWidth, options: options, read: readIDs.contains(item.id))
    case .success(nil):
      missing += 1
      if options.json {
        return JSONLines.line(
          id: ranked.id, extra: ["rank": ranked.rank + 1],
          error: missingReason == "is not on the server" ? "not found" : "not kept")
      }
      return StoryRow.missing(
        id: ranked.id, rank: ranked.rank, rankWidth: rankWidth, options: options, reason: missingReason)
    case .failure(let error):
      failed += 1
      if options.json {
        return JSONLines.line(
          id: ranked.id, extra: ["rank": ranked.rank + 1], error: ErrorText.describe(error, retries: retries))
      }
      return StoryRow.failed(
        id: ranked.id, rank: ranked.rank, rankWidth: rankWidth, error: error, retries: retries, options: options)
    }
  }

  private func showProgress() {
    guard options.interactive, next < ids.count else { return }
    let arrived = next + waiting.count
    var line = "Loading \(title): \(arrived) of \(ids.count)"
    if !waiting.isEmpty { line += ", waiting for #\(next + 1)" }
    output.write("\r\u{1B}[2K" + options.style.dim(line + " …"))
    progressShown = true
  }

  private func clearProgress() {
    guard progressShown else { return }
    output.write("\r\u{1B}[2K")
    progressShown = false
  }
}
