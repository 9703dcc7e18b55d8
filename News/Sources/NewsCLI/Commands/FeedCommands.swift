import ArgumentParser
import Combine
import Foundation
import HackerNews
import NewsServer
import NewsStore

/// What tells one feed command from another: its feed, name and words.
protocol FeedDescription {
  static var feed: Feed { get }
  /// The subcommand's name (`top`, …, `jobs`).
  static var commandName: String { get }
  static var abstract: String { get }
  /// The feed in a sentence: "cannot load the \(title)".
  static var title: String { get }
}

enum TopFeed: FeedDescription {
  static let feed = Feed.top
  static let commandName = "top"
  static let abstract = "The front page: up to 500 stories and jobs."
  static let title = "top stories"
}

enum NewFeed: FeedDescription {
  static let feed = Feed.new
  static let commandName = "new"
  static let abstract = "The newest stories."
  static let title = "new stories"
}

enum BestFeed: FeedDescription {
  static let feed = Feed.best
  static let commandName = "best"
  static let abstract = "The best stories."
  static let title = "best stories"
}

enum AskFeed: FeedDescription {
  static let feed = Feed.ask
  static let commandName = "ask"
  static let abstract = "Ask HN."
  static let title = "Ask HN stories"
}

enum ShowFeed: FeedDescription {
  static let feed = Feed.show
  static let commandName = "show"
  static let abstract = "Show HN."
  static let title = "Show HN stories"
}

enum JobsFeed: FeedDescription {
  static let feed = Feed.job
  static let commandName = "jobs"
  static let abstract = "Jobs at YC startups."
  static let title = "jobs"
}

/// The six feed commands, one definition: `news top`, `new`, `best`, `ask`, `show`, `jobs`.
struct FeedCommand<Description: FeedDescription>: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: Description.commandName, abstract: Description.abstract,
      discussion: """
        Each row ends with the item's id, for `news item ID`; `news item --rank N` opens the \
        Nth row of the last list printed. Stories are kept as they arrive, for --offline; \
        stories opened with `news item` are marked read; `news filter add WORD` hides the \
        stories with WORD in their title.
        """)
  }

  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var store: StoreOptions
  @OptionGroup var display: DisplayOptions
  @OptionGroup var tracing: TraceOptions
  @Option(name: .shortAndLong, parsing: .unconditional, help: "How many stories (1 to 500).") var limit = 30

  init() {}

  /// The command with these options, every property set, for another command to run (a
  /// command made with `init()` and not parsed traps on the first option it reads).
  init(
    connection: ConnectionOptions, store: StoreOptions, display: DisplayOptions, limit: Int,
    tracing: TraceOptions
  ) {
    self.connection = connection
    self.store = store
    self.display = display
    self.limit = limit
    self.tracing = tracing
  }

  func validate() throws {
    guard (1...500).contains(limit) else { throw ValidationError("--limit must be between 1 and 500, not \(limit).") }
    if store.offline, connection.demo { throw ValidationError("--offline and --demo cannot be used together.") }
  }

  func run() throws {
    try tracing.recording { try print() }
  }

  private func print() throws {
    let kept = store.open()
    let options = OutputOptions.detect(json: display.json)
    let readIDs = kept.attempt([]) { try $0.readIDs() }
    let keywords = kept.attempt([]) { try $0.filters() }
    let printer = FeedPrinter(
      output: FileOutput.standardOutput, options: options, retries: connection.retries, title: Description.title,
      readIDs: readIDs, keywords: keywords)
    if store.offline {
      try printOffline(kept, printer: printer)
    } else {
      try printOnline(kept, printer: printer)
    }
    if printer.hidden > 0, options.interactive {
      let stories = printer.hidden == 1 ? "1 story" : "\(printer.hidden) stories"
      FileOutput.standardOutput.write(options.style.dim("\(stories) hidden by your filters (news filter list)") + "\n")
    }
  }

  private func printOnline(_ kept: Kept, printer: FeedPrinter) throws {
    let (api, server) = try connection.connect()
    defer { server?.stop() }
    var failure: API.Error?
    printer.start()
    runUntilComplete(
      api.feed(Description.feed, limit: limit, maxConcurrent: connection.concurrency),
      on: DispatchQueue(label: "news.output"),
      receiveValue: { event in
        // Kept as it arrives, each in its own transaction, before it is printed.
        switch event {
        case .listed(let ids): kept.attempt(()) { try $0.saveListing(Array(ids.prefix(limit)), of: Description.feed) }
        case .item(let ranked): if case .success(let item?) = ranked.result { kept.save([item]) }
        }
        printer.receive(event)
      },
      receiveCompletion: { completion in
        printer.finish()
        if case .failure(let error) = completion { failure = error }
      })
    if let failure {
      var offline: String?
      if let listing = kept.attempt(nil, { try $0.listing(of: Description.feed) }) {
        offline =
          "`news \(Description.commandName) --offline` shows the \(Description.title) kept \(Age.describe(listing.date))"
      }
      throw fail(
        "cannot load the \(Description.title): \(ErrorText.describe(failure, retries: connection.retries)) (\(api.request(.feed(Description.feed)).url!.absoluteString))\(connection.hint(for: failure, kept: offline))"
      )
    }
    let unavailable = printer.failed
    if unavailable > 0 {
      throw fail("\(unavailable) of \(printer.printed) stories could not be loaded.")
    }
  }

  private func printOffline(_ kept: Kept, printer: FeedPrinter) throws {
    guard kept.working else { throw fail("nothing to read offline without the database.") }
    guard let listing = kept.attempt(nil, { try $0.listing(of: Description.feed) }) else {
      throw fail("no \(Description.title) were kept; read them once without --offline first.")
    }
    let ids = Array(listing.ids.prefix(limit))
    let items = kept.attempt([:]) { try $0.items(ids: ids) }
    printer.missingReason = "was not kept"
    printer.receive(.listed(ids))
    for (rank, id) in ids.enumerated() {
      printer.receive(.item(Ranked(rank: rank, id: id, result: .success(items[id]))))
    }
    printer.finish()
  }
}

typealias Top = FeedCommand<TopFeed>
typealias New = FeedCommand<NewFeed>
typealias Best = FeedCommand<BestFeed>
typealias Ask = FeedCommand<AskFeed>
typealias Show = FeedCommand<ShowFeed>
typealias Jobs = FeedCommand<JobsFeed>
