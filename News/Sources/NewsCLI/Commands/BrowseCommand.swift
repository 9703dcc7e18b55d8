import ArgumentParser
import Combine
import Dispatch
import Foundation
import HackerNews
import NewsServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `news browse`, and `news` with no subcommand: the full-screen reader on a terminal, the
/// top stories as `news top` prints them anywhere else.
struct BrowseCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "browse",
    abstract: "The interactive reader: move through the feeds, open stories and their comments.",
    discussion: """
      On a terminal, opens a full-screen reader: j/k or the arrows move, Enter opens a story \
      with its comments, h or Backspace goes back, 1-6 or Tab switch feeds, / filters the list, \
      o opens the link, r refreshes, ? shows every key, q quits. The list follows the feed's \
      event stream where the server has one (the demo's moves, as they happen: new stories \
      marked new, scores in place, the selection on its story); elsewhere it reloads every \
      --refresh seconds. When standard input or output is not a terminal, prints the top \
      stories as `news top` does (with --item, the item as `news item` does).
      """)

  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var store: StoreOptions
  @OptionGroup var display: DisplayOptions
  @OptionGroup var tracing: TraceOptions
  @Option(name: .shortAndLong, help: "How many stories a feed shows.") var limit = 30
  @Option(help: ArgumentHelp("Seconds between two refreshes of the list (0: only with r).", valueName: "seconds"))
  var refresh: Double = 60
  @Option(help: ArgumentHelp("Open this item (a story and its comments) at the start.", valueName: "id"))
  var item: Int?

  func validate() throws {
    guard (1...500).contains(limit) else { throw ValidationError("--limit must be between 1 and 500.") }
    guard refresh == 0 || refresh >= 1 else {
      throw ValidationError("--refresh must be 0 (never) or at least 1 second.")
    }
    if store.offline, connection.demo { throw ValidationError("--offline and --demo cannot be used together.") }
  }

  func run() throws {
    let environment = ProcessInfo.processInfo.environment
    guard Style.isTerminal(0), Style.isTerminal(1), !display.json, environment["TERM"] != "dumb",
      let size = TerminalInput.size()
    else {
      return try printInstead()
    }
    let trace = try tracing.start()
    // The database's warnings go to the status line: standard error would garble the screen.
    let warning = CurrentValueSubject<String?, Never>(nil)
    let kept = store.open(reporting: { warning.send($0) })
    let readerStore = StoryReaderStore(kept)
    let source: any ReaderSource
    let server: DemoServer?
    if store.offline {
      source = StoredReaderSource(store: readerStore)
      server = nil
    } else {
      let connected = try connection.connect(live: true)
      source = APIReaderSource(api: connected.0, maxConcurrent: connection.concurrency)
      server = connected.1
    }
    let screen = TerminalScreen()
    let input = TerminalInput(queue: .main)

    // Every way out gives the terminal back first.
    let finish: @Sendable (Int32) -> Never = { status in
      screen.leave()
      server?.stop()
      trace?.finish()
      endProcess(status)
    }
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let signals = [SIGINT, SIGTERM].map { DispatchSource.makeSignalSource(signal: $0, queue: .main) }
    for source in signals {
      source.setEventHandler { finish(0) }
      source.resume()
    }

    let reader = Reader(
      source: source,
      store: readerStore,
      keys: input.keys.handleEvents(receiveCompletion: { _ in DispatchQueue.main.async { finish(0) } })
        .eraseToAnyPublisher(),
      sizes: input.sizes, size: size, limit: limit, scheduler: DispatchQueue.main,
      debounce: .milliseconds(250), refresh: refresh > 0 ? .milliseconds(Int(refresh * 1000)) : nil,
      style: Style(enabled: Style.colorAllowed(environment: environment)),
      openLink: Self.open, draw: screen.draw, quit: { finish(0) },
      warnings: warning.compactMap { $0 }.eraseToAnyPublisher())
    screen.enter()
    reader.start(openingItem: item)
    withExtendedLifetime((reader, input, signals)) {
      dispatchMain()
    }
  }

  /// Where there is no terminal: the list as `news top` prints it, or the item as
  /// `news item` does.
  private func printInstead() throws {
    let store = try StoreOptions(offline: self.store.offline, dataDir: self.store.dataDir)
    if let item {
      return try ItemCommand(id: item, connection: connection, store: store, display: display, tracing: tracing).run()
    }
    try Top(connection: connection, store: store, display: display, limit: limit, tracing: tracing).run()
  }

  /// Opens `url` with `xdg-open` (`open` on macOS) where one is on the PATH; `false` where
  /// there is none, so the reader shows the link instead.
  static func open(_ url: String) -> Bool {
    #if canImport(Darwin)
      let opener = "open"
    #else
      let opener = "xdg-open"
    #endif
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    guard
      let executable = path.split(separator: ":").map({
        URL(fileURLWithPath: String($0)).appendingPathComponent(opener)
      })
      .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
    else { return false }
    let process = Process()
    process.executableURL = executable
    process.arguments = [url]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
      return true
    } catch {
      return false
    }
  }
}

/// Ends the process with `status`.
private func endProcess(_ status: Int32) -> Never {
  exit(status)
}
