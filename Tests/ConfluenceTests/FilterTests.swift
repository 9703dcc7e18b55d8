import Confluence
import ConfluenceTesting
import XCTest

final class FilterTests: XCTestCase {
  func test_republishesMatchingValues() {
    let subscriber = TestSubscriber<Int, Never>()
    Publishers.Filter(upstream: (1...6).publisher) { $0.isMultiple(of: 2) }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription("Filter"), .value(2), .value(4), .value(6), .completion(.finished)])
  }

  func test_finiteDemand_requestsOneMorePerDroppedValue() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    Publishers.Filter(upstream: (1...10).publisher) { $0 % 3 == 0 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [3, 6])
    XCTAssertNil(subscriber.completion)
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [3, 6, 9])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_noDemand_deliversNothing() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Publishers.Filter(upstream: (1...3).publisher) { _ in true }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Filter")])
  }

  func test_filterOnFilter_fuses() {
    let fused: Publishers.Filter<Publishers.Sequence<ClosedRange<Int>, Never>> =
      Publishers.Filter(upstream: (1...20).publisher) { $0.isMultiple(of: 2) }.filter { $0.isMultiple(of: 3) }
    let subscriber = TestSubscriber<Int, Never>()
    fused.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [6, 12, 18])
  }

  func test_cancelInsideReceive_stopsUpstream() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in subscriber.cancel(); return .none }
    Publishers.Filter(upstream: (1...5).publisher) { _ in true }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Filter"), .value(1)])
  }

  func test_requestAfterCancel_isIgnored() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Publishers.Filter(upstream: (1...5).publisher) { _ in true }.subscribe(subscriber)
    let subscription = subscriber.subscription
    subscriber.cancel()
    subscription?.request(.max(3))
    XCTAssertEqual(subscriber.events, [.subscription("Filter")])
  }

  func test_cancel_freesTheChain() {
    let tracker = LifetimeTracker()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    do {
      let probe = tracker.make()
      Publishers.Filter(upstream: (1...5).publisher) { $0 > probe.id }.subscribe(subscriber)
    }
    var subscription = subscriber.subscription as AnyObject?
    subscriber.cancel()
    assertReleased(&subscription)
    XCTAssertEqual(tracker.liveCount, 0)
  }
}
