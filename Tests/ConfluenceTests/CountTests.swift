import Confluence
import ConfluenceTesting
import XCTest

final class CountTests: XCTestCase {
  func test_appleExample_countsElements() {
    let subscriber = TestSubscriber<Int, Never>()
    (0...10).genericPublisher.count().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Count"), .value(11), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_emptyUpstream_publishesZero() {
    let subscriber = TestSubscriber<Int, Never>()
    [String]().genericPublisher.count().subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [0])
  }

  func test_asksUpstreamForEverythingOnSubscription_max1() {
    let upstream = ScriptedPublisher<String, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.count().subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [.unlimited])
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requests, [.unlimited])
    upstream.send("a")
    upstream.send("b")
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("Count"), .value(2), .completion(.finished)])
  }

  func test_holdsCountUntilDemand() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    [String]().genericPublisher.count().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Count")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("Count"), .value(0), .completion(.finished)])
  }

  func test_upstreamFailure_publishesNoCount() {
    let upstream = ScriptedPublisher<String, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.count().subscribe(subscriber)
    upstream.send("a")
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(subscriber.events, [.subscription("Count"), .completion(.failure(TestError()))])
  }

  func test_cancel_beforeAndInsideDelivery() {
    let upstream = ScriptedPublisher<String, TestError>()
    let cancelled = TestSubscriber<Int, TestError>()
    upstream.count().subscribe(cancelled)
    cancelled.cancel()
    upstream.send(completion: .finished)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(cancelled.events, [.subscription("Count")])

    let inside = TestSubscriber<Int, Never>()
    inside.onValue = { _ in
      inside.cancel()
      return .none
    }
    [1].genericPublisher.count().subscribe(inside)
    XCTAssertEqual(inside.events, [.subscription("Count"), .value(1)])
  }

  func test_equatable() {
    XCTAssertEqual(Publishers.Count(upstream: Just(1)), Publishers.Count(upstream: Just(1)))
  }
}
