import Combine
import ConfluenceTesting
import Foundation
import XCTest

/// Runs the chapter's calls (NewsChapterAcceptanceTests.swift) against a local server
/// serving the real item 1000 (`Fixtures/item-1000.json`) and items 1001 and 1002 with the
/// fields the chapter prints for them.
/// The chapter's calls print; here their lines go to the console the tests compare.
private func print(_ item: Any) { chapterPrint(item) }

final class NewsChapterAcceptanceRun: XCTestCase {
  private var server: LocalHTTPServer!

  override func setUpWithError() throws {
    server = try LocalHTTPServer()
    API.EndPoint.baseURL = server.baseURL.appendingPathComponent("v0")
    let item1000 = try Data(
      contentsOf: XCTUnwrap(Bundle.module.url(forResource: "Fixtures/item-1000", withExtension: "json")))
    // Staggered answers, so the merged stories arrive in the order the chapter shows.
    server.route("/v0/item/1000.json", .respond(status: 200, body: item1000))
    server.route(
      "/v0/item/1001.json",
      .respond(
        status: 200,
        body: Self.item(
          1001, "Wireless: India's Hot, China's Not", 1172394900, "http://www.redherring.com/Article.aspx?a=21355"),
        delay: 0.15))
    server.route(
      "/v0/item/1002.json",
      .respond(
        status: 200,
        body: Self.item(
          1002, "The Battle for Mobile Search", 1172395000,
          "http://www.businessweek.com/technology/content/feb2007/tc20070220_828216.htm?campaign_id=rss_daily"),
        delay: 0.3))
    consoleReset()
  }

  override func tearDown() {
    server.stop()
    // XCTest keeps every test case object to the end of the process: let go of the server
    // (and its routes) here, or they stay allocated too.
    server = nil
  }

  private static func item(_ id: Int, _ title: String, _ time: Int, _ url: String) -> Data {
    let object: [String: Any] = [
      "by": "python_kiss", "descendants": 0, "id": id, "score": 1, "time": time, "title": title, "type": "story",
      "url": url,
    ]
    return try! JSONSerialization.data(withJSONObject: object)
  }

  /// Runs `body` (which subscribes and stores its cancellable) until "finished" or a failure
  /// is printed.
  private func runChapterCall(_ body: (inout [AnyCancellable]) -> Void) -> String {
    var subscriptions = [AnyCancellable]()
    body(&subscriptions)
    let deadline = Date(timeIntervalSinceNow: 10)
    while !consoleLines().contains(where: { $0 == "finished" || $0.hasPrefix("failure") }) && Date() < deadline {
      usleep(10_000)
    }
    subscriptions.removeAll()
    return consoleLines().joined(separator: "\n") + "\n"
  }

  func test_storyID1000_printsTheChaptersOutput() {
    let output = runChapterCall { subscriptions in
      let api = API()
      api.story(id: 1000)
        .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
        .store(in: &subscriptions)
    }
    XCTAssertEqual(
      output,
      """
      How Important is the .com TLD?
      by python_kiss

      http://www.netbusinessblog.com/2007/02/19/how-important-is-the-dot-com/
      -----

      finished

      """)
  }

  func test_storyMinus5_printsOnlyFinished() {
    server.route("/v0/item/-5.json", .respond(status: 200, body: Data("null".utf8)))
    let output = runChapterCall { subscriptions in
      API().story(id: -5)
        .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
        .store(in: &subscriptions)
    }
    XCTAssertEqual(output, "finished\n")
  }

  func test_mergedStories_printsTheChaptersThreeSummaries() {
    let output = runChapterCall { subscriptions in
      API().mergedStories(ids: [1000, 1001, 1002])
        .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
        .store(in: &subscriptions)
    }
    XCTAssertEqual(
      output,
      """
      How Important is the .com TLD?
      by python_kiss

      http://www.netbusinessblog.com/2007/02/19/how-important-is-the-dot-com/
      -----

      Wireless: India's Hot, China's Not
      by python_kiss

      http://www.redherring.com/Article.aspx?a=21355
      -----

      The Battle for Mobile Search
      by python_kiss

      http://www.businessweek.com/technology/content/feb2007/tc20070220_828216.htm?campaign_id=rss_daily
      -----

      finished

      """)
  }

  func test_stories_printsAGrowingSortedList_thenFinished() throws {
    server.route("/v0/newstories.json", .respond(status: 200, body: Data("[1000, 1001, 1002]".utf8)))
    var lists: [[Int]] = []
    let output = runChapterCall { subscriptions in
      API().stories()
        .sink(
          receiveCompletion: { print($0) },
          receiveValue: { stories in
            lists.append(stories.map(\.id))
            print(stories)
          }
        )
        .store(in: &subscriptions)
    }
    // One story, then two, then three, newest first (Story's `<` sorts by time, descending).
    XCTAssertEqual(lists, [[1000], [1001, 1000], [1002, 1001, 1000]])
    XCTAssertTrue(output.hasSuffix("finished\n"), output)
  }

  func test_stories_unreachableServer_failsWithAddressUnreachable() {
    server.stop()
    let output = runChapterCall { subscriptions in
      API().stories()
        .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
        .store(in: &subscriptions)
    }
    XCTAssertTrue(output.hasPrefix("failure(CombineCompatibilityTests.API.Error.addressUnreachable("), output)
  }
}
