import ArgumentParser
import Combine
import Foundation
import HackerNews
import NewsServer

/// What the six feed commands share.
protocol FeedCommand: ParsableCommand {
  static var feed: Feed { get }
  static var feedTitle: String { get }
  var connection: ConnectionOptions { get }
  var display: DisplayOptions { get }
  var limit: Int { get }
}

extension FeedCommand {
  func runFeed() throws {
    guard (1...500).contains(limit) else { throw ValidationError("--limit must be between 1 and 500.") }
    let (api, server) = try connection.connect()
    defer { server?.stop() }
    let options = OutputOptions.detect(json: display.json)
    let printer = FeedPrinter(
      output: FileOutput.standardOutput, options: options, retries: connection.retries, title: Self.feedTitle)
    var failure: API.Error?
    printer.start()
    runUntilComplete(
      api.feed(Self.feed, limit: limit, maxConcurrent: connection.concurrency),
      on: DispatchQueue(label: "news.output"),
      receiveValue: printer.receive,
      receiveCompletion: { completion in
        printer.finish()
        if case .failure(let error) = completion { failure = error }
      })
    if let failure {
      throw fail("cannot load the \(Self.feedTitle): \(ErrorText.describe(failure, retries: connection.retries)) (\(api.request(.feed(Self.feed)).url!.absoluteString))\(connection.hint(for: failure))")
    }
    let unavailable = printer.failed
    if unavailable > 0 {
      throw fail("\(unavailable) of \(printer.printed) stories could not be loaded.")
    }
  }
}

struct Top: FeedCommand {
  static let configuration = CommandConfiguration(abstract: "The front page: up to 500 stories and jobs.")
  static let feed = Feed.top
  static let feedTitle = "top stories"
  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var display: DisplayOptions
  @Option(name: .shortAndLong, help: "How many stories.") var limit = 30
  func run() throws { try runFeed() }
}

struct New: FeedCommand {
  static let configuration = CommandConfiguration(abstract: "The newest stories.")
  static let feed = Feed.new
  static let feedTitle = "new stories"
  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var display: DisplayOptions
  @Option(name: .shortAndLong, help: "How many stories.") var limit = 30
  func run() throws { try runFeed() }
}

struct Best: FeedCommand {
  static let configuration = CommandConfiguration(abstract: "The best stories.")
  static let feed = Feed.best
  static let feedTitle = "best stories"
  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var display: DisplayOptions
  @Option(name: .shortAndLong, help: "How many stories.") var limit = 30
  func run() throws { try runFeed() }
}

struct Ask: FeedCommand {
  static let configuration = CommandConfiguration(abstract: "Ask HN.")
  static let feed = Feed.ask
  static let feedTitle = "Ask HN stories"
  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var display: DisplayOptions
  @Option(name: .shortAndLong, help: "How many stories.") var limit = 30
  func run() throws { try runFeed() }
}

struct Show: FeedCommand {
  static let configuration = CommandConfiguration(abstract: "Show HN.")
  static let feed = Feed.show
  static let feedTitle = "Show HN stories"
  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var display: DisplayOptions
  @Option(name: .shortAndLong, help: "How many stories.") var limit = 30
  func run() throws { try runFeed() }
}

struct Jobs: FeedCommand {
  static let configuration = CommandConfiguration(abstract: "Jobs at YC startups.")
  static let feed = Feed.job
  static let feedTitle = "jobs"
  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var display: DisplayOptions
  @Option(name: .shortAndLong, help: "How many jobs.") var limit = 30
  func run() throws { try runFeed() }
}
