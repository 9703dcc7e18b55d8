import Foundation
import HackerNews
import NewsCLI
import XCTest

private let fixedNow = Date(timeIntervalSince1970: 1_573_520_000)

final class FeedPrinterTests: XCTestCase {
  let now = fixedNow

  func item(_ id: Int, _ title: String, score: Int = 10, by: String = "pg", hoursAgo: Int = 3, comments: Int = 4)
    -> Item
  {
    Item(
      id: id, kind: .story, by: by, time: Int(now.timeIntervalSince1970) - hoursAgo * 3600, title: title,
      url: "https://www.example.com/\(id)", score: score, descendants: comments)
  }

  func ranked(_ rank: Int, _ id: Int, _ result: Result<Item?, API.Error>) -> FeedEvent {
    .item(Ranked(rank: rank, id: id, result: result))
  }

  func test_rowsArePrintedInRankOrder_eachAsSoonAsEveryRowAboveIsIn() {
    let output = BufferOutput()
    let printer = FeedPrinter(
      output: output, options: OutputOptions(now: { fixedNow }), retries: 3, title: "top stories")
    printer.receive(.listed([1, 2, 3]))
    printer.receive(ranked(1, 2, .success(item(2, "Second"))))
    XCTAssertEqual(output.text, "")
    printer.receive(ranked(2, 3, .success(item(3, "Third", score: 1, comments: 0))))
    XCTAssertEqual(output.text, "")
    printer.receive(ranked(0, 1, .success(item(1, "First", comments: 1))))
    printer.finish()
    XCTAssertEqual(
      output.text,
      """
      1. First (example.com)
         10 points by pg 3 hours ago | 1 comment | id 1
      2. Second (example.com)
         10 points by pg 3 hours ago | 4 comments | id 2
      3. Third (example.com)
         1 point by pg 3 hours ago | discuss | id 3

      """)
    XCTAssertEqual(output.timedWrites.count, 1)
  }

  func test_failedAndMissingItems_takeTheirPlace() {
    let output = BufferOutput()
    let printer = FeedPrinter(
      output: output, options: OutputOptions(now: { fixedNow }), retries: 3, title: "top stories")
    printer.receive(.listed([1, 2, 3]))
    printer.receive(ranked(0, 1, .failure(.serverError(status: 500, url: URL(string: "http://x/v0/item/1.json")!))))
    printer.receive(ranked(1, 2, .success(nil)))
    printer.receive(ranked(2, 3, .failure(.invalidResponse)))
    XCTAssertEqual(
      output.text,
      """
      1. [item 1: the server answered HTTP 500, 4 attempts]
      2. [item 2 is not on the server]
      3. [item 3: the server's answer is not valid JSON for this request]

      """)
    XCTAssertEqual(printer.failed, 2)
    XCTAssertEqual(printer.missing, 1)
  }

  func test_progressLine_onlyOnATerminal_andClearedBeforeRows() {
    let output = BufferOutput()
    let options = OutputOptions(interactive: true, now: { fixedNow })
    let printer = FeedPrinter(output: output, options: options, retries: 3, title: "top stories")
    printer.start()
    printer.receive(.listed([1, 2]))
    printer.receive(ranked(1, 2, .success(item(2, "Second"))))
    printer.receive(ranked(0, 1, .success(item(1, "First"))))
    printer.finish()
    XCTAssertEqual(
      output.timedWrites.map(\.1),
      [
        "Loading top stories …",
        "\r\u{1B}[2KLoading top stories: 0 of 2 …",
        "\r\u{1B}[2KLoading top stories: 1 of 2, waiting for #1 …",
        "\r\u{1B}[2K",
        "1. First (example.com)\n   10 points by pg 3 hours ago | 4 comments | id 1\n2. Second (example.com)\n   10 points by pg 3 hours ago | 4 comments | id 2\n",
      ])
  }

  func test_deletedDeadAndJobRows() {
    let output = BufferOutput()
    let printer = FeedPrinter(
      output: output, options: OutputOptions(now: { fixedNow }), retries: 3, title: "top stories")
    printer.receive(.listed([1, 2, 3]))
    printer.receive(ranked(0, 1, .success(Item(id: 1, kind: .story, deleted: true))))
    printer.receive(
      ranked(
        1, 2,
        .success(Item(id: 2, kind: .story, by: "x", time: Int(now.timeIntervalSince1970) - 120, score: 1, dead: true))))
    printer.receive(
      ranked(
        2, 3,
        .success(
          Item(
            id: 3, kind: .job, time: Int(now.timeIntervalSince1970) - 7200, title: "Acme (YC W20) is hiring",
            url: "https://acme.test/jobs"))))
    XCTAssertEqual(
      output.text,
      """
      1. [deleted]
         0 points | discuss | id 1
      2. [dead]
         1 point by x 2 minutes ago | discuss | id 2
      3. Acme (YC W20) is hiring (acme.test)
         2 hours ago | id 3

      """)
  }

  func test_jsonLines_carryRank_andEscapeTerminalControls() throws {
    let output = BufferOutput()
    let printer = FeedPrinter(output: output, options: OutputOptions(json: true), retries: 3, title: "top stories")
    printer.receive(.listed([7, 8]))
    printer.receive(ranked(0, 7, .success(Item(id: 7, kind: .story, title: "a\u{9B}b\u{202E}c"))))
    printer.receive(ranked(1, 8, .failure(.timedOut(URL(string: "http://x/v0/item/8.json")!))))
    XCTAssertEqual(
      output.text,
      """
      {"id":7,"rank":1,"title":"a\\u009bb\\u202ec","type":"story"}
      {"error":"the server did not answer in time, 4 attempts","id":8,"rank":2}

      """)
    let first = try JSONDecoder().decode(Item.self, from: Data(output.text.split(separator: "\n")[0].utf8))
    XCTAssertEqual(first.title, "a\u{9B}b\u{202E}c")
  }

  func test_readStories_carryTheReadMark_andFilteredStories_leaveTheirRankEmpty() {
    let output = BufferOutput()
    let printer = FeedPrinter(
      output: output, options: OutputOptions(now: { fixedNow }), retries: 3, title: "top stories",
      readIDs: [3], keywords: ["CRYPTO"])
    printer.receive(.listed([1, 2, 3]))
    printer.receive(ranked(0, 1, .success(item(1, "First"))))
    printer.receive(ranked(1, 2, .success(item(2, "Crypto winter"))))
    printer.receive(ranked(2, 3, .success(item(3, "Third"))))
    XCTAssertEqual(
      output.text,
      """
      1. First (example.com)
         10 points by pg 3 hours ago | 4 comments | id 1
      3. Third (example.com)
         10 points by pg 3 hours ago | 4 comments | id 3 | read

      """)
    XCTAssertEqual(printer.hidden, 1)
    XCTAssertEqual(printer.printed, 2)
  }
}
