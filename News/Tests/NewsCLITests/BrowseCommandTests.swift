import Foundation
import NewsServer
import XCTest

/// `news` with no subcommand where there is no terminal: the list, as `news top` prints it.
final class BrowseCommandTests: XCTestCase {
  var server: DemoServer?

  override func tearDown() {
    server?.stop()
    server = nil
  }

  func serve() throws -> String {
    let now = Int(Date().timeIntervalSince1970)
    let snapshot = try makeSnapshot(
      feeds: [
        "top": [
          [
            "id": 101, "type": "story", "by": "alice", "time": now - 3 * 3600, "title": "Combine on Linux",
            "url": "https://www.example.org/combine", "score": 120, "descendants": 1, "kids": [201],
          ],
          ["id": 102, "type": "story", "by": "bob", "time": now - 25 * 3600, "title": "Ask HN: Combine?", "score": 1],
        ]
      ],
      items: [["id": 201, "type": "comment", "by": "carol", "parent": 101, "time": now - 3600, "text": "Works well."]])
    let started = try DemoServer.start(snapshot: snapshot)
    server = started
    return started.baseURL.absoluteString
  }

  func test_news_onAPipe_printsTheTopStories_asNewsTopDoes() throws {
    let base = try serve()
    let browse = try news(["--base-url", base])
    let top = try news(["top", "--base-url", base])
    XCTAssertEqual(browse.status, 0, browse.stderr)
    XCTAssertEqual(top.status, 0, top.stderr)
    XCTAssertEqual(browse.stdout, top.stdout)
    XCTAssertTrue(browse.stdout.hasPrefix("1. Combine on Linux (example.org)\n"), browse.stdout)
    XCTAssertEqual(browse.stderr, "")
  }

  func test_newsItem_onAPipe_printsTheThread_asNewsItemDoes() throws {
    let base = try serve()
    let browse = try news(["browse", "--base-url", base, "--item", "101"])
    let item = try news(["item", "101", "--base-url", base])
    XCTAssertEqual(browse.status, 0, browse.stderr)
    XCTAssertEqual(browse.stdout, item.stdout)
    XCTAssertTrue(browse.stdout.contains("Works well."), browse.stdout)
  }

  func test_refresh_belowOneSecond_isRejectedWithTheBrowseUsage() throws {
    let run = try news(["browse", "--refresh", "0.5"])
    XCTAssertEqual(run.status, 64)
    XCTAssertTrue(run.stderr.contains("--refresh must be 0 (never) or at least 1 second."), run.stderr)
    XCTAssertTrue(run.stderr.contains("Usage: news browse"), run.stderr)
  }

  func test_newsOffline_onAPipe_printsTheKeptStories_asNewsTopOfflineDoes() throws {
    let base = try serve()
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("news-browse-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: data) }
    let online = try news(["top", "--base-url", base, "--data-dir", data.path])
    XCTAssertEqual(online.status, 0, online.stderr)
    server?.stop()
    server = nil

    let browse = try news(["--offline", "--data-dir", data.path])
    let top = try news(["top", "--offline", "--data-dir", data.path])
    XCTAssertEqual(browse.status, 0, browse.stderr)
    XCTAssertEqual(browse.stdout, top.stdout)
    XCTAssertEqual(browse.stdout, online.stdout, "the kept list is the list printed")
  }

  func test_offlineWithDemo_isRejectedWithTheBrowseUsage() throws {
    let run = try news(["browse", "--offline", "--demo"])
    XCTAssertEqual(run.status, 64)
    XCTAssertTrue(run.stderr.contains("--offline and --demo cannot be used together."), run.stderr)
    XCTAssertTrue(run.stderr.contains("Usage: news browse"), run.stderr)
  }
}
