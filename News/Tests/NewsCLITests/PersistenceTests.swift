import Foundation
import NewsServer
import XCTest

/// The database through the binary: what a run loads is there for the next, offline, with
/// the server gone; filters hide stories; a damaged database does not stop a command.
final class PersistenceTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("news-data-\(UUID().uuidString)")
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  private func run(_ arguments: [String]) throws -> Run {
    try news(arguments + ["--data-dir", folder.path])
  }

  func test_run_read_quit_thenOffline_withTheServerStopped_showsTheStoriesAndTheReadMarks() throws {
    var configuration = DemoServer.Configuration()
    configuration.rebaseTime = true
    let server = try DemoServer.start(configuration: configuration)
    let base = server.baseURL.absoluteString

    let online = try run(["top", "--base-url", base, "--limit", "5"])
    XCTAssertEqual(online.status, 0, online.stderr)
    XCTAssertEqual(online.stderr, "")
    // Open the second story of that list, by rank, and its thread.
    let second = try run(["item", "--rank", "2", "--base-url", base])
    XCTAssertEqual(second.status, 0, second.stderr)
    let opened = try run(["item", "8863", "--base-url", base])
    XCTAssertEqual(opened.status, 0, opened.stderr)
    server.stop()

    // The server is gone: only the database can answer now.
    let unreachable = try run(["top", "--base-url", base, "--limit", "5", "--retries", "0"])
    XCTAssertEqual(unreachable.status, 1)
    // "… kept just now" (or "1 minute ago" on a slow machine).
    XCTAssertNotNil(
      unreachable.stderr.range(
        of:
          "; `news top --offline` shows the top stories kept [a-z0-9 ]+, or add --demo to read the offline front page\n$",
        options: .regularExpression), unreachable.stderr)
    let unreachableItem = try run(["item", "8863", "--base-url", base, "--retries", "0"])
    XCTAssertTrue(
      unreachableItem.stderr.hasSuffix(
        "; `news item 8863 --offline` shows it as kept, or add --demo to read the offline front page\n"),
      unreachableItem.stderr)

    let offline = try run(["top", "--offline", "--limit", "5"])
    XCTAssertEqual(offline.status, 0, offline.stderr)
    XCTAssertEqual(offline.stderr, "")
    let onlineLines = online.stdout.split(separator: "\n")
    let offlineLines = offline.stdout.split(separator: "\n")
    XCTAssertEqual(offlineLines.count, 10, offline.stdout)
    // The same titles, in the same ranks; only the second is marked read.
    XCTAssertEqual(
      offlineLines.enumerated().filter { $0.offset % 2 == 0 }.map(\.element),
      onlineLines.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
    XCTAssertEqual(
      offlineLines.enumerated().filter { $0.element.hasSuffix(" | read") }.map(\.offset), [3], offline.stdout)
    XCTAssertEqual(String(offlineLines[3]).replacingOccurrences(of: " | read", with: ""), String(onlineLines[3]))

    // The rank opened the second row's story: the same header, offline.
    let secondOffline = try run(["item", "--rank", "2", "--offline"])
    XCTAssertEqual(secondOffline.status, 0, secondOffline.stderr)
    XCTAssertEqual(secondOffline.stdout.split(separator: "\n").first, second.stdout.split(separator: "\n").first)

    // The thread read online is there offline, with its four comments.
    let thread = try run(["item", "8863", "--offline"])
    XCTAssertEqual(thread.status, 0, thread.stderr)
    for author in ["nickb", "BrandonM", "brett", "markovich"] {
      XCTAssertTrue(thread.stdout.contains("\n  \(author) "), "\(author): \(thread.stdout)")
    }
    XCTAssertTrue(thread.stdout.contains("4 of the 71 comments shown"), thread.stdout)

    let never = try run(["new", "--offline"])
    XCTAssertEqual(never.status, 1)
    XCTAssertEqual(never.stderr, "news: no new stories were kept; read them once without --offline first.\n")
  }

  func test_ctrlC_midway_losesNothingThatWasPrinted() throws {
    // Items are kept before they are printed, each in its own transaction: whatever a
    // stopped run showed, the next run finds.
    let process = try NewsProcess(
      ["top", "--demo", "--limit", "200", "--latency", "40-120", "--concurrency", "2", "--data-dir", folder.path])
    XCTAssertTrue(process.waitForOutput(containing: "\n 10. "), process.stdoutSoFar)
    process.interrupt()
    let stopped = process.finish(timeout: 10)
    XCTAssertNotEqual(stopped.status, 0, "stopped by SIGINT before the end")
    let printed = stopped.stdout.split(separator: "\n").filter { $0.contains(". ") && !$0.hasPrefix("    ") }
    XCTAssertGreaterThanOrEqual(printed.count, 10)
    XCTAssertLessThan(printed.count, 200, "the run was meant to be stopped midway")

    let offline = try run(["top", "--offline", "--limit", "200"])
    XCTAssertEqual(offline.status, 0, offline.stderr)
    let offlineLines = Set(offline.stdout.split(separator: "\n"))
    for line in printed { XCTAssertTrue(offlineLines.contains(line), "lost: \(line)") }
    XCTAssertTrue(offline.stdout.contains(" was not kept]"), "the stories never loaded show as not kept")
  }

  func test_filters_hideStories_untilRemoved() throws {
    XCTAssertEqual(try run(["filter", "list"]).stdout, "")
    let added = try run(["filter", "add", "MEMORY"])
    XCTAssertEqual(added.status, 0, added.stderr)
    XCTAssertEqual(added.stdout, "Hiding stories with “MEMORY” in their title.\n")
    XCTAssertEqual(try run(["filter", "add", "memory"]).stdout, "“memory” is already a filter.\n")
    XCTAssertEqual(try run(["filter", "list"]).stdout, "MEMORY\n")

    // The first story of the demo's front page is "When your data doesn’t fit in memory: …".
    let filtered = try run(["top", "--demo", "--latency", "0", "--limit", "3"])
    XCTAssertEqual(filtered.status, 0, filtered.stderr)
    let titles = filtered.stdout.split(separator: "\n").enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    XCTAssertEqual(titles.count, 2, filtered.stdout)
    XCTAssertTrue(titles[0].hasPrefix("2. "), filtered.stdout)
    XCTAssertFalse(filtered.stdout.lowercased().contains("memory"), filtered.stdout)

    XCTAssertEqual(try run(["filter", "remove", "Memory"]).stdout, "Showing stories with “Memory” again.\n")
    let gone = try run(["filter", "remove", "memory"])
    XCTAssertEqual(gone.status, 1)
    XCTAssertEqual(gone.stderr, "news: “memory” is not a filter (news filter list).\n")
    let unfiltered = try run(["top", "--demo", "--latency", "0", "--limit", "3"])
    XCTAssertTrue(unfiltered.stdout.hasPrefix("1. When your data doesn’t fit in memory"), unfiltered.stdout)
  }

  func test_damagedDatabase_isAClearWarning_andTheCommandStillRuns() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("news.sqlite")
    try Data("this is not a database, just garbage bytes ".utf8 + Array(repeating: 0xFF, count: 2048)).write(to: file)
    let warning =
      "news: warning: the database \(file.path) is damaged or not a database; move it away or delete it to start afresh; going on without it\n"

    let top = try run(["top", "--demo", "--latency", "0", "--limit", "2"])
    XCTAssertEqual(top.status, 0, top.stderr)
    XCTAssertEqual(top.stderr, warning)
    XCTAssertEqual(top.stdout.split(separator: "\n").count, 4, top.stdout)

    let item = try run(["item", "8863", "--demo", "--latency", "0"])
    XCTAssertEqual(item.status, 0, item.stderr)
    XCTAssertEqual(item.stderr, warning)

    let offline = try run(["top", "--offline"])
    XCTAssertEqual(offline.status, 1)
    XCTAssertEqual(offline.stderr, warning + "news: nothing to read offline without the database.\n")

    let filters = try run(["filter", "list"])
    XCTAssertEqual(filters.status, 1)
    XCTAssertEqual(
      filters.stderr,
      "news: the database \(file.path) is damaged or not a database; move it away or delete it to start afresh\n")
  }

  func test_lockedDatabase_isOneWarning_andTheCommandStillRuns() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else {
      throw XCTSkip("needs the sqlite3 shell")
    }
    let first = try run(["top", "--demo", "--latency", "0", "--limit", "2"])
    XCTAssertEqual(first.status, 0, first.stderr)
    let file = folder.appendingPathComponent("news.sqlite").path
    // Another process takes the write lock and keeps it until its standard input closes. It waits
    // up to ten seconds for the lock (`.timeout`) rather than failing at once if a write of the run
    // above is still finishing, and `-bail` makes it exit at an error, which closes its output.
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    holder.arguments = ["-bail", file]
    let input = Pipe()
    let output = Pipe()
    holder.standardInput = input
    holder.standardOutput = output
    try holder.run()
    defer {
      try? input.fileHandleForWriting.close()
      holder.waitUntilExit()
    }
    input.fileHandleForWriting.write(
      Data(
        ".timeout 10000\nBEGIN EXCLUSIVE;\nINSERT INTO filter (keyword, addedAt) VALUES ('held', 0);\nSELECT 'locked';\n"
          .utf8))
    var printed = Data()
    while !String(decoding: printed, as: UTF8.self).contains("locked") {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      printed.append(chunk)
    }
    XCTAssertEqual(String(decoding: printed, as: UTF8.self), "locked\n", "the sqlite3 shell did not take the lock")
    let probe = try run(["filter", "add", "probe"])
    XCTAssertEqual(probe.status, 1, probe.stderr)
    XCTAssertTrue(probe.stderr.contains("is locked by another process"), probe.stderr)

    let run = try run(["top", "--demo", "--latency", "0", "--limit", "30"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(run.stdout.split(separator: "\n").count, 60)
    XCTAssertEqual(
      run.stderr, "news: warning: the database \(file) is locked by another process; what this run loads is not kept\n")
  }

  func test_database_isInXDG_DATA_HOME_byDefault() throws {
    let run = try news(
      ["top", "--demo", "--latency", "0", "--limit", "1"], environment: ["XDG_DATA_HOME": folder.path])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("news/news.sqlite").path))
  }
}
