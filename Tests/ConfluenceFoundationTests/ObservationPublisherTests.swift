import Confluence
import ConfluenceFoundation
import ConfluenceTesting
import Foundation
import Observation
import Synchronization
import XCTest

/// `observationPublisher(for:options:)` on `@Observable` objects, checked against the
/// outputs the key-value observing chapter of "Combine in Action" prints.
final class ObservationPublisherTests: XCTestCase {
  @Observable final class TestObject: @unchecked Sendable {
    // @unchecked Sendable: the threaded test writes `integerProperty` from several threads
    // under `writeLock`; the others use one thread.
    var integerProperty = 0
    var stringProperty = ""
    var arrayProperty: [Float] = []
    @ObservationIgnored let writeLock = NSLock()
  }

  func test_chapterExample_initialValueThenEachChange() {
    let object = TestObject()
    var printed: [String] = []
    let subscription = object.observationPublisher(for: \.integerProperty)
      .sink { printed.append("integerProperty changes to \($0)") }
    object.integerProperty = 100
    object.integerProperty = 200
    XCTAssertEqual(
      printed,
      ["integerProperty changes to 0", "integerProperty changes to 100", "integerProperty changes to 200"])
    subscription.cancel()
  }

  func test_chapterExample_severalProperties_eachSeesOnlyItsOwn() {
    let object = TestObject()
    var printed: [String] = []
    let subscriptions = [
      object.observationPublisher(for: \.stringProperty).sink { printed.append("stringProperty changes to \($0)") },
      object.observationPublisher(for: \.arrayProperty).sink { printed.append("arrayProperty changes to \($0)") },
    ]
    object.stringProperty = "Hello"
    object.arrayProperty = [1.0]
    object.stringProperty = "World"
    object.arrayProperty = [1.0, 2.0]
    XCTAssertEqual(
      printed,
      [
        "stringProperty changes to ", "arrayProperty changes to []", "stringProperty changes to Hello",
        "arrayProperty changes to [1.0]", "stringProperty changes to World", "arrayProperty changes to [1.0, 2.0]",
      ])
    subscriptions.forEach { $0.cancel() }
  }

  func test_noOptions_changesOnly() {
    let object = TestObject()
    var received: [String] = []
    let subscription = object.observationPublisher(for: \.stringProperty, options: []).sink { received.append($0) }
    object.stringProperty = "a"
    XCTAssertEqual(received, ["a"])
    subscription.cancel()
  }

  func test_chapterExample_prior_publishesOldThenNew() {
    let object = TestObject()
    var printed: [String] = []
    let subscription = object.observationPublisher(for: \.integerProperty, options: [.prior])
      .sink { printed.append("integerProperty changes to \($0)") }
    object.integerProperty = 100
    object.integerProperty = 200
    XCTAssertEqual(
      printed,
      [
        "integerProperty changes to 0", "integerProperty changes to 100", "integerProperty changes to 100",
        "integerProperty changes to 200",
      ])
    subscription.cancel()
  }

  func test_cancel_stopsDelivery() {
    let object = TestObject()
    let subscriber = TestSubscriber<Int, Never>()
    object.observationPublisher(for: \.integerProperty).subscribe(subscriber)
    object.integerProperty = 1
    subscriber.cancel()
    object.integerProperty = 2
    object.integerProperty = 3
    XCTAssertEqual(subscriber.values, [0, 1])
    XCTAssertEqual(subscriber.violations, [])
  }

  func test_demand_valuesWithoutDemandAreDropped() {
    let object = TestObject()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    object.observationPublisher(for: \.integerProperty).subscribe(subscriber)
    object.integerProperty = 1
    object.integerProperty = 2
    subscriber.request(.max(1))
    object.integerProperty = 3
    XCTAssertEqual(subscriber.values, [0, 1, 3])
  }

  func test_changesFromSeveralThreads_everyOneSeen_oneAtATime() {
    let object = TestObject()
    let inside = Mutex(0)
    let overlaps = Mutex(0)
    let count = Mutex(0)
    let subscription = object.observationPublisher(for: \.integerProperty, options: []).sink { _ in
      if inside.withLock({
        $0 += 1; return $0
      }) > 1 {
        overlaps.withLock { $0 += 1 }
      }
      count.withLock { $0 += 1 }
      inside.withLock { $0 -= 1 }
    }
    DispatchQueue.concurrentPerform(iterations: 300) { n in
      // n + 1: an @Observable setter does not notify when the value does not change.
      object.writeLock.withLock { object.integerProperty = n + 1 }
    }
    XCTAssertEqual(count.withLock { $0 }, 300, "no change missed")
    XCTAssertEqual(overlaps.withLock { $0 }, 0)
    subscription.cancel()
  }
}
