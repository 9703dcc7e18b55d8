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

  func test_signalWithoutDemand_isDropped() {
    let publisher = ObservableObjectPublisher()
    let subscriber = TestSubscriber<Void, Never>(initialDemand: .none)
    publisher.subscribe(subscriber)
    publisher.send()
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values.count, 0, "a change signal is not buffered")
    publisher.send()
    publisher.send()
    XCTAssertEqual(subscriber.values.count, 1)
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
