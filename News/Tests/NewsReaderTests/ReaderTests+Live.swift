import Combine
import Foundation
import HackerNews
import XCTest

@testable import NewsCLI

/// The reader on a feed's event streams: what the streams change appears in place, with no
/// polling while they are up, and a server that does not stream is polled.
extension ReaderTests {
  /// A reader whose top feed streams; the test sends the events.
  private func makeLiveReader(refresh: Int = 1000) -> (ReaderHarness, PassthroughSubject<LiveFeedEvent, Never>) {
    var stream: PassthroughSubject<LiveFeedEvent, Never>!
    let harness = ReaderHarness(rows: 12, columns: 100, refresh: .milliseconds(refresh)) { source in
      source.setFeed(.top, Self.front)
      stream = source.stream(.top)
    }
    return (harness, stream)
  }

  private func send(
    _ events: [LiveFeedEvent], to stream: PassthroughSubject<LiveFeedEvent, Never>, _ reader: ReaderHarness
  ) {
    events.forEach(stream.send)
    reader.wait(0)
  }

  func test_liveFeed_showsTheStreamedList_andNeverPollsWhileTheStreamIsUp() {
    let (reader, stream) = makeLiveReader()
    send([.listed([1, 2, 3, 4, 5])] + Self.front.map { .item($0) } + [.connection(.live)], to: stream, reader)
    assertFrame(
      reader.frame,
      [Self.header, ""] + Self.firstPage(selected: 1) + ["", "● live · " + Self.listKeys])
    // Ten refresh periods pass: the stream keeps the list, nothing is loaded again.
    reader.wait(10_000)
    XCTAssertEqual(reader.source.log, ["live top"])
  }

  func test_liveFeed_newStoryAppearsWhereItRanks_markedNewUntilSelected_andTheSelectionStaysOnItsStory() {
    let (reader, stream) = makeLiveReader()
    send([.listed([1, 2, 3, 4, 5])] + Self.front.map { .item($0) } + [.connection(.live)], to: stream, reader)
    reader.press(.character("j"))
    XCTAssertEqual(reader.frame[4], "▶ 2. Ask HN: Is Combine worth learning?")

    // Story 9 arrives at the top, and story 2 gains points: the selection stays on story 2.
    var gained = Self.front[1]
    gained.score = 31
    let arrival = story(9, "Streams over HTTP", by: "ivy", hours: 0, url: "https://example.com/sse", score: 3)
    send([.listed([9, 1, 2, 3, 4]), .item(arrival), .item(gained)], to: stream, reader)
    assertFrame(
      reader.frame,
      [
        Self.header, "",
        "  1. Streams over HTTP (example.com)", "     3 points by ivy just now | discuss · new",
        "  2. Combine on Linux (example.org)", "     120 points by alice 3 hours ago | 3 comments",
        "▶ 3. Ask HN: Is Combine worth learning?", "     31 points by bob 1 day ago | discuss",
        "  4. Data structures in Swift (swift.org)", "     42 points by carol 2 hours ago | 1 comment",
        "", "● live · " + Self.listKeys,
      ])
    // Selecting the new story marks it seen.
    reader.press(.character("k"), .character("k"))
    XCTAssertEqual(reader.frame[2], "▶ 1. Streams over HTTP (example.com)")
    XCTAssertEqual(reader.frame[3], "     3 points by ivy just now | discuss")
  }

  func test_liveFeed_droppedStream_showsReconnectingOnTheStatusLine_untilLiveAgain() {
    let (reader, stream) = makeLiveReader()
    send([.listed([1, 2, 3, 4, 5])] + Self.front.map { .item($0) } + [.connection(.live)], to: stream, reader)
    send([.connection(.reconnecting(streams: 1, attempt: 1))], to: stream, reader)
    XCTAssertEqual(reader.frame.last, "○ reconnecting 1 stream · " + Self.listKeys)
    // While it reconnects, nothing is polled either: the stream will resume.
    reader.wait(5000)
    XCTAssertEqual(reader.source.log, ["live top"])
    send([.connection(.live)], to: stream, reader)
    XCTAssertEqual(reader.frame.last, "● live · " + Self.listKeys)
  }

  func test_liveFeed_serverThatDoesNotStream_fallsBackToLoadingAndRefreshing() {
    let (reader, stream) = makeLiveReader(refresh: 1000)
    send([.connection(.notStreaming("unexpected content type application/json"))], to: stream, reader)
    reader.wait(100)
    assertFrame(reader.frame, [Self.header, ""] + Self.firstPage(selected: 1) + ["", Self.listKeys])
    reader.wait(1000)
    XCTAssertEqual(
      reader.source.log,
      ["live top", "live top cancelled", "feed top", "feed top loaded", "feed top", "feed top loaded"])
  }
}
