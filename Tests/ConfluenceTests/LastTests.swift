import Confluence
import ConfluenceTesting
import XCTest

final class LastTests: XCTestCase {
  func test_appleExample_publishesLastOnFinish() {
    let subscriber = TestSubscriber<Int, Never>()
    (-10...10).genericPublisher.last().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Last"), .value(10), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_emptyUpstream_justFinishes() {
    let subscriber = TestSubscriber<Int, Never>()
    [Int]().genericPublisher.last().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Last"), .completion(.finished)])
  }

  func test_asksUpstreamForEverythingOnSubscription_thenWaitsForFinish_max1() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.last().subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [.unlimited])
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requests, [.unlimited])
    upstream.send(1)
    upstream.send(2)
    XCTAssertEqual(subscriber.events, [.subscription("Last")])
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("Last"), .value(2), .completion(.finished)])
  }

  func test_upstreamFailure_dropsValue() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.last().subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(subscriber.events, [.subscription("Last"), .completion(.failure(TestError()))])
  }

  func test_cancel_beforeFinish() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.last().subscribe(subscriber)
    upstream.send(1)
    subscriber.cancel()
    upstream.send(completion: .finished)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(subscriber.events, [.subscription("Last")])
  }

  func test_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel()
      return .none
    }
    [1, 2].genericPublisher.last().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Last"), .value(2)])
  }

  func test_equatable() {
    XCTAssertEqual(Publishers.Last(upstream: Just(1)), Publishers.Last(upstream: Just(1)))
  }
}
