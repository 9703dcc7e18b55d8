import Confluence
import ConfluenceTesting
import XCTest

final class LastWhereTests: XCTestCase {
  func test_bookExample_lastLongerThanThree() {
    // "Using Combine", reference chapter, "lastWhere": publishes the last value longer than 3.
    let subscriber = TestSubscriber<String, Never>()
    ["a", "cccc", "ddddd", "bb"].genericPublisher.last { $0.count > 3 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("LastWhere"), .value("ddddd"), .completion(.finished)])
  }

  func test_appleExample() {
    let subscriber = TestSubscriber<Int, Never>()
    (-10...10).genericPublisher.last { $0 < 6 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [5])
  }

  func test_noMatch_finishesNormally() {
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2].genericPublisher.last { $0 > 5 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("LastWhere"), .completion(.finished)])
  }

  func test_noDemand_thenRequest() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    [1, 2, 3].genericPublisher.last { $0 < 3 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("LastWhere")])
    subscriber.request(.max(2))
    XCTAssertEqual(subscriber.events, [.subscription("LastWhere"), .value(2), .completion(.finished)])
  }

  func test_upstreamFailure_andCancel() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let failed = TestSubscriber<Int, TestError>()
    upstream.last { _ in true }.subscribe(failed)
    upstream.send(1)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(failed.events, [.subscription("LastWhere"), .completion(.failure(TestError()))])

    let cancelled = TestSubscriber<Int, TestError>()
    upstream.last { _ in true }.subscribe(cancelled)
    cancelled.cancel()
    XCTAssertEqual(upstream.cancelCount, 1)
  }
}
