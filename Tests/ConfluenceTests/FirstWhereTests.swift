import Confluence
import ConfluenceTesting
import XCTest

final class FirstWhereTests: XCTestCase {
  // Apple's first(where:) subscription calls itself "TryFirst"; the events below show it.
  func test_bookExample_firstLongerThanThree() {
    // "Using Combine", reference chapter, "firstWhere".
    let subscriber = TestSubscriber<String, Never>()
    ["a", "bb", "cccc", "ddddd"].genericPublisher
      .first { (incomingobject) -> Bool in
        return incomingobject.count > 3
      }
      .subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("TryFirst"), .value("cccc"), .completion(.finished)])
  }

  func test_appleExample_firstPositive() {
    let subscriber = TestSubscriber<Int, Never>()
    (-10...10).genericPublisher.first { $0 > 0 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1])
  }

  func test_match_cancelsUpstreamAndStopsCallingPredicate() {
    let upstream = ScriptedPublisher<Int, TestError>()
    var calls = 0
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
    upstream.first {
      calls += 1
      return $0 > 1
    }.subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    XCTAssertEqual(calls, 2)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(subscriber.events, [.subscription("TryFirst"), .value(2), .completion(.finished)])
  }

  func test_noMatch_finishesEmpty() {
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2].genericPublisher.first { $0 > 5 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("TryFirst"), .completion(.finished)])
  }

  func test_noDemand_holdsMatch() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    [1, 2].genericPublisher.first { $0 > 1 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("TryFirst")])
    subscriber.request(.unlimited)
    XCTAssertEqual(subscriber.events, [.subscription("TryFirst"), .value(2), .completion(.finished)])
  }

  func test_upstreamFailure_andCancel() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let failed = TestSubscriber<Int, TestError>()
    upstream.first { _ in false }.subscribe(failed)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(failed.events, [.subscription("TryFirst"), .completion(.failure(TestError()))])

    let cancelled = TestSubscriber<Int, TestError>()
    upstream.first { _ in true }.subscribe(cancelled)
    cancelled.cancel()
    upstream.send(1)
    XCTAssertEqual(cancelled.events, [.subscription("TryFirst")])
  }

  func test_match_releasesPredicate() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.first { [probe = tracker.make()] in $0 > probe.id * 0 }.subscribe(subscriber)
    upstream.send(1)
    XCTAssertEqual(tracker.liveCount, 0)
  }
}
