import ArgumentParser
import Foundation
import HackerNews
import NewsServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How the reader reaches the API: the live one, another base URL, or the offline demo.
///
/// The options every reading command shares are this group, ``StoreOptions``,
/// ``DisplayOptions`` and ``TraceOptions``; a new shared option goes in one of them.
struct ConnectionOptions: ParsableArguments {
  @Flag(
    help:
      "Read from the bundled Hacker News front page of 2019-11-12, served over HTTP from inside this process (no network needed)."
  )
  var demo = false

  @Option(help: ArgumentHelp("The API's base URL.", valueName: "url"))
  var baseURL: String = API.EndPoint.baseURL.absoluteString

  @Option(parsing: .unconditional, help: ArgumentHelp("The most requests in flight at once.", valueName: "n"))
  var concurrency: Int = 8

  @Option(parsing: .unconditional, help: ArgumentHelp("Seconds before a request times out.", valueName: "seconds"))
  var timeout: Double = 10

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Retries of a request that failed with a 5xx, a time-out or a dropped connection.", valueName: "n"))
  var retries: Int = 3

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "With --demo: the server's delay before each answer, in milliseconds: N or MIN-MAX.", valueName: "ms"))
  var latency = Latency(10, 80)

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "With --demo: the share of requests (0 to 1) the server fails with a 500, a dropped connection or malformed JSON.",
      valueName: "rate"))
  var failRate: Double = 0

  @Flag(
    help:
      "With --demo: inject faults: the server fails a share of requests (as --fail-rate 0.2 unless given) and drops event streams now and then."
  )
  var faults = false

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "With --demo, where the front page moves (the reader, watch): seconds between two moves.", valueName: "seconds"))
  var tick: Double = 2

  @Option(help: ArgumentHelp("With --demo: the seed of the server's random draws (moves, new stories, faults)."))
  var seed: UInt64?

  func validate() throws {
    guard tick > 0 else { throw ValidationError("--tick must be more than 0 seconds, not \(tick).") }
    guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1, not \(concurrency).") }
    guard timeout > 0 else { throw ValidationError("--timeout must be more than 0 seconds, not \(timeout).") }
    guard retries >= 0 else { throw ValidationError("--retries must be 0 or more, not \(retries).") }
    guard (0...1).contains(failRate) else {
      throw ValidationError("--fail-rate must be between 0 and 1, not \(failRate).")
    }
    try latency.validate()
    guard let url = URL(string: baseURL), url.scheme == "http" || url.scheme == "https", url.host != nil else {
      throw ValidationError("--base-url must be an http or https URL, such as \(API.EndPoint.baseURL.absoluteString)")
    }
  }

  var retryPolicy: RetryPolicy { RetryPolicy(retries: retries, timeout: timeout) }

  /// A hint after an error that means the server cannot be reached at all; `kept` says what
  /// `--offline` would show instead, when the command has it and something was kept.
  func hint(for error: API.Error, kept: String? = nil) -> String {
    guard case .addressUnreachable = error, !demo else { return "" }
    if let kept { return "; \(kept), or add --demo to read the offline front page" }
    return "; add --demo to read the offline front page"
  }

  /// The API to read from, and the demo server when `--demo` started one; `live` makes
  /// the demo's front page move (and stream its moves).
  func connect(live: Bool = false) throws -> (API, DemoServer?) {
    var server: DemoServer?
    var base = URL(string: baseURL)!
    if demo {
      var configuration = DemoServer.Configuration()
      configuration.latency = latency.range
      configuration.failRate = faults && failRate == 0 ? 0.2 : failRate
      configuration.rebaseTime = true
      configuration.live = live
      configuration.tick = tick
      configuration.seed = seed
      let started: DemoServer
      do {
        started = try DemoServer.start(configuration: configuration)
      } catch {
        throw fail("cannot start the demo server: \(error)")
      }
      server = started
      base = started.baseURL
    }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = concurrency
    configuration.timeoutIntervalForRequest = (timeout + 1).rounded(.up)
    // No HTTP cache (the store keeps what was loaded), and none is safer: with a `URLCache`,
    // swift-corelibs-foundation can trap when a load is cancelled while the cache lookup is
    // pending, as going back from a story with comments loading does.
    configuration.urlCache = nil
    let session = URLSession(configuration: configuration)
    return (API(baseURL: base, session: session, retryPolicy: retryPolicy), server)
  }
}

/// How the reader prints.
struct DisplayOptions: ParsableArguments {
  @Flag(help: "Write one JSON object per line instead of text.")
  var json = false
}

/// Prints `message` on standard error as `news: message` and exits with status 1.
func fail(_ message: String) -> ExitCode {
  FileOutput.standardError.write("news: \(message)\n")
  return ExitCode(1)
}

/// Prints `message` on standard error as `news: warning: message`. On a terminal, the line
/// the cursor stands on is cleared first: a feed's progress line ("Loading top stories …",
/// which `FeedPrinter` redraws below the rows as it goes) may stand there, and the warning
/// would run on from it.
func warn(_ message: String) {
  let clearLine = Terminal.isTerminal(STDERR_FILENO) ? "\r\u{1B}[2K" : ""
  FileOutput.standardError.write(clearLine + "news: warning: \(message)\n")
}
