import Confluence
import ConfluenceTesting
import XCTest

final class FirstTests: XCTestCase {
  func test_publishesFirstAndCancelsUpstream_unlimitedDemand() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.first().subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [.unlimited])
    upstream.send(1)
    XCTAssertEqual(upstream.cancelCount, 1)
    upstream.send(2)
    XCTAssertEqual(subscriber.events, [.subscription("First"), .value(1), .completion(.finished)])
  }

  func test_appleExample() {
    let subscriber = TestSubscriber<Int, Never>()
    (-10...10).genericPublisher.first().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("First"), .value(-10), .completion(.finished)])
  }

  func test_emptyUpstream_finishesOnceDownstreamAsks() {
    // As Apple's: even a bare finish waits for downstream's first request.
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    [Int]().genericPublisher.first().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("First")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("First"), .completion(.finished)])
  }

  func test_waitsForDemand_thenMax1() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.first().subscribe(subscriber)
    upstream.send(3)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(subscriber.events, [.subscription("First")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("First"), .value(3), .completion(.finished)])
  }

  func test_upstreamFailure_isForwarded() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.first().subscribe(subscriber)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(subscriber.events, [.subscription("First"), .completion(.failure(TestError()))])
  }

  func test_cancelBeforeValue_andWhileHolding() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let first = TestSubscriber<Int, TestError>()
    upstream.first().subscribe(first)
    first.cancel()
    XCTAssertEqual(upstream.cancelCount, 1)
    upstream.send(1)
    XCTAssertEqual(first.events, [.subscription("First")])

    let holding = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.first().subscribe(holding)
    upstream.send(2)
    holding.cancel()
    holding.request(.max(1))
    XCTAssertEqual(holding.events, [.subscription("First")])
  }

  func test_cancelInsideReceive_skipsFinished() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel()
      return .none
    }
    [1, 2].genericPublisher.first().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("First"), .value(1)])
  }

  func test_equatable() {
    XCTAssertEqual(Publishers.First(upstream: Just(1)), Publishers.First(upstream: Just(1)))
  }
}
