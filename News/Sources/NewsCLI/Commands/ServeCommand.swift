import ArgumentParser
import Dispatch
import Foundation
import NewsServer

#if canImport(Glibc)
  import Glibc
#endif

struct ServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve the Hacker News front page of 2019-11-12 over HTTP, like the API, for demos and tests.",
    discussion: """
      Answers /v0/{top,new,best,ask,show,job}stories.json, /v0/item/ID.json, /v0/user/NAME.json, \
      /v0/maxitem.json and /v0/updates.json on 127.0.0.1. Asked with Accept: text/event-stream, \
      a feed or an item is streamed as Firebase's server-sent events (put, patch, keep-alive; \
      resumed from Last-Event-ID), which with --live carry every move. Stop it with Ctrl-C.
      """)

  @Option(parsing: .unconditional, help: "The port; 0 picks a free one.") var port = 8080
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("The delay before each answer, in milliseconds: N or MIN-MAX.", valueName: "ms"))
  var latency = Latency(0, 0)
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("The share of requests (0 to 1) that fail with one of --fault.", valueName: "rate"))
  var failRate: Double = 0
  @Option(
    name: .customLong("fault"),
    help: ArgumentHelp(
      "A fault --fail-rate draws from; repeatable (default: 500, drop and malformed).", valueName: "fault"))
  var faults: [DemoServer.Fault] = []
  @Option(
    help: ArgumentHelp(
      "An item that always fails, as ID:FAULT (for example 8863:500); repeatable.", valueName: "id:fault"))
  var failItem: [String] = []
  @Flag(
    help:
      "Make the snapshot move: scores and comment counts drift, stories climb and fall, /v0/updates.json lists what changed."
  )
  var live = false
  @Option(parsing: .unconditional, help: ArgumentHelp("With --live: seconds between two moves.", valueName: "seconds"))
  var tick: Double = 2
  @Option(help: "The seed of the random draws (faults, latency, moves).") var seed: UInt64?
  @Flag(help: "Move every time so that the newest item is from now: ages read as on the day of the capture.")
  var rebaseTime = false
  @Option(
    help: ArgumentHelp(
      "Serve these snapshot folders instead of the bundled one (the layout of snapshot-2019-11-12, plus optional items.json and users.json); repeatable.",
      valueName: "folder"))
  var snapshot: [String] = []

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, not \(port).") }
    guard (0...1).contains(failRate) else {
      throw ValidationError("--fail-rate must be between 0 and 1, not \(failRate).")
    }
    guard tick > 0 else { throw ValidationError("--tick must be more than 0 seconds, not \(tick).") }
    try latency.validate()
    _ = try parsedFailingItems()
  }

  func parsedFailingItems() throws -> [Int: DemoServer.Fault] {
    var result: [Int: DemoServer.Fault] = [:]
    let names = DemoServer.Fault.allCases.map(\.rawValue).joined(separator: ", ")
    for entry in failItem {
      let parts = entry.split(separator: ":")
      guard parts.count == 2, let id = Int(parts[0]), let fault = DemoServer.Fault(rawValue: String(parts[1])) else {
        throw ValidationError("--fail-item takes ID:FAULT, for example 8863:500 (faults: \(names)), not '\(entry)'.")
      }
      result[id] = fault
    }
    return result
  }

  func run() throws {
    var configuration = DemoServer.Configuration()
    configuration.port = port
    configuration.latency = latency.range
    configuration.failRate = failRate
    if !faults.isEmpty { configuration.faults = faults }
    configuration.failingItems = try parsedFailingItems()
    configuration.live = live
    configuration.tick = tick
    configuration.seed = seed
    configuration.rebaseTime = rebaseTime
    let data: Snapshot
    do {
      data = snapshot.isEmpty ? try .bundled() : try Snapshot(folders: snapshot.map { URL(fileURLWithPath: $0) })
    } catch {
      throw fail("cannot read the snapshot: \(error)")
    }
    let server: DemoServer
    do {
      server = try DemoServer.start(snapshot: data, configuration: configuration)
    } catch {
      throw fail("\(error)")
    }
    let what =
      snapshot.isEmpty
      ? "the Hacker News front page of 2019-11-12" : "the snapshot in \(snapshot.joined(separator: ", "))"
    FileOutput.standardOutput.write("Serving \(what) (\(data.itemCount) items) at \(server.baseURL.absoluteString)\n")
    FileOutput.standardOutput.write("Try: news top --base-url \(server.baseURL.absoluteString)\n")

    // Ctrl-C or SIGTERM: stop the server and exit cleanly.
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let queue = DispatchQueue(label: "news.signals")
    let sources = [SIGINT, SIGTERM].map { DispatchSource.makeSignalSource(signal: $0, queue: queue) }
    for source in sources {
      source.setEventHandler { server.stop() }
      source.resume()
    }
    server.wait()
    withExtendedLifetime(sources) {}
  }
}
