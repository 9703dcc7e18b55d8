import Confluence
import ConfluenceTesting
import XCTest

final class ReduceTests: XCTestCase {
  func test_publishesAccumulatedValueThenFinishes_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, Never>()
    (0...10).genericPublisher.reduce(0, +).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Reduce"), .value(55), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_bookExample_appendsStrings() {
    // "Using Combine", reference chapter, "reduce": appending strings together.
    var received: [String] = []
    _ = ["hello", " ", "world"].genericPublisher
      .reduce(
        "",
        { prevVal, newValueFromPublisher -> String in
          return prevVal + newValueFromPublisher
        }
      )
      .sink { received.append($0) }
    XCTAssertEqual(received, ["hello world"])
  }

  func test_changesType() {
    let subscriber = TestSubscriber<String, Never>()
    [1, 2, 3].genericPublisher.reduce("") { $0 + String($1) }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, ["123"])
  }

  func test_emptyUpstream_publishesInitialValue() {
    let subscriber = TestSubscriber<Int, Never>()
    [Int]().genericPublisher.reduce(42, +).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Reduce"), .value(42), .completion(.finished)])
  }

  func test_asksUpstreamForEverythingOnSubscription_max1() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.reduce(0, +).subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [.unlimited])
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requests, [.unlimited])
    upstream.send(1)
    upstream.send(2)
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("Reduce"), .value(3), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.max(1)])
  }

  func test_holdsResultUntilDemand_noInitialDemand() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    [Int]().genericPublisher.reduce(42, +).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Reduce")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("Reduce"), .value(42), .completion(.finished)])
  }

  func test_upstreamFailure_forwardedWithoutValue() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.reduce(0, +).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError("down")))
    XCTAssertEqual(subscriber.events, [.subscription("Reduce"), .completion(.failure(TestError("down")))])
  }

  func test_cancel_cancelsUpstreamAndStopsEverything() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.reduce(0, +).subscribe(subscriber)
    upstream.send(1)
    subscriber.cancel()
    upstream.send(completion: .finished)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(subscriber.events, [.subscription("Reduce")])
  }

  func test_cancelInsideReceive_skipsFinished() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel()
      return .none
    }
    [1, 2].genericPublisher.reduce(0, +).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Reduce"), .value(3)])
  }

  func test_completionAndCancel_releaseTheClosure() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedPublisher<Int, TestError>()
    let finished = TestSubscriber<Int, TestError>()
    upstream.reduce(0) { [probe = tracker.make()] in $0 + $1 + probe.id * 0 }.subscribe(finished)
    upstream.send(completion: .finished)
    XCTAssertEqual(tracker.liveCount, 0)

    let cancelled = TestSubscriber<Int, TestError>()
    upstream.reduce(0) { [probe = tracker.make()] in $0 + $1 + probe.id * 0 }.subscribe(cancelled)
    XCTAssertEqual(tracker.liveCount, 1)
    cancelled.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_properties() {
    let reduce = [2].publisher.reduce(10, -) as Publishers.Reduce<Publishers.Sequence<[Int], Never>, Int>
    XCTAssertEqual(reduce.initial, 10)
    XCTAssertEqual(reduce.nextPartialResult(10, 2), 8)
  }
}
