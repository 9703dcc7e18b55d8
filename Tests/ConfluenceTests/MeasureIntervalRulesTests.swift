import Confluence
import ConfluenceTesting
import XCTest

/// Apple's rules for `measureInterval(using:)`: where downstream's further demand goes,
/// what a cancel stops, and how it reflects.
final class MeasureIntervalRulesTests: XCTestCase {
  func test_demandReturnedForAValue_isRequestedFromUpstream_andNoneIsReturned() {
    let scheduler = VirtualTimeScheduler()
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<VirtualTimeInterval, TestError>(initialDemand: .max(1), demandPerValue: .max(2))
    upstream.measureInterval(using: scheduler).subscribe(subscriber)
    let subscription = upstream.attach()
    scheduler.advance(by: 4)
    XCTAssertEqual(upstream.send(1), .none)
    XCTAssertEqual(subscriber.values, [4])
    XCTAssertEqual(subscription.events, [.requested(.max(1)), .requested(.max(2))])
  }

  func test_afterCancel_nothingIsDelivered() {
    let scheduler = VirtualTimeScheduler()
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<VirtualTimeInterval, TestError>()
    upstream.measureInterval(using: scheduler).subscribe(subscriber)
    let subscription = upstream.attach()
    subscriber.cancel()
    XCTAssertEqual(upstream.send(1), .none)
    upstream.send(completion: .finished)
    XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled])
    XCTAssertEqual(subscriber.values, [])
  }

  func test_cancelBeforeTheSubscription_isIgnored() {
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<VirtualTimeInterval, TestError>(initialDemand: .max(5))
    upstream.measureInterval(using: VirtualTimeScheduler()).subscribe(subscriber)
    upstream.operatorSubscription?.cancel()
    let subscription = upstream.attach()
    XCTAssertEqual(subscription.events, [.requested(.max(5))])
  }

  func test_reflection_describesItself_withNoMirrorChildren() {
    let upstream = DetachedUpstream<Int, TestError>()
    upstream.measureInterval(using: VirtualTimeScheduler()).subscribe(TestSubscriber<VirtualTimeInterval, TestError>())
    XCTAssertEqual((upstream.operatorSubscriber as? CustomStringConvertible)?.description, "MeasureInterval")
    XCTAssertEqual((upstream.operatorSubscriber as? CustomReflectable)?.customMirror.children.count, 0)
  }
}
