import ArgumentParser
import Foundation
import XCTest

@testable import NewsCLI

/// A command that runs another (as `browse` runs `top` where there is no terminal) builds it
/// with every property set; these check that such a command reads its options without
/// trapping, and reads them as given.
final class CommandCompositionTests: XCTestCase {
  func test_feedCommand_builtFromOptions_readsThemAsGiven() throws {
    let store = try StoreOptions(offline: true, dataDir: "/tmp/news-composed")
    let top = Top(
      connection: try ConnectionOptions.parse(["--demo"]), store: store, display: try DisplayOptions.parse(["--json"]),
      limit: 7, tracing: try TraceOptions.parse(["--trace", "/tmp/news-composed/trace.json"]))
    XCTAssertTrue(top.store.offline)
    XCTAssertEqual(top.tracing.trace, "/tmp/news-composed/trace.json")
    XCTAssertFalse(top.tracing.traceTimeline)
    XCTAssertEqual(top.store.directory.path, "/tmp/news-composed")
    XCTAssertTrue(top.connection.demo)
    XCTAssertTrue(top.display.json)
    XCTAssertEqual(top.limit, 7)
    XCTAssertThrowsError(try top.validate(), "--offline with --demo")
  }

  func test_itemCommand_builtFromOptions_opensTheIdGiven() throws {
    let item = ItemCommand(
      id: 8863, connection: try ConnectionOptions.parse([]), store: try StoreOptions(offline: false, dataDir: nil),
      display: try DisplayOptions.parse([]), tracing: try TraceOptions.parse(["--trace-timeline"]))
    XCTAssertEqual(item.id, 8863)
    XCTAssertNil(item.tracing.trace)
    XCTAssertTrue(item.tracing.traceTimeline)
    XCTAssertNil(item.rank)
    XCTAssertFalse(item.store.offline)
    XCTAssertNoThrow(try item.validate())
  }

  /// The reader's session has no HTTP cache: with one, swift-corelibs-foundation can trap
  /// when a load is cancelled while the cache lookup is pending (going back from a story
  /// whose comments are loading), and the store already keeps what was loaded.
  func test_connect_makesASessionWithoutAnHTTPCache_withTheOptionsGiven() throws {
    let options = try ConnectionOptions.parse(["--concurrency", "3", "--timeout", "4"])
    let (api, server) = try options.connect()
    XCTAssertNil(server)
    let configuration = api.client.session.configuration
    XCTAssertNil(configuration.urlCache)
    XCTAssertEqual(configuration.httpMaximumConnectionsPerHost, 3)
    XCTAssertEqual(configuration.timeoutIntervalForRequest, 5)
  }
}
