import Confluence
import ConfluenceTesting
import XCTest

/// Apple's edge rules for `subscribe(on:)`: what its scheduled requests and cancels hold,
/// what it keeps after a cancel, and how it reflects.
final class SubscribeOnRulesTests: XCTestCase {
  func test_cancelBeforeTheSubscription_isIgnored() {
    let scheduler = VirtualTimeScheduler()
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3))
    upstream.subscribe(on: scheduler).subscribe(subscriber)
    _ = scheduler.run()
    upstream.operatorSubscription?.cancel()
    let subscription = upstream.attach()
    _ = scheduler.run()
    XCTAssertEqual(subscription.events, [.requested(.max(3))], "the late subscription is taken as usual")
  }

  func test_aScheduledRequest_runsEvenAfterACancel_andHoldsTheSubscriberUntilThen() {
    let scheduler = VirtualTimeScheduler()
    let upstream = DetachedUpstream<Int, TestError>()
    var subscriber: TestSubscriber<Int, TestError>? = TestSubscriber(initialDemand: .none)
    upstream.subscribe(on: scheduler).subscribe(subscriber!)
    _ = scheduler.run()
    let subscription = upstream.attach()
    subscriber?.request(.max(1))
    subscriber?.cancel()
    weak let released = subscriber
    subscriber = nil
    XCTAssertEqual(subscription.events, [])
    XCTAssertNotNil(released, "the scheduled actions hold it")
    _ = scheduler.run()
    XCTAssertEqual(subscription.events, [.requested(.max(1)), .cancelled])
  }

  func test_cancel_doesNotLetGoOfTheSubscriber() {
    let scheduler = VirtualTimeScheduler()
    let upstream = DetachedUpstream<Int, TestError>()
    var subscriber: TestSubscriber<Int, TestError>? = TestSubscriber()
    upstream.subscribe(on: scheduler).subscribe(subscriber!)
    _ = scheduler.run()
    _ = upstream.attach()
    let operatorSubscription = upstream.operatorSubscription
    operatorSubscription?.cancel()
    _ = scheduler.run()
    weak let released = subscriber
    subscriber = nil
    XCTAssertNotNil(released, "the subscription still holds its downstream")
    withExtendedLifetime(operatorSubscription) {}
  }

  func test_reflection_describesItself_withNoMirrorChildren() {
    let upstream = DetachedUpstream<Int, TestError>()
    upstream.subscribe(on: ImmediateScheduler.shared).subscribe(TestSubscriber<Int, TestError>())
    XCTAssertEqual((upstream.operatorSubscriber as? CustomStringConvertible)?.description, "SubscribeOn")
    XCTAssertEqual((upstream.operatorSubscriber as? CustomReflectable)?.customMirror.children.count, 0)
    XCTAssertEqual(
      (upstream.operatorSubscriber as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String,
      "SubscribeOn")
  }
}
