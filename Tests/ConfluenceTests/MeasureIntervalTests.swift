import Confluence
import ConfluenceTesting
import XCTest

final class MeasureIntervalTests: XCTestCase {
  func test_measuresFromSubscription_thenBetweenValues() {
    let scheduler = TestScheduler(initialClock: 0)
    let input: TestablePublisher<String, Never> = scheduler.createRelativeTestablePublisher([
      (100, .input("a")), (250, .input("b")), (600, .input("c")), (650, .completion(.finished)),
    ])
    let results = scheduler.start(cancelledAt: 2_000) { input.measureInterval(using: scheduler) }
    XCTAssertEqual(
      results.recordedOutput,
      [(200, .subscription), (300, .input(100)), (450, .input(150)), (800, .input(350)), (850, .completion(.finished))])
  }

  // Apple's example: a one-second timer measures about one second each time; on virtual
  // time, exactly.
  func test_appleExample_oneSecondTimer() {
    let scheduler = TestScheduler(initialClock: 0)
    let timer: TestablePublisher<Int, Never> = scheduler.createRelativeTestablePublisher(
      TestSequence((1...3).map { (time: VirtualTime(VirtualTimeInterval.seconds($0).ticks), signal: .input($0)) }))
    let subscriber = TestSubscriber<VirtualTimeInterval, Never>()
    timer.measureInterval(using: scheduler).subscribe(subscriber)
    scheduler.run()
    XCTAssertEqual(subscriber.values, [.seconds(1), .seconds(1), .seconds(1)])
    XCTAssertEqual(subscriber.subscriptionDescription, "MeasureInterval")
  }

  func test_passesDemandThrough() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<VirtualTimeInterval, TestError>(initialDemand: .max(1), demandPerValue: .max(2))
    upstream.measureInterval(using: scheduler).subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [.max(1)])
    scheduler.advance(by: 7)
    upstream.send(1)
    XCTAssertEqual(subscriber.values, [7])
    subscriber.request(.max(3))
    // As Apple's: the demand returned for the value is requested, not returned, upstream.
    XCTAssertEqual(upstream.requested, [.max(1), .max(2), .max(3)])
    upstream.fail(TestError())
    XCTAssertEqual(subscriber.completion, .failure(TestError()))
  }

  func test_cancel_cancelsUpstream_andFreesTheChain() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<VirtualTimeInterval, Never>()
    upstream.measureInterval(using: scheduler).subscribe(subscriber)
    var subscription = subscriber.subscription as AnyObject?
    subscriber.cancel()
    upstream.releaseSubscriber()
    XCTAssertEqual(upstream.cancels, 1)
    assertReleased(&subscription)
  }
}
