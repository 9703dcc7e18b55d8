import Confluence
import ConfluenceTesting
import XCTest

/// The test kit must catch every contract violation it promises to catch.
final class TestSubscriberTests: XCTestCase {
  private func makeSubscriber(initialDemand: Subscribers.Demand = .max(1)) -> (
    TestSubscriber<Int, TestError>, () -> [String]
  ) {
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: initialDemand)
    var seen: [String] = []
    subscriber.onViolation = { seen.append($0) }
    return (subscriber, { seen })
  }

  func test_valueBeyondDemand_isViolation() {
    let (subscriber, seen) = makeSubscriber()
    subscriber.receive(subscription: DemandProbe())
    _ = subscriber.receive(1)
    _ = subscriber.receive(2)
    XCTAssertEqual(seen().count, 1)
    XCTAssertTrue(seen()[0].contains("beyond the demand"), seen()[0])
  }

  func test_secondSubscription_isViolation_andCancelled() {
    let (subscriber, seen) = makeSubscriber()
    let second = DemandProbe()
    subscriber.receive(subscription: DemandProbe())
    subscriber.receive(subscription: second)
    XCTAssertEqual(seen().count, 1)
    XCTAssertEqual(second.cancels, 1)
  }

  func test_eventsAfterCompletion_areViolations() {
    let (subscriber, seen) = makeSubscriber(initialDemand: .unlimited)
    subscriber.receive(subscription: DemandProbe())
    subscriber.receive(completion: .finished)
    _ = subscriber.receive(1)
    subscriber.receive(completion: .failure(TestError()))
    XCTAssertEqual(seen().count, 2)
  }

  func test_valueAfterCancel_isViolation_whenStrict() {
    let (subscriber, seen) = makeSubscriber(initialDemand: .unlimited)
    subscriber.receive(subscription: DemandProbe())
    subscriber.cancel()
    _ = subscriber.receive(1)
    XCTAssertEqual(seen().count, 1)
  }

  func test_valueBeforeSubscription_isViolation() {
    let (subscriber, seen) = makeSubscriber()
    _ = subscriber.receive(1)
    XCTAssertEqual(seen().count, 1)
  }

  func test_recordsDemandHistory_andForwardsRequests() {
    let probe = DemandProbe()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2), demandPerValue: .max(1))
    subscriber.receive(subscription: probe)
    XCTAssertEqual(subscriber.receive(5), .max(1))
    subscriber.request(.max(3))
    XCTAssertEqual(subscriber.demands, [.max(2), .max(1), .max(3)])
    XCTAssertEqual(probe.requests, [.max(2), .max(3)])
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(DemandProbe)", "value(5)"])
    XCTAssertTrue(subscriber.violations.isEmpty)
  }

  func test_lifetimeTracker_countsLiveObjects() {
    let tracker = LifetimeTracker()
    var objects = [tracker.make(), tracker.make()]
    XCTAssertEqual(tracker.liveCount, 2)
    objects.removeLast()
    XCTAssertEqual(tracker.liveCount, 1)
    objects.removeAll()
    XCTAssertEqual(tracker.liveCount, 0)
    XCTAssertEqual(tracker.madeCount, 2)
  }
}
