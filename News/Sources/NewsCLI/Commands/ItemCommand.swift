import ArgumentParser
import Combine
import Foundation
import HackerNews
import NewsStore

struct ItemCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "item",
    abstract: "One story, poll, job or comment, with its comment tree.",
    discussion: """
      Give the item's id (each row of `news top` ends with it), or --rank N for the Nth row of \
      the last list printed. Comments are fetched breadth-first, --concurrency at a time, kept \
      as they arrive, and printed as a tree, indented. The item is marked read as it opens.
      """)

  @Argument(help: "The item's id.") var id: Int?
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("The Nth story of the last list printed (news top, new, …), instead of an id.", valueName: "n"))
  var rank: Int?
  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var store: StoreOptions
  @OptionGroup var display: DisplayOptions
  @OptionGroup var tracing: TraceOptions

  init() {}

  /// The command opening item `id` with these options, every property set, for another
  /// command to run (a command made with `init()` and not parsed traps on the first option
  /// it reads).
  init(
    id: Int, connection: ConnectionOptions, store: StoreOptions, display: DisplayOptions,
    tracing: TraceOptions
  ) {
    self.id = id
    self.rank = nil
    self.connection = connection
    self.store = store
    self.display = display
    self.tracing = tracing
  }

  func validate() throws {
    switch (id, rank) {
    case (nil, nil): throw ValidationError("Give an item id, or --rank N for the Nth story of the last list.")
    case (.some, .some): throw ValidationError("Give an item id or --rank, not both.")
    case (nil, let rank?): guard rank >= 1 else { throw ValidationError("--rank must be 1 or more, not \(rank).") }
    case (let id?, nil): guard id >= 0 else { throw ValidationError("an item id is 0 or more, not \(id).") }
    }
    if store.offline, connection.demo { throw ValidationError("--offline and --demo cannot be used together.") }
  }

  func run() throws {
    try tracing.recording { try print() }
  }

  private func print() throws {
    let kept = store.open()
    let id = try resolveID(kept)
    let options = OutputOptions.detect(json: display.json)
    let printer = CommentPrinter(options: options, retries: connection.retries)
    if store.offline {
      try printOffline(id, kept: kept, printer: printer)
    } else {
      try printOnline(id, kept: kept, printer: printer, options: options)
    }
  }

  /// The id given, or the one at --rank in the last listing.
  private func resolveID(_ kept: Kept) throws -> Int {
    if let id { return id }
    let rank = rank!
    guard kept.working, let listing = kept.attempt(nil, { try $0.lastListing() }) else {
      throw fail("--rank \(rank): no list was printed yet (or none was kept); run news top first.")
    }
    guard let id = listing.id(atRank: rank) else {
      throw fail("--rank \(rank): the last list (\(listing.feed.rawValue)) has \(listing.ids.count) stories.")
    }
    return id
  }

  private func printOffline(_ id: Int, kept: Kept, printer: CommentPrinter) throws {
    guard kept.working else { throw fail("nothing to read offline without the database.") }
    guard let item = kept.attempt(nil, { try $0.item(id: id) }) else {
      throw fail("item \(id) was not kept; read it once without --offline first.")
    }
    // Read once opened: before it is printed, so that a reader that stops early (`| head`)
    // still leaves the mark.
    kept.attempt(()) { try $0.markRead(id: id) }
    let parts = kept.attempt([:]) { try $0.items(ids: item.parts) }
    let pollOptions = item.parts.enumerated().map {
      Ranked<Item?>(rank: $0.offset, id: $0.element, result: .success(parts[$0.element]))
    }
    FileOutput.standardOutput.write(printer.header(item, pollOptions: pollOptions))
    // The thread as far as it was kept; ids never loaded are left out.
    let thread = kept.attempt([]) { try $0.thread(of: item) }
    let comments = thread.enumerated().map {
      Ranked<Item?>(rank: $0.offset, id: $0.element.item.id, result: .success($0.element.item))
    }
    FileOutput.standardOutput.write(printer.tree(of: item, comments: comments, complete: false))
  }

  private func printOnline(_ id: Int, kept: Kept, printer: CommentPrinter, options: OutputOptions) throws {
    let (api, server) = try connection.connect()
    defer { server?.stop() }
    let output = FileOutput.standardOutput
    let queue = DispatchQueue(label: "news.output")

    // The item and, for a poll, its options.
    var fetched: Result<(Item, [Ranked<Item?>]), API.Error>?
    let root = api.item(id: id)
      .flatMap { item -> AnyPublisher<(Item?, [Ranked<Item?>]), API.Error> in
        guard let item, !item.parts.isEmpty else {
          return Just((item, [])).setFailureType(to: API.Error.self).eraseToAnyPublisher()
        }
        return api.items(ids: item.parts, maxConcurrent: connection.concurrency)
          .collect()
          .map { (item, $0) }
          .setFailureType(to: API.Error.self)
          .eraseToAnyPublisher()
      }
    var missing = false
    runUntilComplete(
      root, on: queue,
      receiveValue: { item, parts in
        if let item { fetched = .success((item, parts)) } else { missing = true }
      },
      receiveCompletion: { completion in
        if case .failure(let error) = completion { fetched = .failure(error) }
      })
    if missing { throw fail("item \(id) is not on the server.") }
    guard case .success(let (item, parts)) = fetched else {
      if case .failure(let error) = fetched {
        let offline = kept.attempt(nil, { try $0.item(id: id) }).map { _ in
          "`news item \(id) --offline` shows it as kept"
        }
        throw fail(
          "cannot load item \(id): \(ErrorText.describe(error, retries: connection.retries)) (\(api.request(.item(id)).url!.absoluteString))\(connection.hint(for: error, kept: offline))"
        )
      }
      return
    }
    kept.save([item] + parts.compactMap { try? $0.result.get() })
    kept.attempt(()) { try $0.markRead(id: id) }
    output.write(printer.header(item, pollOptions: parts))

    // The comment tree, breadth-first; a progress line on a terminal.
    var comments: [Ranked<Item?>] = []
    let expected = max(item.descendants ?? 0, item.kids.count)
    var progressShown = false
    runUntilComplete(
      api.comments(of: item, maxConcurrent: connection.concurrency), on: queue,
      receiveValue: { ranked in
        comments.append(ranked)
        if case .success(let comment?) = ranked.result { kept.save([comment]) }
        if options.interactive {
          output.write(
            "\r\u{1B}[2K"
              + options.style.dim("Loading comments: \(comments.count) of \(max(expected, comments.count)) …"))
          progressShown = true
        }
      },
      receiveCompletion: { _ in
        if progressShown { output.write("\r\u{1B}[2K") }
      })
    output.write(printer.tree(of: item, comments: comments))
    let failed = comments.filter { if case .failure = $0.result { return true } else { return false } }.count
    if failed > 0 {
      throw fail("\(failed) comment\(failed == 1 ? "" : "s") could not be loaded.")
    }
  }
}
