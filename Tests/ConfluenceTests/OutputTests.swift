import Confluence
import ConfluenceTesting
import XCTest

final class OutputTests: XCTestCase {
  func test_publishesRangeThenFinishes_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, Never>()
    (10...20).publisher.output(in: 2..<4).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Output"), .value(12), .value(13), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_cancelsUpstreamAfterLastElement() {
    let upstream = ScriptedUpstream<Int, Never>()
    upstream.keepsSendingAfterCancel = true
    let subscriber = TestSubscriber<Int, Never>()
    upstream.output(in: 1...2).subscribe(subscriber)
    upstream.send(0, 1, 2)
    XCTAssertEqual(upstream.cancelCount, 1)
    upstream.send(3)
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("Output"), .value(1), .value(2), .completion(.finished)])
  }

  func test_requestsOneMoreBeforeRange_finiteDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.output(in: 2...3).subscribe(subscriber)
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requested, [.max(1)])
    XCTAssertEqual(upstream.send(0), .max(1))
    XCTAssertEqual(upstream.send(1), .max(1))
    XCTAssertEqual(upstream.send(2), .none)
    subscriber.request(.max(5))
    XCTAssertEqual(upstream.requested, [.max(1), .max(5)])
    XCTAssertEqual(upstream.send(3), .none)
    XCTAssertEqual(subscriber.events, [.subscription("Output"), .value(2), .value(3), .completion(.finished)])
  }

  func test_passesUpstreamCompletion_beforeRangeEnds() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.output(in: 1...5).subscribe(subscriber)
    upstream.send(0, 1)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(subscriber.events, [.subscription("Output"), .value(1), .completion(.failure(TestError("boom")))])
  }

  func test_outputAt_publishesOneElement() {
    let subscriber = TestSubscriber<Int, Never>()
    (1...10).publisher.output(at: 5).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Output"), .value(6), .completion(.finished)])
  }

  func test_prefix_publishesFirstElements() {
    let subscriber = TestSubscriber<Int, Never>()
    (0...10).genericPublisher.prefix(2).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Output"), .value(0), .value(1), .completion(.finished)])
  }

  func test_prefixZero_finishesAtFirstElement() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.prefix(0).subscribe(subscriber)
    upstream.send(1)
    XCTAssertEqual(subscriber.events, [.subscription("Output"), .completion(.finished)])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_partialRangeFrom_publishesTheRest() {
    let subscriber = TestSubscriber<Int, Never>()
    (1...5).publisher.output(in: 3...).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [4, 5])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_rangeIsStored() {
    XCTAssertEqual(Just(1).prefix(3).range, 0..<3)
    XCTAssertEqual(Just(1).output(at: 4).range, 4..<5)
    XCTAssertEqual(Just(1).output(in: 2...3).range, 2..<4)
    XCTAssertEqual(Just(1).prefix(3), Just(1).output(in: 0..<3))
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.prefix(3).subscribe(subscriber)
    subscriber.cancel()
    upstream.send(1)
    XCTAssertEqual(subscriber.events, [.subscription("Output")])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_cancelInsideReceiveOfLastElement_noCompletion() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    upstream.prefix(1).subscribe(subscriber)
    upstream.send(7)
    XCTAssertEqual(subscriber.events, [.subscription("Output"), .value(7)])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_description() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    ScriptedUpstream<Int, Never>().prefix(1).subscribe(subscriber)
    XCTAssertEqual(String(describing: subscriber.subscription!), "Output")
  }

  func test_releasesChain_afterLastElement() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.prefix(1).subscribe(subscriber)
    var subscription = subscriber.subscription as AnyObject?
    upstream.send(1)
    XCTAssertFalse(upstream.hasSubscriber)
    assertReleased(&subscription)
  }

  /// Apple's documentation examples for `output(in:)`, `output(at:)` and `prefix(_:)`.
  func test_appleExamples() {
    var printed = ""
    var cancellables: [AnyCancellable] = []
    [1, 1, 2, 2, 2, 3, 4, 5, 6].publisher
      .output(in: (3...5))
      .sink { print("\($0)", terminator: " ", to: &printed) }
      .store(in: &cancellables)
    XCTAssertEqual(printed, "2 2 3 ")

    printed = ""
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].publisher
      .output(at: 5)
      .sink { print("\($0)", to: &printed) }
      .store(in: &cancellables)
    XCTAssertEqual(printed, "6\n")

    printed = ""
    (0...10).publisher
      .prefix(2)
      .sink { print("\($0)", terminator: " ", to: &printed) }
      .store(in: &cancellables)
    XCTAssertEqual(printed, "0 1 ")
  }

  /// The book's `output` examples: index 3 is the fourth item; indices 2...3 the third and
  /// fourth (the book writes `output(at: 2...3)`; Apple's range form is `output(in:)`).
  func test_bookExamples() {
    let single = TestSubscriber<String, Never>()
    ["a", "b", "c", "d", "e"].genericPublisher.output(at: 3).subscribe(single)
    XCTAssertEqual(single.values, ["d"])

    let range = TestSubscriber<String, Never>()
    ["a", "b", "c", "d", "e"].genericPublisher.output(in: 2...3).subscribe(range)
    XCTAssertEqual(range.values, ["c", "d"])

    let early = TestSubscriber<String, Never>()
    ["a", "b"].genericPublisher.output(at: 3).subscribe(early)
    XCTAssertEqual(early.events, [.subscription("Output"), .completion(.finished)])
  }
}
