import Confluence
import ConfluenceTesting
import XCTest

final class TryReduceTests: XCTestCase {
  func test_publishesAccumulatedValue_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, any Error>()
    [1, 2, 3].genericPublisher.tryReduce(0) { $0 + $1 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryReduce)", "value(6)", "completion(finished)"])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_throwingClosure_cancelsUpstreamAndFails() {
    let upstream = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    var calls = 0
    upstream.tryReduce(1) { accum, next in
      calls += 1
      guard next != 0 else { throw TestError("zero") }
      return accum * next
    }.subscribe(subscriber)
    upstream.send(2)
    upstream.send(0)
    XCTAssertEqual(upstream.cancelCount, 1)
    upstream.send(3)
    upstream.send(completion: .finished)
    XCTAssertEqual(calls, 2, "nothing reaches the closure after it threw")
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryReduce)", "completion(failure(zero))"])
  }

  func test_throwingClosure_failsAtOnce_max1() {
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(1))
    [1].genericPublisher.tryReduce(0) { _, _ in throw TestError() }.subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryReduce)", "completion(failure(oops))"])
  }

  func test_upstreamFailure_isForwardedAsAnyError() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryReduce(0) { $0 + $1 }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError("up")))
    XCTAssertEqual(
      subscriber.completion.flatMap { if case .failure(let e) = $0 { e as? TestError } else { nil } }, TestError("up"))
  }

  func test_waitsForDemand_max1() {
    let upstream = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryReduce(0) { $0 + $1 }.subscribe(subscriber)
    upstream.send(4)
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryReduce)"])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryReduce)", "value(4)", "completion(finished)"])
  }

  func test_cancelBeforeDemand_sendsNothing() {
    let upstream = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryReduce(0) { $0 + $1 }.subscribe(subscriber)
    upstream.send(completion: .finished)
    subscriber.cancel()
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryReduce)"])
  }

  func test_throwReleasesClosure() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryReduce(0) { [probe = tracker.make()] (_: Int, _: Int) throws -> Int in
      _ = probe
      throw TestError()
    }.subscribe(subscriber)
    upstream.send(1)
    XCTAssertFalse(upstream.holdsSubscriber)
    XCTAssertEqual(tracker.liveCount, 0)
  }
}
