import Confluence
import ConfluenceTesting
import XCTest

final class ObservableObjectPublisherTests: XCTestCase {
  func test_sendSignalsEverySubscriber() {
    let publisher = ObservableObjectPublisher()
    let first = TestSubscriber<Void, Never>()
    let second = TestSubscriber<Void, Never>()
    publisher.subscribe(first)
    publisher.subscribe(second)
    publisher.send()
    publisher.send()
    XCTAssertEqual(first.eventDescriptions, ["subscription(ObservableObjectPublisher)", "value(())", "value(())"])
    XCTAssertEqual(second.values.count, 2)
    XCTAssertEqual(first.demands, [.unlimited])
  }

  // Apple's ObservableObjectPublisher treats demand as a switch: nothing before the first
  // request, then every signal whatever the amount (an earlier version counted demand).
  func test_demandIsASwitch_nothingBeforeTheFirstRequest_everythingAfter() {
    let publisher = ObservableObjectPublisher()
    var subscription: Subscription?
    var signals = 0
    let subscriber = AnySubscriber<Void, Never>(
      receiveSubscription: { subscription = $0 },
      receiveValue: {
        signals += 1
        return .none
      })
    publisher.subscribe(subscriber)
    publisher.send()
    XCTAssertEqual(signals, 0, "a change signal is not buffered")
    subscription?.request(.max(1))
    XCTAssertEqual(signals, 0)
    publisher.send()
    publisher.send()
    publisher.send()
    XCTAssertEqual(signals, 3)
    subscription?.cancel()
    publisher.send()
    XCTAssertEqual(signals, 3)
  }

  func test_subscriptionMirror_showsOnlyTheDownstream() throws {
    let publisher = ObservableObjectPublisher()
    let subscriber = TestSubscriber<Void, Never>(initialDemand: .none)
    publisher.subscribe(subscriber)
    let subscription = try XCTUnwrap(subscriber.subscription)
    XCTAssertEqual(String(describing: subscription), "ObservableObjectPublisher")
    let children = Mirror(reflecting: subscription).children.map { ($0.label, String(describing: $0.value)) }
    XCTAssertEqual(children.map(\.0), ["downstream"])
    XCTAssertTrue(children.first?.1.contains("TestSubscriber") ?? false)
  }

  func test_cancelInsideReceive_stopsSignals() {
    let publisher = ObservableObjectPublisher()
    let subscriber = TestSubscriber<Void, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel()
      return .none
    }
    publisher.subscribe(subscriber)
    publisher.send()
    publisher.send()
    XCTAssertEqual(subscriber.values.count, 1)
  }

  func test_cancelReleasesSubscriber() {
    let tracker = LifetimeTracker()
    let publisher = ObservableObjectPublisher()
    var count = 0
    let cancellable = publisher.sink { [probe = tracker.make()] in
      _ = probe
      count += 1
    }
    publisher.send()
    cancellable.cancel()
    publisher.send()
    XCTAssertEqual(count, 1)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_publisherWithoutSubscribers_isFreed() {
    var publisher: ObservableObjectPublisher? = ObservableObjectPublisher()
    publisher?.send()
    assertReleased(&publisher)
  }
}
