import Confluence
import ConfluenceTesting
import XCTest

final class MapTests: XCTestCase {
  func test_transformsValues_passesSubscriptionThrough() {
    let subscriber = TestSubscriber<String, Never>()
    Publishers.Map(upstream: (1...3).publisher) { "#\($0)" }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events,
      [.subscription("1...3"), .value("#1"), .value("#2"), .value("#3"), .completion(.finished)])
  }

  func test_demandIsPassedThrough() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    Publishers.Map(upstream: (1...5).publisher) { $0 * 10 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [10, 20])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [10, 20, 30])
    XCTAssertNil(subscriber.completion)
  }

  func test_failurePassesThrough() {
    let upstream = Publishers.Sequence<[Int], TestError>(sequence: [])
    let subscriber = TestSubscriber<Int, TestError>()
    Publishers.Map(upstream: upstream) { $0 + 1 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.finished)])
  }

  func test_mapOnMap_fusesIntoOneStage() {
    let fused: Publishers.Map<Publishers.Sequence<ClosedRange<Int>, Never>, String> =
      Publishers.Map(upstream: (1...2).publisher) { $0 * 2 }.map { "\($0)" }
    let subscriber = TestSubscriber<String, Never>()
    fused.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, ["2", "4"])
  }

  func test_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    Publishers.Map(upstream: (1...3).publisher) { $0 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertNil(subscriber.completion)
  }

  func test_cancel_releasesTransform() {
    let tracker = LifetimeTracker()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    do {
      let probe = tracker.make()
      Publishers.Map(upstream: (1...3).publisher) { $0 + probe.id }.subscribe(subscriber)
    }
    XCTAssertEqual(tracker.liveCount, 1)
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }
}
