import Confluence
import ConfluenceTesting
import ConfluenceTracing
import Foundation
import XCTest

final class TraceRecorderTests: XCTestCase {
  /// `[1, 2, 3]` traced as "numbers", mapped ×10 and traced as "tens", pulled two then one.
  ///
  /// The subscriber subscribes to the outer stage first (lane 1), which subscribes the inner
  /// one (lane 2); the subscriptions then travel down — Sequence's to lane 2, then, as
  /// `map` hands its subscriber the upstream subscription itself (as Apple's does), the
  /// inner stage's own ("Trace") to lane 1 — the requests travel up, and each value down.
  private func runKnownPipeline(_ recorder: TraceRecorder) {
    recorder.start()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    [1, 2, 3].publisher.trace("numbers", to: recorder).map { $0 * 10 }.trace("tens", to: recorder)
      .subscribe(subscriber)
    subscriber.request(.max(1))
    recorder.stop()
    XCTAssertEqual(subscriber.values, [10, 20, 30])
  }

  func test_timeline_ofAKnownPipeline_isWhole() {
    let recorder = TraceRecorder()
    runKnownPipeline(recorder)
    XCTAssertEqual(
      recorder.timeline(showingTimes: false, showingThreads: false),
      """
      #1 tens     subscribed
      #2 numbers  subscribed
      #2 numbers  subscription([1, 2, 3])
      #1 tens     subscription(Trace)
      #1 tens     request(max(2))
      #2 numbers  request(max(2))
      #2 numbers  value(1)
      #1 tens     value(10)
      #2 numbers  value(2)
      #1 tens     value(20)
      #1 tens     request(max(1))
      #2 numbers  request(max(1))
      #2 numbers  value(3)
      #1 tens     value(30)
      #2 numbers  finished
      #1 tens     finished

      """)
  }

  func test_marbles_ofAKnownPipeline_oneLinePerLane() {
    let recorder = TraceRecorder()
    runKnownPipeline(recorder)
    XCTAssertEqual(
      recorder.marbles(),
      """
      #1 tens     ^ r2 10 20 r1 30 |
      #2 numbers  ^ r2 1 2 r1 3 |

      """)
  }

  func test_timeline_withTimesAndThreads_hasTheColumns() {
    let recorder = TraceRecorder()
    runKnownPipeline(recorder)
    let lines = recorder.timeline().split(separator: "\n")
    XCTAssertEqual(lines.count, 16)
    // "    0.012 ms  T1  #1 tens     subscribed": one thread, times in order.
    let times = lines.map { Double($0.split(separator: " ")[0])! }
    XCTAssertEqual(times, times.sorted())
    XCTAssertTrue(lines.allSatisfy { $0.contains(" ms  T1  #") }, "\(lines)")
  }

  func test_chromeTrace_parses_withALanePerSubscription_valuesAsInstants_demandAsCounters() throws {
    let recorder = TraceRecorder()
    runKnownPipeline(recorder)
    let data = Data(recorder.chromeTraceJSON().utf8)
    let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let events = try XCTUnwrap(root["traceEvents"] as? [[String: Any]])

    // The documented fields: every event has name, ph and pid; all but metadata have ts.
    for event in events {
      XCTAssertNotNil(event["name"] as? String, "\(event)")
      XCTAssertNotNil(event["pid"] as? Int, "\(event)")
      let phase = try XCTUnwrap(event["ph"] as? String)
      XCTAssertTrue(["M", "B", "E", "i", "C"].contains(phase), "\(event)")
      if phase != "M" { XCTAssertNotNil(event["ts"] as? Double, "\(event)") }
      if phase == "i" { XCTAssertEqual(event["s"] as? String, "t", "\(event)") }
    }

    // One named lane (tid) per subscription.
    let laneNames = events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }
      .map { ($0["tid"] as? Int ?? 0, ($0["args"] as? [String: Any])?["name"] as? String ?? "") }
    XCTAssertEqual(laneNames.map(\.0), [1, 2])
    XCTAssertEqual(laneNames.map(\.1), ["#1 tens", "#2 numbers"])

    // Values as instant events on their lane, in order.
    func values(onLane lane: Int) -> [String] {
      events.filter { $0["ph"] as? String == "i" && $0["name"] as? String == "value" && $0["tid"] as? Int == lane }
        .compactMap { ($0["args"] as? [String: Any])?["value"] as? String }
    }
    XCTAssertEqual(values(onLane: 2), ["1", "2", "3"])
    XCTAssertEqual(values(onLane: 1), ["10", "20", "30"])

    // Outstanding demand as a counter: 2 requested, two values, 1 requested, one value.
    let numbersDemand = events.filter { $0["ph"] as? String == "C" && $0["name"] as? String == "demand #2 numbers" }
      .compactMap { ($0["args"] as? [String: Any])?["outstanding"] as? Int }
    XCTAssertEqual(numbersDemand, [2, 1, 0, 1, 0])

    // A slice per subscription, from the subscribe to the completion.
    for lane in [1, 2] {
      let phases = events.filter { $0["tid"] as? Int == lane && ["B", "E"].contains($0["ph"] as? String) }
        .compactMap { $0["ph"] as? String }
      XCTAssertEqual(phases, ["B", "E"], "lane \(lane)")
    }
    // The recording thread of each instant.
    XCTAssertTrue(
      events.filter { $0["ph"] as? String == "i" }.allSatisfy { ($0["args"] as? [String: Any])?["thread"] as? Int == 1 }
    )
  }

  func test_writeChromeTrace_writesTheJSONToTheFile() throws {
    let recorder = TraceRecorder()
    runKnownPipeline(recorder)
    let path = NSTemporaryDirectory() + "confluence-trace-\(UUID().uuidString).json"
    defer { try? FileManager.default.removeItem(atPath: path) }
    try recorder.writeChromeTrace(toFile: path)
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), recorder.chromeTraceJSON())
  }

  func test_cancel_isRecorded_andEndsTheLanesSlice() {
    let recorder = TraceRecorder()
    recorder.start()
    let subject = PassthroughSubject<String, TestError>()
    let cancellable = subject.trace("words", to: recorder).sink(receiveCompletion: { _ in }, receiveValue: { _ in })
    subject.send("a\"quoted\"")
    cancellable.cancel()
    subject.send("after")
    recorder.stop()
    XCTAssertEqual(recorder.marbles(), "#1 words  ^ r∞ a\"quoted\" !\n")
    XCTAssertTrue(recorder.chromeTraceJSON().contains(#""value":"a\"quoted\"""#))
  }

  func test_failure_isRecordedWithItsError() {
    let recorder = TraceRecorder()
    recorder.start()
    let subscriber = TestSubscriber<Int, TestError>()
    Fail<Int, TestError>(error: TestError("boom")).trace("failing", to: recorder).subscribe(subscriber)
    recorder.stop()
    XCTAssertEqual(recorder.marbles(), "#1 failing  ^ r∞ X(boom)\n")
  }

  func test_notRecording_recordsNothing_andPassesEverythingThrough() {
    let recorder = TraceRecorder()
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2].publisher.trace("idle", to: recorder).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2])
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertTrue(recorder.events.isEmpty)
  }

  func test_subscribedWhileNotRecording_stepsAside_evenOnceRecordingStarts() {
    let recorder = TraceRecorder()
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    subject.trace("early", to: recorder).subscribe(subscriber)
    recorder.start()
    subject.send(1)
    recorder.stop()
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertEqual(subscriber.subscriptionDescription, "PassthroughSubject")
    XCTAssertTrue(recorder.events.isEmpty)
  }

  func test_ringBuffer_keepsTheNewestEvents_andCountsTheDropped() {
    let recorder = TraceRecorder(capacity: 4)
    recorder.start()
    let lane = recorder.openLane(named: "ring")
    for value in 0..<10 { recorder.record(.value("\(value)"), on: lane) }
    recorder.stop()
    XCTAssertEqual(recorder.events.map(\.kind), (6..<10).map { .value("\($0)") })
    XCTAssertEqual(recorder.events.map(\.sequence), [6, 7, 8, 9])
    XCTAssertEqual(recorder.droppedEventCount, 6)
  }

  func test_longValues_areCut() {
    let recorder = TraceRecorder()
    recorder.start()
    let subscriber = TestSubscriber<String, Never>()
    Just(String(repeating: "x", count: 200)).trace("long", to: recorder).subscribe(subscriber)
    recorder.stop()
    let value = recorder.events.compactMap { if case .value(let text) = $0.kind { return text } else { return nil } }
    XCTAssertEqual(value, [String(repeating: "x", count: 79) + "…"])
  }

  func test_start_clearsThePreviousRecording() {
    let recorder = TraceRecorder()
    runKnownPipeline(recorder)
    recorder.start()
    recorder.stop()
    XCTAssertTrue(recorder.events.isEmpty)
    XCTAssertEqual(recorder.openLane(named: "fresh").id, 1)
  }
}
