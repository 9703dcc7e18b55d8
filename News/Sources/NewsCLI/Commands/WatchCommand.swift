import ArgumentParser
import Combine
import Dispatch
import Foundation
import HackerNews
import NewsServer

#if canImport(Glibc)
  import Glibc
#endif

struct WatchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "watch",
    abstract: "A live list of stories that refreshes as Hacker News changes, until Ctrl-C.",
    discussion: """
      Follows the feed's event stream and its stories' streams (Firebase's server-sent events, \
      which the Hacker News API and the demo server send): the list is redrawn as they change, \
      with no polling. Against a server that does not stream, polls /v0/updates.json every \
      --interval seconds instead and, when it changes, reloads the list and the stories that \
      changed. With --demo the bundled snapshot moves by itself (scores and comment counts \
      drift, stories climb and fall, new stories arrive).
      """)

  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var display: DisplayOptions
  @Option(help: "The feed.") var feed: Feed = .top
  @Option(
    name: .shortAndLong, parsing: .unconditional, help: "How many stories (1 to 500; on a terminal, at most what fits)."
  ) var limit = 30
  @Option(
    parsing: .unconditional, help: ArgumentHelp("Seconds between two polls of the updates.", valueName: "seconds"))
  var interval: Double = 2

  func validate() throws {
    guard (1...500).contains(limit) else { throw ValidationError("--limit must be between 1 and 500, not \(limit).") }
    guard interval >= 0.1 else { throw ValidationError("--interval must be at least 0.1 seconds, not \(interval).") }
  }

  func run() throws {
    let (api, server) = try connection.connect(live: true)
    let options = OutputOptions.detect(json: display.json)
    var rows = limit
    if options.interactive, let height = Terminal.size(fd: 1)?.rows { rows = max(1, min(limit, (height - 3) / 2)) }
    let model = FeedViewModel(api: api, feed: feed, limit: rows, maxConcurrent: connection.concurrency)
    let screen = WatchScreen(output: FileOutput.standardOutput, options: options, title: "\(feed.rawValue) stories")
    var subscriptions = Set<AnyCancellable>()

    // Ctrl-C: restore the terminal, stop the demo server and exit cleanly.
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let interactive = options.interactive
    let signals = [SIGINT, SIGTERM].map { DispatchSource.makeSignalSource(signal: $0, queue: .main) }
    for source in signals {
      source.setEventHandler {
        if interactive { FileOutput.standardOutput.write(WatchScreen.leave) }
        server?.stop()
        terminate(0)
      }
      source.resume()
    }

    var everShown = false
    // Follow the streams; a server that does not stream is polled instead.
    var ids: [Int] = []
    var items: [Int: Item] = [:]
    var missing: Set<Int> = []
    let changes = PassthroughSubject<Void, Never>()
    var polling = false
    // Polls the updates; when they change, refreshes the list and the items that changed.
    var pollSubscription: AnyCancellable?
    let startPolling = {
      pollSubscription =
        Timer.publish(every: interval, on: .main, in: .common)
        .autoconnect()
        .map { _ in () }
        .prepend(())
        .flatMap(maxPublishers: .max(1)) { _ in
          api.updates()
            .map { Result<Updates, API.Error>.success($0) }
            .catch { Just(.failure($0)) }
        }
        .receive(on: DispatchQueue.main)
        .compactMap { result -> Updates? in
          switch result {
          case .success(let updates):
            return updates
          case .failure(let error):
            if !everShown {
              if interactive { FileOutput.standardOutput.write(WatchScreen.leave) }
              FileOutput.standardError.write(
                "news: cannot watch the \(feed) stories: \(ErrorText.describe(error, retries: connection.retries))\(connection.hint(for: error))\n"
              )
              server?.stop()
              terminate(1)
            }
            screen.show(error: error)
            return nil
          }
        }
        .removeDuplicates()
        .sink { updates in model.refresh(changed: Set(updates.items)) }
    }
    api.liveFeed(feed, limit: rows, scheduler: DispatchQueue.main)
      .sink { event in
        switch event {
        case .listed(let listed): ids = listed
        case .item(let item): items[item.id] = item
        case .missing(let id): missing.insert(id)
        case .connection(.notStreaming):
          guard !polling else { return }
          polling = true
          startPolling()
          return
        case .connection(let state):
          if everShown { screen.show(connection: state) }
          return
        }
        changes.send()
      }
      .store(in: &subscriptions)
    // A move changes the list and several stories at once: one frame for all of them.
    changes
      .debounce(for: .milliseconds(100), scheduler: DispatchQueue.main)
      .compactMap { () -> [Item]? in
        guard !ids.isEmpty, ids.allSatisfy({ items[$0] != nil || missing.contains($0) }) else { return nil }
        return ids.compactMap { items[$0] }
      }
      .sink { stories in
        everShown = true
        screen.render(stories)
      }
      .store(in: &subscriptions)

    model.$stories
      .dropFirst()
      .sink { stories in
        everShown = true
        screen.render(stories)
      }
      .store(in: &subscriptions)
    model.$error
      .compactMap { error -> API.Error? in error }
      .sink { error in
        if !everShown {
          if interactive { FileOutput.standardOutput.write(WatchScreen.leave) }
          FileOutput.standardError.write(
            "news: cannot watch the \(feed) stories: \(ErrorText.describe(error, retries: connection.retries))\(connection.hint(for: error))\n"
          )
          server?.stop()
          terminate(1)
        }
        screen.show(error: error)
      }
      .store(in: &subscriptions)

    if interactive {
      FileOutput.standardOutput.write(WatchScreen.enter + options.style.dim("Loading the \(feed) stories …"))
    }
    withExtendedLifetime((subscriptions, signals, model)) {
      _ = pollSubscription
      RunLoop.main.run()
    }
  }

}

/// Draws the watched list: on a terminal, the whole screen, with what moved highlighted;
/// otherwise, one block of rows (or of JSON lines for what changed) per refresh.
final class WatchScreen {
  static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J"
  static let leave = "\u{1B}[?25h\u{1B}[?1049l"

  private let output: any OutputStream
  private let options: OutputOptions
  private let title: String
  private var previous: [Int: (rank: Int, score: Int, comments: Int)] = [:]
  private var lastStories: [Item] = []
  private var statusLine = ""
  private var connectionLine = ""
  private var refreshes = 0

  init(output: any OutputStream, options: OutputOptions, title: String) {
    self.output = output
    self.options = options
    self.title = title
  }

  private static let clock: DateFormatter = {
    let formatter = DateFormatter()
    formatter.dateFormat = "HH:mm:ss"
    return formatter
  }()

  /// Shows the state of the event streams on the status line.
  func show(connection: LiveFeedEvent.Connection) {
    switch connection {
    case .live: connectionLine = options.style.green("● live") + " · "
    case .reconnecting(let streams, _):
      connectionLine = options.style.yellow("○ reconnecting \(streams) stream\(streams == 1 ? "" : "s")") + " · "
    case .notStreaming: connectionLine = ""
    }
    if options.interactive { render(lastStories, redrawOnly: true) }
  }

  func show(error: API.Error) {
    statusLine = options.style.red("update failed: \(error.errorDescription ?? "\(error)"); retrying")
    if options.interactive { render(lastStories, redrawOnly: true) }
  }

  func render(_ stories: [Item], redrawOnly: Bool = false) {
    let style = options.style
    if !redrawOnly {
      refreshes += 1
      statusLine = ""
    }
    var changed = 0
    var text = ""
    let width = String(max(1, stories.count)).count
    for (rank, item) in stories.enumerated() {
      let before = previous[item.id]
      let moved =
        refreshes > 1
        && (before == nil || before!.rank != rank || before!.score != (item.score ?? 0)
          || before!.comments != (item.descendants ?? 0))
      if moved { changed += 1 }
      if options.json {
        if refreshes == 1 || moved { text += JSONLines.line(item, extra: ["rank": rank + 1]) }
        continue
      }
      var row = StoryRow.render(item, rank: rank, rankWidth: width, options: options)
      if moved, refreshes > 1 {
        var marks: [String] = []
        if let before {
          if before.rank > rank { marks.append(style.green("▲\(before.rank - rank)")) }
          if before.rank < rank { marks.append(style.red("▼\(rank - before.rank)")) }
          let gain = (item.score ?? 0) - before.score
          if gain > 0 { marks.append(style.green("+\(gain) points")) }
          let talk = (item.descendants ?? 0) - before.comments
          if talk > 0 { marks.append(style.green("+\(talk) comments")) }
        } else {
          marks.append(style.green("new"))
        }
        row.removeLast()
        row += "  " + marks.joined(separator: " ") + "\n"
      }
      text += row
    }
    if !redrawOnly {
      previous = Dictionary(
        stories.enumerated().map { ($0.element.id, ($0.offset, $0.element.score ?? 0, $0.element.descendants ?? 0)) },
        uniquingKeysWith: { first, _ in first })
      lastStories = stories
    }
    let time = Self.clock.string(from: Date())
    var header = style.orange(style.bold("Hacker News")) + " · \(title) · updated \(time)"
    if refreshes > 1 { header += " · \(changed) changed" }
    if options.json {
      output.write(text)
    } else if options.interactive {
      let footer = statusLine.isEmpty ? connectionLine + style.dim("Ctrl-C to quit") : statusLine
      output.write("\u{1B}[H\u{1B}[2J" + header + "\n\n" + text + "\n" + footer)
    } else {
      output.write((refreshes > 1 ? "\n" : "") + header + "\n\n" + text)
    }
  }
}

/// Ends the process with `status`.
private func terminate(_ status: Int32) -> Never {
  exit(status)
}
