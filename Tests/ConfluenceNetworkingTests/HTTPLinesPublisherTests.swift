import Confluence
import ConfluenceNetworking
import ConfluenceTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `HTTPLinesPublisher` against `LocalHTTPServer` on 127.0.0.1: lines split anywhere by the
/// network, the edge cases of a line's end, the limit, errors, demand and cancel.
final class HTTPLinesPublisherTests: XCTestCase {
  private var server: LocalHTTPServer!

  override func setUpWithError() throws {
    server = try LocalHTTPServer()
  }

  override func tearDown() {
    server.stop()
    server = nil
  }

  /// A route that writes `pieces` as separate chunks, with a short pause between them so
  /// that each arrives on its own.
  private func routePieces(_ path: String, _ pieces: [[UInt8]], status: Int = 200) {
    server.route(
      path,
      .stream(status: status, contentType: "text/plain") { writer in
        for piece in pieces {
          guard writer.write(Data(piece)), writer.pause(0.003) else { return }
        }
      })
  }

  private func lines(_ path: String, maximumLineLength: Int = 1 << 20) -> TestSubscriber<String, HTTPStreamError> {
    record(URLSession.shared.linesPublisher(for: server.url(path), maximumLineLength: maximumLineLength))
  }

  func test_linesSplitAtEveryByteBoundary_arriveWhole() {
    let text = Array("alpha\r\nbeta\ngrüße 日本\r\n\nlast".utf8)
    for split in 1..<text.count {
      routePieces("/split\(split)", [Array(text[..<split]), Array(text[split...])])
    }
    for split in 1..<text.count {
      let subscriber = lines("/split\(split)")
      XCTAssertEqual(subscriber.values, ["alpha", "beta", "grüße 日本", "", "last"], "split at \(split)")
      XCTAssertEqual(subscriber.completion, .finished)
    }
  }

  func test_CRLF_splitAcrossChunks_isOneLineEnd() {
    routePieces("/crlf", [Array("one\r".utf8), Array("\ntwo\r".utf8), Array("\n".utf8)])
    XCTAssertEqual(lines("/crlf").values, ["one", "two"])
  }

  func test_multiByteCharacter_splitAcrossChunks_isReassembled() {
    let euro = Array("€".utf8)  // three bytes
    routePieces("/utf8", [Array("price: 5".utf8) + [euro[0]], [euro[1]], [euro[2]] + Array("\n".utf8)])
    XCTAssertEqual(lines("/utf8").values, ["price: 5€"])
  }

  func test_finalLineWithoutNewline_isDeliveredBeforeFinished() {
    routePieces("/final", [Array("a\nb\nno newline".utf8)])
    let subscriber = lines("/final")
    XCTAssertEqual(subscriber.values, ["a", "b", "no newline"])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_lineBeyondTheLimit_failsWithLineTooLong_afterTheLinesBeforeIt() {
    routePieces("/long", [Array("short\n".utf8), Array(repeating: UInt8(ascii: "x"), count: 300), Array("\n".utf8)])
    let subscriber = lines("/long", maximumLineLength: 100)
    XCTAssertEqual(subscriber.values, ["short"])
    XCTAssertEqual(subscriber.completion, .failure(.lineTooLong(maximumLength: 100)))
  }

  func test_lineBeyondTheLimit_failsBeforeItsEndArrives_andClosesTheConnection() {
    server.route(
      "/endless",
      .stream(contentType: "text/plain") { writer in
        let block = Data(repeating: UInt8(ascii: "x"), count: 4096)
        for _ in 0..<1000 { guard writer.write(block) else { return } }
      })
    let subscriber = lines("/endless", maximumLineLength: 10_000)
    XCTAssertEqual(subscriber.completion, .failure(.lineTooLong(maximumLength: 10_000)))
    XCTAssertTrue(eventually(timeout: 5) { server.closedBeforeAnswer == ["/endless"] }, "the connection was closed")
  }

  func test_lineBeyondTheLimit_inTheChunkOfTheLinesBeforeIt_failsAfterThem() {
    // All in one chunk: the lines before the long one arrive before the failure; the line
    // after it never does.
    routePieces(
      "/long-inside",
      [Array("a\nb\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 300) + Array("\nc\n".utf8)])
    let subscriber = lines("/long-inside", maximumLineLength: 100)
    XCTAssertEqual(subscriber.values, ["a", "b"])
    XCTAssertEqual(subscriber.completion, .failure(.lineTooLong(maximumLength: 100)))
  }

  func test_cancelFromInsideReceive_stopsTheLinesOfTheSameChunk() {
    routePieces("/hundred", [Array((0..<100).map { "line \($0)\n" }.joined().utf8)])
    let subscriber = TestSubscriber<String, HTTPStreamError>()
    subscriber.onValue = { [unowned subscriber] line in
      if line == "line 2" { subscriber.cancel() }
      return .none
    }
    URLSession.shared.linesPublisher(for: server.url("/hundred")).subscribe(subscriber)
    XCTAssertTrue(eventually { subscriber.isCancelled })
    // The cancel came from inside the delivery: nothing may follow it.
    XCTAssertEqual(subscriber.values, ["line 0", "line 1", "line 2"])
    XCTAssertEqual(subscriber.violations, [])
  }

  func test_finiteDemand_withManyLinesInOneChunk_deliversExactlyTheDemand() {
    routePieces("/ten", [Array((0..<10).map { "\($0)\n" }.joined().utf8)])
    let subscriber = TestSubscriber<String, HTTPStreamError>(initialDemand: .max(3))
    URLSession.shared.linesPublisher(for: server.url("/ten")).subscribe(subscriber)
    XCTAssertTrue(eventually { subscriber.values.count == 3 })
    XCTAssertFalse(eventually(timeout: 0.2) { subscriber.values.count > 3 }, "no line beyond the demand")
    subscriber.request(.max(4))
    XCTAssertTrue(eventually { subscriber.values.count == 7 })
    subscriber.request(.unlimited)
    XCTAssertTrue(eventually { subscriber.completion != nil })
    XCTAssertEqual(subscriber.values, (0..<10).map { "\($0)" })
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(subscriber.violations, [])
  }

  func test_errorStatus_failsWithUnacceptableStatus() {
    server.route("/missing", .respond(status: 404, body: Data("not here\n".utf8), contentType: "text/plain"))
    let subscriber = lines("/missing")
    XCTAssertEqual(subscriber.values, [])
    XCTAssertEqual(subscriber.completion, .failure(.unacceptableStatus(404)))
  }

  func test_droppedConnection_deliversTheCompleteLines_thenFails() {
    server.route(
      "/drop",
      .stream(contentType: "text/plain") { writer in
        writer.write("complete\nhalf a li")
        writer.pause(0.02)
        writer.drop()
      })
    let subscriber = lines("/drop")
    XCTAssertEqual(subscriber.values, ["complete"], "the line the drop cut short is not delivered")
    XCTAssertEqual(subscriber.completion, .failure(.connectionFailed(URLError(.networkConnectionLost))))
  }

  func test_slowAndBurstyChunks_deliverEveryLineInOrder() {
    var pieces: [[UInt8]] = []
    var expected: [String] = []
    var pending: [UInt8] = []
    for index in 0..<300 {
      let line = "line \(index) " + String(repeating: "·", count: index % 17)
      expected.append(line)
      pending += Array((line + (index % 3 == 0 ? "\r\n" : "\n")).utf8)
      // Bursts of many lines, single bytes, and everything between.
      let cut = [1, 2, 7, 40, 300][index % 5]
      while pending.count >= cut {
        pieces.append(Array(pending[..<cut]))
        pending.removeFirst(cut)
      }
    }
    pieces.append(pending)
    let chunks = pieces
    server.route(
      "/bursty",
      .stream(contentType: "text/plain") { writer in
        for (index, piece) in chunks.enumerated() {
          guard writer.write(Data(piece)) else { return }
          if index % 50 == 0 { writer.pause(0.005) }
        }
      })
    let subscriber = lines("/bursty")
    XCTAssertEqual(subscriber.values, expected)
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_tenThousandLines_arriveWithoutLoss() {
    server.route(
      "/many",
      .stream(contentType: "application/x-ndjson") { writer in
        var batch = ""
        for index in 0..<10_000 {
          batch += "{\"n\":\(index)}\n"
          if index % 250 == 249 {
            guard writer.write(batch) else { return }
            batch = ""
          }
        }
      })
    let subscriber = lines("/many")
    XCTAssertEqual(subscriber.values, (0..<10_000).map { "{\"n\":\($0)}" })
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_demandOfOne_readsOnlyWhatIsAskedFor_theServerBlocks_thenEverythingArrives() {
    let blockedAfter = Shared<Int?>(nil)
    let line = String(repeating: "y", count: 1023) + "\n"
    let lineCount = Shared(0)
    server.route(
      "/firehose",
      .stream(contentType: "text/plain") { writer in
        let block = Data(String(repeating: line, count: 16).utf8)
        while writer.bytesWritten < 64 << 20 {
          if writer.write(block, within: 0.5) == .blocked { break }
        }
        blockedAfter.value = writer.bytesWritten
        lineCount.value = writer.bytesWritten / line.utf8.count
      })
    let subscriber = TestSubscriber<String, HTTPStreamError>(initialDemand: .max(1))
    let done = expectation(description: "completion")
    subscriber.onCompletion = { _ in done.fulfill() }
    URLSession.shared.linesPublisher(for: server.url("/firehose")).subscribe(subscriber)
    XCTAssertTrue(eventually { blockedAfter.value != nil })
    XCTAssertEqual(subscriber.values.count, 1)
    let written = blockedAfter.value ?? .max
    XCTAssertLessThan(written, 768 * 1024, "the lines publisher read ahead of demand")
    subscriber.request(.unlimited)
    wait(for: [done], timeout: 20)
    XCTAssertEqual(subscriber.values.count, lineCount.value)
    XCTAssertTrue(subscriber.values.allSatisfy { $0.utf8.count == 1023 })
    print("HTTPLinesPublisher, demand of 1 line: the server blocked after \(written) bytes")
  }

  func test_cancelDuringARead_closesTheConnection() {
    server.route(
      "/open",
      .stream(contentType: "text/plain") { writer in
        writer.write("first\n")
        _ = writer.waitForClientToClose(timeout: 10)
      })
    let subscriber = TestSubscriber<String, HTTPStreamError>(strictCancellation: false)
    URLSession.shared.linesPublisher(for: server.url("/open")).subscribe(subscriber)
    XCTAssertTrue(eventually { subscriber.values == ["first"] })
    subscriber.cancel()
    XCTAssertTrue(eventually(timeout: 3) { server.closedBeforeAnswer == ["/open"] })
    XCTAssertNil(subscriber.completion)
    XCTAssertEqual(subscriber.subscriptionDescription, "HTTPLinesPublisher")
  }

  func test_requestsFromInsideReceive_areHonoured_oneLineAtATime() {
    routePieces("/three", [Array("1\n2\n3\n".utf8)])
    let subscriber = TestSubscriber<String, HTTPStreamError>(initialDemand: .max(1), demandPerValue: .max(1))
    let done = expectation(description: "completion")
    subscriber.onCompletion = { _ in done.fulfill() }
    URLSession.shared.linesPublisher(for: server.url("/three")).subscribe(subscriber)
    wait(for: [done], timeout: 10)
    XCTAssertEqual(subscriber.values, ["1", "2", "3"])
    XCTAssertEqual(subscriber.violations, [])
  }
}
