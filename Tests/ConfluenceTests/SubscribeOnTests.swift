import Confluence
import ConfluenceTesting
import XCTest

final class SubscribeOnTests: XCTestCase {
  func test_subscribesOnTheScheduler() {
    let scheduler = VirtualTimeScheduler()
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2].publisher.subscribe(on: scheduler).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [])
    scheduler.advance(by: 0)
    XCTAssertEqual(subscriber.events, [.subscription("SubscribeOn"), .value(1), .value(2), .completion(.finished)])
  }

  func test_requestIsPerformedOnTheScheduler() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    upstream.subscribe(on: scheduler).subscribe(subscriber)
    scheduler.advance(by: 0)
    XCTAssertEqual(upstream.requested, [.max(1)])
    subscriber.request(.max(3))
    XCTAssertEqual(upstream.requested, [.max(1)])
    scheduler.advance(by: 0)
    XCTAssertEqual(upstream.requested, [.max(1), .max(3)])
  }

  func test_cancelIsPerformedOnTheScheduler() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.subscribe(on: scheduler).subscribe(subscriber)
    scheduler.advance(by: 0)
    subscriber.cancel()
    XCTAssertEqual(upstream.cancels, 0)
    scheduler.advance(by: 0)
    XCTAssertEqual(upstream.cancels, 1)
  }

  func test_valuesPassThroughSynchronously() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.subscribe(on: scheduler).subscribe(subscriber)
    scheduler.advance(by: 0)
    upstream.send(7)
    upstream.fail(TestError())
    XCTAssertEqual(subscriber.events, [.subscription("SubscribeOn"), .value(7), .completion(.failure(TestError()))])
  }

  func test_noDemand_thenMaxOne() {
    let scheduler = VirtualTimeScheduler()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    (1...3).publisher.subscribe(on: scheduler).subscribe(subscriber)
    scheduler.run()
    XCTAssertEqual(subscriber.values, [])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [])
    scheduler.run()
    XCTAssertEqual(subscriber.values, [1])
  }

  // Apple: the scheduled cancel holds the subscription, and so the subscriber, until it runs.
  func test_cancel_freesDownstreamOnceTheScheduledCancelRan() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    var subscriber: TestSubscriber<Int, Never>? = TestSubscriber()
    upstream.subscribe(on: scheduler).subscribe(subscriber!)
    scheduler.run()
    subscriber?.cancel()
    upstream.releaseSubscriber()
    weak let weakSubscriber = subscriber
    subscriber = nil
    XCTAssertNotNil(weakSubscriber)
    scheduler.run()
    XCTAssertEqual(upstream.cancels, 1)
    XCTAssertNil(weakSubscriber)
  }

  func test_options_arePassedToTheScheduler() {
    let scheduler = TestScheduler<VirtualTime, String>(now: 0)
    let subscriber = TestSubscriber<Int, Never>()
    Just(1).subscribe(on: scheduler, options: "io").subscribe(subscriber)
    scheduler.run()
    XCTAssertEqual(scheduler.scheduledOptions, ["io", "io"])
    XCTAssertEqual(subscriber.values, [1])
  }
}
