import Confluence
import ConfluenceTesting
import XCTest

final class PrefixUntilOutputTests: XCTestCase {
  func test_republishesUntilTheOtherPublisherEmits() {
    let upstream = ManualPublisher<Int, TestError>()
    let trigger = ManualPublisher<Bool, Never>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    trigger.send(true)
    upstream.send(3)
    XCTAssertEqual(
      subscriber.events, [.subscription("PrefixUntilOutput"), .value(1), .value(2), .completion(.finished)])
    XCTAssertEqual(upstream.cancels, 1)
    XCTAssertEqual(trigger.cancels, 1)
  }

  func test_triggerCompletion_isIgnored() {
    let upstream = ManualPublisher<Int, TestError>()
    let trigger = ManualPublisher<Bool, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
    trigger.fail(TestError("ignored"))
    upstream.send(1)
    upstream.finish()
    XCTAssertEqual(subscriber.events, [.subscription("PrefixUntilOutput"), .value(1), .completion(.finished)])
  }

  func test_demandPassesThrough() {
    let upstream = ManualPublisher<Int, Never>()
    let trigger = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
    upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
    subscriber.request(.max(2))
    XCTAssertEqual(upstream.requested, [.max(3), .max(2)])
  }

  func test_triggerFiringWhileDelivering_finishesAfterTheValue() {
    let upstream = ManualPublisher<Int, Never>()
    let trigger = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in trigger.send(0); return .none }
    upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
    upstream.send(1)
    XCTAssertEqual(subscriber.events, [.subscription("PrefixUntilOutput"), .value(1), .completion(.finished)])
  }

  func test_synchronousUpstream_finishesNormally() {
    let subscriber = TestSubscriber<Int, Never>()
    (1...3).publisher.prefix(untilOutputFrom: ManualPublisher<Int, Never>()).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2, 3])
    XCTAssertEqual(subscriber.completion, .finished)
  }
}
