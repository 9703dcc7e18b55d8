import ArgumentParser
import Foundation
import HackerNews
import NewsStore

/// Where the reader keeps what it loaded, and whether to read only that.
struct StoreOptions: ParsableArguments {
  @Flag(help: "Read only what earlier runs kept (stories, comments, read marks), with no network.")
  var offline = false

  @Option(
    help: ArgumentHelp(
      "The folder of the database (default: $XDG_DATA_HOME/news, or ~/.local/share/news).", valueName: "folder"))
  var dataDir: String?

  /// The folder the database is in.
  var directory: URL { DataDirectory.resolve(override: dataDir) }

  /// The store, or, when the database cannot be used, a store in memory after a warning on
  /// standard error: the command goes on, and forgets what it loaded.
  func open() -> Kept { open(reporting: { warn($0) }) }

  /// The store, or a store in memory when the database cannot be used; `report` receives the
  /// warning (of a failed open, or of the first failed call later) instead of standard error.
  func open(reporting report: @escaping @Sendable (String) -> Void) -> Kept {
    do {
      return Kept(try SQLiteStore.open(at: directory), report: report)
    } catch {
      report("\(error); going on without it")
      return Kept(MemoryStore(), working: false, report: report)
    }
  }
}

/// A store whose failures do not stop the command: the first one is reported as a warning,
/// and from then on the store is left alone (reads give their fallback, writes are dropped),
/// so that a locked database costs one wait, not one per story.
// Safe: `lock` guards `failed`; `store` is Sendable.
final class Kept: @unchecked Sendable {
  let store: any StoryStore
  /// Whether the store is the database (not the in-memory stand-in of a failed open).
  let working: Bool
  private let lock = NSLock()
  private var failed = false
  private let report: @Sendable (String) -> Void

  init(_ store: any StoryStore, working: Bool = true, report: @escaping @Sendable (String) -> Void = { warn($0) }) {
    self.store = store
    self.working = working
    self.report = report
  }

  /// `body(store)`, or `fallback` if the store failed before or fails now (with a warning
  /// the first time).
  func attempt<T>(_ fallback: T, _ body: (any StoryStore) throws -> T) -> T {
    guard !lock.withLock({ failed }) else { return fallback }
    do {
      return try body(store)
    } catch {
      let first = lock.withLock {
        defer { failed = true }
        return !failed
      }
      if first { report("\(error); what this run loads is not kept") }
      return fallback
    }
  }

  func save(_ items: [Item]) { attempt(()) { try $0.save(items: items) } }
}

extension StoreOptions {
  /// The options as if `--offline` and `--data-dir` had been given: for a command that runs
  /// another one with its own options (as `browse` runs `top` where there is no terminal).
  init(offline: Bool, dataDir: String?) throws {
    var arguments: [String] = []
    if offline { arguments.append("--offline") }
    if let dataDir { arguments += ["--data-dir", dataDir] }
    self = try StoreOptions.parse(arguments)
  }
}
