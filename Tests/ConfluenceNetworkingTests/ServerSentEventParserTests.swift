import ConfluenceNetworking
import Foundation
import XCTest

/// `ServerSentEventParser` against the `EventSource` standard's rules for interpreting an
/// event stream, each stream fed whole, byte by byte, and split at every boundary.
final class ServerSentEventParserTests: XCTestCase {
  /// Parses `stream` in one piece, byte by byte and split in two at every position, and
  /// checks that all of them give the same outputs; returns them.
  private func parseEveryWay(
    _ stream: [UInt8], lastEventID: String = "", file: StaticString = #filePath, line: UInt = #line
  ) throws -> [ServerSentEventParser.Output] {
    var whole = ServerSentEventParser(lastEventID: lastEventID)
    let expected = try whole.parse(Data(stream))
    var byByte = ServerSentEventParser(lastEventID: lastEventID)
    var outputs: [ServerSentEventParser.Output] = []
    for byte in stream { outputs += try byByte.parse(Data([byte])) }
    XCTAssertEqual(outputs, expected, "byte by byte", file: file, line: line)
    for split in 0...stream.count {
      var parser = ServerSentEventParser(lastEventID: lastEventID)
      let parts = try parser.parse(Data(stream[..<split])) + parser.parse(Data(stream[split...]))
      XCTAssertEqual(parts, expected, "split at \(split)", file: file, line: line)
    }
    return expected
  }

  private func parseEveryWay(
    _ text: String, lastEventID: String = "", file: StaticString = #filePath, line: UInt = #line
  ) throws -> [ServerSentEventParser.Output] {
    try parseEveryWay(Array(text.utf8), lastEventID: lastEventID, file: file, line: line)
  }

  private func event(_ data: String, type: String = "message", id: String = "") -> ServerSentEventParser.Output {
    .event(ServerSentEvent(type: type, data: data, id: id))
  }

  func test_data_isDispatchedAtTheBlankLine_withTypeMessage() throws {
    XCTAssertEqual(try parseEveryWay("data: hello\n\n"), [event("hello")])
  }

  func test_multilineData_isJoinedWithNewlines_lastNewlineRemoved() throws {
    XCTAssertEqual(try parseEveryWay("data: one\ndata: two\ndata:\ndata: three\n\n"), [event("one\ntwo\n\nthree")])
  }

  func test_eventWithoutBlankLine_atEndOfStream_isDiscarded() throws {
    var parser = ServerSentEventParser()
    XCTAssertEqual(try parser.parse(Data("data: complete\n\ndata: cut short\n".utf8)), [event("complete")])
    parser.endOfStream()
    XCTAssertEqual(
      try parser.parse(Data("\n".utf8)), [], "the unfinished event is gone, not dispatched by a later blank line")
    XCTAssertEqual(try parser.parse(Data("data: next\n\n".utf8)), [event("next")])
  }

  func test_eventField_setsTheType_andResetsAfterDispatch() throws {
    XCTAssertEqual(
      try parseEveryWay("event: put\ndata: {}\n\ndata: plain\n\nevent:\ndata: empty type\n\n"),
      [event("{}", type: "put"), event("plain"), event("empty type")])
  }

  func test_id_persistsAcrossEvents_untilChanged_andAnEmptyIDClearsIt() throws {
    XCTAssertEqual(
      try parseEveryWay("id: 7\ndata: a\n\ndata: b\n\nid: 8\ndata: c\n\nid\ndata: d\n\n"),
      [event("a", id: "7"), event("b", id: "7"), event("c", id: "8"), event("d", id: "")])
  }

  func test_idContainingNUL_isIgnored() throws {
    XCTAssertEqual(
      try parseEveryWay(Array("id: 1\ndata: a\n\nid: 2".utf8) + [0] + Array("x\ndata: b\n\n".utf8)),
      [event("a", id: "1"), event("b", id: "1")])
  }

  func test_idOfAnEventWithoutData_stillBecomesTheLastEventID() throws {
    var parser = ServerSentEventParser()
    XCTAssertEqual(try parser.parse(Data("id: 41\n\n".utf8)), [])
    XCTAssertEqual(parser.lastEventID, "41")
    XCTAssertEqual(try parser.parse(Data("data: x\n\n".utf8)), [event("x", id: "41")])
  }

  func test_idOfAnUnfinishedEvent_isNotTheLastEventID() throws {
    var parser = ServerSentEventParser()
    _ = try parser.parse(Data("id: 1\ndata: a\n\nid: 2\ndata: half".utf8))
    parser.endOfStream()
    XCTAssertEqual(parser.lastEventID, "1", "a reconnection resumes after the last dispatched event")
  }

  func test_retry_withDigitsOnly_isReported_otherwiseIgnored() throws {
    XCTAssertEqual(
      try parseEveryWay("retry: 2500\nretry: 1s\nretry: -1\nretry:\nretry: 12 \nretry: 300\ndata: x\n\n"),
      [.retry(2500), .retry(300), event("x")])
  }

  func test_retryBeyondInt_isTheLargestInt() throws {
    XCTAssertEqual(try parseEveryWay("retry: 99999999999999999999999\n"), [.retry(Int.max)])
  }

  func test_comments_andUnknownFields_areIgnored() throws {
    XCTAssertEqual(
      try parseEveryWay(": keep-alive\n\n:\nfoo: bar\ndata: x\n: inside an event\n\n"),
      [event("x")])
  }

  func test_onlyOneLeadingSpace_isRemovedFromTheValue() throws {
    XCTAssertEqual(try parseEveryWay("data:  two spaces\ndata:none\n\n"), [event(" two spaces\nnone")])
  }

  func test_lineWithoutColon_isAFieldWithAnEmptyValue() throws {
    XCTAssertEqual(try parseEveryWay("data\ndata\n\n"), [event("\n")])
  }

  func test_fieldNameWithASpace_isNotData() throws {
    XCTAssertEqual(try parseEveryWay("data : not data\n\ndata:yes\n\n"), [event("yes")])
  }

  func test_lineEndings_CR_LF_CRLF_areAllOne() throws {
    XCTAssertEqual(
      try parseEveryWay("data: cr\r\rdata: lf\n\ndata: crlf\r\n\r\ndata: mixed\r\ndata: more\r\r"),
      [event("cr"), event("lf"), event("crlf"), event("mixed\nmore")])
  }

  func test_CRLF_splitAcrossChunks_isOneLineEnd() throws {
    var parser = ServerSentEventParser()
    XCTAssertEqual(try parser.parse(Data("data: a\r".utf8)), [])
    XCTAssertEqual(try parser.parse(Data("\n".utf8)), [], "the LF completes the CR; it is not a blank line")
    XCTAssertEqual(try parser.parse(Data("\r".utf8)), [event("a")])
    XCTAssertEqual(try parser.parse(Data("\n".utf8)), [])
  }

  func test_byteOrderMark_atStreamStart_isSkipped_onlyThere() throws {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    XCTAssertEqual(try parseEveryWay(bom + Array("data: a\n\n".utf8)), [event("a")])
    // A second mark is not at the start: it is part of the field name, which is then unknown.
    XCTAssertEqual(try parseEveryWay(bom + bom + Array("data: a\n\ndata: b\n\n".utf8)), [event("b")])
    // Each new stream may start with one.
    var parser = ServerSentEventParser()
    XCTAssertEqual(try parser.parse(Data(bom + Array("data: a\n\n".utf8))), [event("a")])
    parser.endOfStream()
    XCTAssertEqual(try parser.parse(Data(bom + Array("data: b\n\n".utf8))), [event("b")])
  }

  func test_partialByteOrderMark_isKeptAsBytes() throws {
    // EF BB then "x": not a mark; the bytes are invalid UTF-8 in a field name (ignored).
    XCTAssertEqual(try parseEveryWay([0xEF, 0xBB] + Array("x\ndata: a\n\n".utf8)), [event("a")])
  }

  func test_multiByteUTF8_splitAnywhere_isReassembled() throws {
    XCTAssertEqual(try parseEveryWay("event: ünïcödé\ndata: 日本語 🎉\n\n"), [event("日本語 🎉", type: "ünïcödé")])
  }

  func test_invalidUTF8_becomesReplacementCharacters() throws {
    XCTAssertEqual(try parseEveryWay(Array("data: a".utf8) + [0xFF] + Array("b\n\n".utf8)), [event("a\u{FFFD}b")])
  }

  func test_lastEventID_givenAtCreation_isUsedUntilTheStreamSetsOne() throws {
    XCTAssertEqual(
      try parseEveryWay("data: a\n\nid: 9\ndata: b\n\n", lastEventID: "5"), [event("a", id: "5"), event("b", id: "9")])
  }

  func test_lineLongerThanTheLimit_throwsLineTooLong() {
    var parser = ServerSentEventParser(maximumEventLength: 16)
    XCTAssertThrowsError(try parser.parse(Data((": " + String(repeating: "x", count: 20) + "\n").utf8))) {
      XCTAssertEqual($0 as? HTTPStreamError, .lineTooLong(maximumLength: 16))
    }
  }

  func test_eventDataBeyondTheLimit_throwsEventTooLarge_atTheLimitIsFine() throws {
    var fits = ServerSentEventParser(maximumEventLength: 20)
    XCTAssertEqual(try fits.parse(Data("data: 1234567890\ndata: 123456789\n\n".utf8)), [event("1234567890\n123456789")])
    var tooLarge = ServerSentEventParser(maximumEventLength: 20)
    XCTAssertThrowsError(try tooLarge.parse(Data("data: 12345678901\ndata: 123456789\n\n".utf8))) {
      XCTAssertEqual($0 as? HTTPStreamError, .eventTooLarge(maximumLength: 20))
    }
  }

  func test_next_returnsOneOutputAtATime_andNilWhenItNeedsMore() throws {
    var parser = ServerSentEventParser()
    parser.append(Data("data: 1\n\ndata: 2\n\ndata: 3".utf8))
    XCTAssertEqual(try parser.next(), event("1"))
    XCTAssertEqual(try parser.next(), event("2"))
    XCTAssertNil(try parser.next())
    parser.append(Data("\n\n".utf8))
    XCTAssertEqual(try parser.next(), event("3"))
    XCTAssertNil(try parser.next())
  }

  /// The standard's example streams (the section on event stream interpretation).
  func test_theStandardsExamples() throws {
    XCTAssertEqual(
      try parseEveryWay("data: YHOO\ndata: +2\ndata: 10\n\n"), [event("YHOO\n+2\n10")])
    XCTAssertEqual(
      try parseEveryWay(": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n"),
      [event("first event", id: "1"), event("second event", id: "")])
    XCTAssertEqual(try parseEveryWay("data\n\ndata\ndata\n\ndata:"), [event(""), event("\n")])
    XCTAssertEqual(try parseEveryWay("data:test\n\ndata: test\n\n"), [event("test"), event("test")])
  }
}
