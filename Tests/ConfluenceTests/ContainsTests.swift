import Confluence
import ConfluenceTesting
import XCTest

final class ContainsTests: XCTestCase {
  func test_appleExample_match() {
    let subscriber = TestSubscriber<Bool, Never>()
    [-1, 5, 10, 5].genericPublisher.contains(5).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Contains"), .value(true), .completion(.finished)])
  }

  func test_noMatch_publishesFalseOnFinish() {
    let subscriber = TestSubscriber<Bool, Never>()
    [1, 2].genericPublisher.contains(3).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Contains"), .value(false), .completion(.finished)])
  }

  func test_match_cancelsUpstreamAndIgnoresTheRest() {
    let upstream = ScriptedPublisher<String, TestError>()
    let subscriber = TestSubscriber<Bool, TestError>(initialDemand: .max(1))
    upstream.contains("b").subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [.unlimited])
    upstream.send("a")
    upstream.send("b")
    XCTAssertEqual(upstream.cancelCount, 1)
    upstream.send("c")
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("Contains"), .value(true), .completion(.finished)])
  }

  func test_noDemand_holdsAnswer() {
    let subscriber = TestSubscriber<Bool, Never>(initialDemand: .none)
    [1].genericPublisher.contains(1).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Contains")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("Contains"), .value(true), .completion(.finished)])
  }

  func test_upstreamFailure_isForwarded() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Bool, TestError>()
    upstream.contains(1).subscribe(subscriber)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(subscriber.events, [.subscription("Contains"), .completion(.failure(TestError()))])
  }

  func test_cancel_beforeMatchAndInsideReceive() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let cancelled = TestSubscriber<Bool, TestError>()
    upstream.contains(1).subscribe(cancelled)
    cancelled.cancel()
    upstream.send(1)
    XCTAssertEqual(cancelled.events, [.subscription("Contains")])

    let inside = TestSubscriber<Bool, Never>()
    inside.onValue = { _ in
      inside.cancel()
      return .none
    }
    [1].genericPublisher.contains(1).subscribe(inside)
    XCTAssertEqual(inside.events, [.subscription("Contains"), .value(true)])
  }

  func test_equatable() {
    XCTAssertEqual(Publishers.Contains(upstream: Just(1), output: 1), Publishers.Contains(upstream: Just(1), output: 1))
    XCTAssertNotEqual(
      Publishers.Contains(upstream: Just(1), output: 1), Publishers.Contains(upstream: Just(1), output: 2))
  }
}
