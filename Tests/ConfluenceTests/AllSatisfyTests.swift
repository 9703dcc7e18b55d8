import Confluence
import ConfluenceTesting
import XCTest

final class AllSatisfyTests: XCTestCase {
  func test_appleExample_allInRange() {
    let targetRange = (-1...100)
    let subscriber = TestSubscriber<Bool, Never>()
    [-1, 0, 10, 5].genericPublisher.allSatisfy { targetRange.contains($0) }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("AllSatisfy"), .value(true), .completion(.finished)])
  }

  func test_firstFailingElement_publishesFalseAndCancelsUpstream() {
    let upstream = ScriptedPublisher<Int, TestError>()
    var calls = 0
    let subscriber = TestSubscriber<Bool, TestError>(initialDemand: .max(1))
    upstream.allSatisfy {
      calls += 1
      return $0 > 0
    }.subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [.unlimited])
    upstream.send(1)
    upstream.send(-1)
    upstream.send(2)
    XCTAssertEqual(calls, 2)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(subscriber.events, [.subscription("AllSatisfy"), .value(false), .completion(.finished)])
  }

  func test_emptyUpstream_true() {
    let subscriber = TestSubscriber<Bool, Never>()
    [Int]().genericPublisher.allSatisfy { _ in false }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [true])
  }

  func test_noDemand_holdsAnswer() {
    let subscriber = TestSubscriber<Bool, Never>(initialDemand: .none)
    [1].genericPublisher.allSatisfy { $0 > 0 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("AllSatisfy")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("AllSatisfy"), .value(true), .completion(.finished)])
  }

  func test_upstreamFailure_andCancel() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let failed = TestSubscriber<Bool, TestError>()
    upstream.allSatisfy { _ in true }.subscribe(failed)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(failed.events, [.subscription("AllSatisfy"), .completion(.failure(TestError()))])

    let cancelled = TestSubscriber<Bool, TestError>()
    upstream.allSatisfy { _ in true }.subscribe(cancelled)
    cancelled.cancel()
    upstream.send(completion: .finished)
    XCTAssertEqual(cancelled.events, [.subscription("AllSatisfy")])
  }
}
