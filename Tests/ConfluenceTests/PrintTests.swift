import Confluence
import ConfluenceTesting
import Dispatch
import Foundation
import Synchronization
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

final class PrintTests: XCTestCase {
  // MARK: The book's examples (chapter 10, "Printing events")

  func test_bookExample_printsExactLines() {
    let collector = LineCollector()
    let subscription = (1...3).publisher
      .print("publisher", to: collector)
      .sink { _ in }
    XCTAssertEqual(
      collector.lines,
      [
        "publisher: receive subscription: (1...3)",
        "publisher: request unlimited",
        "publisher: receive value: (1)",
        "publisher: receive value: (2)",
        "publisher: receive value: (3)",
        "publisher: receive finished",
      ])
    subscription.cancel()
    XCTAssertEqual(collector.lines.count, 6, "cancel after completion prints nothing")
  }

  func test_eachLine_isWrittenAsPrintToWritesIt_emptySeparatorLineNewline() {
    let collector = LineCollector()
    _ = Just(1).print("p", to: collector).sink { _ in }
    XCTAssertEqual(
      collector.writes,
      [
        "", "p: receive subscription: (Just)", "\n",
        "", "p: request unlimited", "\n",
        "", "p: receive value: (1)", "\n",
        "", "p: receive finished", "\n",
      ])
  }

  /// The book's `TimeLogger`, collecting its lines instead of printing them.
  final class TimeLogger: TextOutputStream {
    private var previous = Date()
    private let formatter = NumberFormatter()
    private(set) var printed: [String] = []

    init() {
      formatter.maximumFractionDigits = 5
      formatter.minimumFractionDigits = 5
    }

    func write(_ string: String) {
      let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !trimmed.isEmpty else { return }
      let now = Date()
      printed.append("+\(formatter.string(for: now.timeIntervalSince(previous))!)s: \(string)")
      previous = now
    }
  }

  func test_bookExample_timeLogger() throws {
    let logger = TimeLogger()
    let subscription = (1...3).publisher
      .print("publisher", to: logger)
      .sink { _ in }
    let expected = [
      "publisher: receive subscription: (1...3)",
      "publisher: request unlimited",
      "publisher: receive value: (1)",
      "publisher: receive value: (2)",
      "publisher: receive value: (3)",
      "publisher: receive finished",
    ]
    XCTAssertEqual(logger.printed.count, expected.count, "\(logger.printed)")
    let timing = try NSRegularExpression(pattern: #"^\+\d+\.\d{5}s: "#)
    for (line, text) in zip(logger.printed, expected) {
      let range = NSRange(line.startIndex..., in: line)
      let match = try XCTUnwrap(timing.firstMatch(in: line, range: range), "no timing in \(line)")
      let rest = String(line[Range(match.range, in: line)!.upperBound...])
      XCTAssertEqual(rest, text)
    }
    subscription.cancel()
  }

  // MARK: Prefix

  func test_noPrefix_linesStartWithTheEvent() {
    let collector = LineCollector()
    _ = Just("a").print(to: collector).sink { _ in }
    XCTAssertEqual(
      collector.lines,
      ["receive subscription: (Just)", "request unlimited", "receive value: (a)", "receive finished"])
  }

  func test_prefixEndingInColon_getsAnotherColon() {
    let collector = LineCollector()
    _ = Just("").print("username pipeline: ", to: collector).sink { _ in }
    XCTAssertEqual(
      collector.lines,
      [
        "username pipeline: : receive subscription: (Just)",
        "username pipeline: : request unlimited",
        "username pipeline: : receive value: ()",
        "username pipeline: : receive finished",
      ])
  }

  func test_defaultStream_isStandardOutput() {
    let output = captureStandardOutput {
      _ = (1...2).publisher.print("Logged a message", to: nil).sink { _ in }
    }
    XCTAssertEqual(
      output,
      """
      Logged a message: receive subscription: (1...2)
      Logged a message: request unlimited
      Logged a message: receive value: (1)
      Logged a message: receive value: (2)
      Logged a message: receive finished

      """)
  }

  // MARK: Demand

  func test_demand_noneThenMaxOneThenUnlimited() {
    let collector = LineCollector()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    [1, 2, 3].publisher.print(to: collector).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Print")])
    XCTAssertEqual(collector.lines, ["receive subscription: ([1, 2, 3])"])

    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("Print"), .value(1)])
    XCTAssertEqual(collector.lines.dropFirst(), ["request max: (1)", "receive value: (1)"])

    subscriber.request(.unlimited)
    XCTAssertEqual(
      subscriber.events, [.subscription("Print"), .value(1), .value(2), .value(3), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.max(1), .unlimited])
    XCTAssertEqual(
      collector.lines,
      [
        "receive subscription: ([1, 2, 3])",
        "request max: (1)",
        "receive value: (1)",
        "request unlimited",
        "receive value: (2)",
        "receive value: (3)",
        "receive finished",
      ])
  }

  func test_synchronousDemand_isMarkedSynchronous() {
    let collector = LineCollector()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    [1, 2].publisher.print(to: collector).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Print"), .value(1), .value(2), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.max(1), .max(1), .max(1)])
    XCTAssertEqual(
      collector.lines,
      [
        "receive subscription: ([1, 2])",
        "request max: (1)",
        "receive value: (1)",
        "request max: (1) (synchronous)",
        "receive value: (2)",
        "request max: (1) (synchronous)",
        "receive finished",
      ])
  }

  func test_synchronousUnlimitedDemand_isMarkedSynchronous() {
    let collector = LineCollector()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .unlimited)
    [1, 2].publisher.print(to: collector).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2])
    XCTAssertEqual(
      collector.lines,
      [
        "receive subscription: ([1, 2])",
        "request max: (1)",
        "receive value: (1)",
        "request unlimited (synchronous)",
        "receive value: (2)",
        "request unlimited (synchronous)",
        "receive finished",
      ])
  }

  func test_demandIsPassedUpstreamUnchanged() {
    let collector = LineCollector()
    let publisher = ManualDebugPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    publisher.print(to: collector).subscribe(subscriber)
    subscriber.request(.max(3))
    subscriber.request(.unlimited)
    XCTAssertEqual(publisher.requests, [.max(2), .max(3), .unlimited])
  }

  // MARK: Completion, failure, cancel

  func test_failure_printsReceiveError() {
    let collector = LineCollector()
    let publisher = ManualDebugPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    publisher.print("(1)>", to: collector).subscribe(subscriber)
    publisher.send(7)
    publisher.fail(TestError("invalidServerResponse"))
    XCTAssertEqual(
      subscriber.events,
      [.subscription("Print"), .value(7), .completion(.failure(TestError("invalidServerResponse")))])
    XCTAssertEqual(
      collector.lines,
      [
        "(1)>: receive subscription: (Manual)",
        "(1)>: request unlimited",
        "(1)>: receive value: (7)",
        "(1)>: receive error: (invalidServerResponse)",
      ])
  }

  func test_cancel_printsReceiveCancelOnceAndCancelsUpstream() {
    let collector = LineCollector()
    let publisher = ManualDebugPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    publisher.print(to: collector).subscribe(subscriber)
    publisher.send(1)
    subscriber.cancel()
    XCTAssertEqual(publisher.cancelCount, 1)
    XCTAssertEqual(
      collector.lines, ["receive subscription: (Manual)", "request unlimited", "receive value: (1)", "receive cancel"])

    subscriber.subscription?.cancel()
    XCTAssertFalse(publisher.send(2))
    XCTAssertEqual(publisher.cancelCount, 1)
    XCTAssertEqual(subscriber.events, [.subscription("Print"), .value(1)])
  }

  // As Apple's: every cancel is printed; upstream is cancelled once.
  func test_everyCancel_isPrinted() throws {
    let collector = LineCollector()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Just(1).print(to: collector).subscribe(subscriber)
    let subscription = try XCTUnwrap(subscriber.subscription)
    subscription.cancel()
    subscription.cancel()
    XCTAssertEqual(collector.lines, ["receive subscription: (Just)", "receive cancel", "receive cancel"])
  }

  // Just sends its completion even to a subscriber that cancelled inside receive; Apple's
  // print prints it and passes it on.
  func test_cancelInsideReceive_theCompletionThatFollowsIsPrintedAndPassedOn() {
    let collector = LineCollector()
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onViolation = { _ in }
    subscriber.onValue = { _ in
      subscriber.cancel()
      return .none
    }
    Just(4).print(to: collector).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Print"), .value(4), .completion(.finished)])
    XCTAssertEqual(
      collector.lines,
      ["receive subscription: (Just)", "request unlimited", "receive value: (4)", "receive cancel", "receive finished"])
  }

  func test_cancelAfterCompletion_isPrinted_butGoesNowhere() {
    let collector = LineCollector()
    let publisher = ManualDebugPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    publisher.print(to: collector).subscribe(subscriber)
    let subscription = subscriber.subscription
    publisher.finish()
    subscription?.cancel()
    XCTAssertEqual(
      collector.lines, ["receive subscription: (Manual)", "request unlimited", "receive finished", "receive cancel"])
    XCTAssertEqual(publisher.cancelCount, 0)
    XCTAssertEqual(subscriber.events, [.subscription("Print"), .completion(.finished)])
  }

  // MARK: Lifetime

  func test_cancel_freesTheSubscription() {
    let publisher = ManualDebugPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    publisher.print(to: LineCollector()).subscribe(subscriber)
    var subscription: AnyObject? = subscriber.subscription as AnyObject?
    XCTAssertNotNil(subscription)
    publisher.dropSubscription()
    subscriber.cancel()
    assertReleased(&subscription)
  }

  func test_completion_freesTheSubscription() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    [1].publisher.print(to: LineCollector()).subscribe(subscriber)
    var subscription: AnyObject? = subscriber.subscription as AnyObject?
    XCTAssertNotNil(subscription)
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("Print"), .value(1), .completion(.finished)])
    assertReleased(&subscription)
  }

  func test_cancel_freesTheStream() {
    weak var weakCollector: LineCollector?
    do {
      let collector = LineCollector()
      weakCollector = collector
      let publisher = ManualDebugPublisher<Int, Never>()
      let token = publisher.print(to: collector).sink { _ in }
      publisher.dropSubscription()
      token.cancel()
      XCTAssertEqual(collector.lines.last, "receive cancel")
    }
    XCTAssertNil(weakCollector)
  }

  // MARK: Writing to the stream

  func test_streamThatTriggersAnEvent_getsTheLineAfterTheCurrentOne() {
    let collector = LineCollector()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    var requestedFromStream = false
    collector.onWrite = { line in
      if line == "receive value: (1)" && !requestedFromStream {
        requestedFromStream = true
        subscriber.request(.max(1))  // logs "request max: (1)" from inside the stream's write
      }
    }
    [1, 2].publisher.print(to: collector).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2])
    XCTAssertEqual(
      collector.writes,
      [
        "", "receive subscription: ([1, 2])", "\n",
        "", "request max: (1)", "\n",
        "", "receive value: (1)", "\n",
        "", "request max: (1)", "\n",
        "", "receive value: (2)", "\n",
        "", "receive finished", "\n",
      ])
  }

  func test_concurrentRequests_neverWriteToTheStreamAtOnce() {
    let stream = OverlapCheckingStream()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    SilentPublisher<Int>().print(to: stream).subscribe(subscriber)
    DispatchQueue.concurrentPerform(iterations: 200) { _ in
      subscriber.request(.max(1))
    }
    XCTAssertEqual(stream.overlaps, 0)
    let lines = stream.lines
    XCTAssertEqual(lines.first, "receive subscription: (Empty)")
    XCTAssertEqual(lines.dropFirst().filter { $0 == "request max: (1)" }.count, 200)
    XCTAssertEqual(lines.count, 201)
  }

  func test_printPublisher_keepsItsProperties() {
    let collector = LineCollector()
    let print = Just(1).print("tag", to: collector)
    XCTAssertEqual(print.prefix, "tag")
    XCTAssertEqual(print.upstream, Just(1))
    XCTAssertTrue(print.stream as AnyObject === collector)
    XCTAssertNil(Just(1).print().stream)
    XCTAssertEqual(Just(1).print().prefix, "")
  }
}

/// A stream that counts writers inside `write` at once; used from several threads.
private final class OverlapCheckingStream: TextOutputStream, @unchecked Sendable {
  // @unchecked Sendable: `inside` is atomic; `writes`/`overlapCount` are only touched while
  // `inside` shows this thread alone (and read after all threads are done).
  private let inside = Atomic<Int>(0)
  private var writes: [String] = []
  private var overlapCount = 0

  func write(_ string: String) {
    let writers = inside.add(1, ordering: .acquiringAndReleasing).newValue
    if writers == 1 {
      writes.append(string)
    } else {
      overlapCount += 1
    }
    inside.subtract(1, ordering: .acquiringAndReleasing)
  }

  var overlaps: Int { overlapCount }

  var lines: [String] { writes.joined().split(separator: "\n").map(String.init) }
}

/// Hands out `Subscriptions.empty` and never sends anything: requests may come from any thread.
private struct SilentPublisher<Output>: Publisher {
  typealias Failure = Never

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    subscriber.receive(subscription: Subscriptions.empty)
  }
}

/// Runs `body` with file descriptor 1 redirected to a pipe and returns what it wrote.
private func captureStandardOutput(_ body: () -> Void) -> String {
  fflush(nil)
  var fds: [Int32] = [0, 0]
  guard pipe(&fds) == 0 else { return "<pipe failed>" }
  let saved = dup(1)
  dup2(fds[1], 1)
  body()
  fflush(nil)
  dup2(saved, 1)
  close(saved)
  close(fds[1])
  var data = [UInt8]()
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = read(fds[0], &buffer, buffer.count)
    if count <= 0 { break }
    data.append(contentsOf: buffer[0..<count])
  }
  close(fds[0])
  return String(decoding: data, as: UTF8.self)
}
