import Confluence
import ConfluenceTesting
import XCTest

final class AutoconnectTests: XCTestCase {
  func test_connectsOnFirstSubscriber_only() {
    let upstream = ManualPublisher<Int, TestError>()
    let auto = upstream.multicast { PassthroughSubject<Int, TestError>() }.autoconnect()
    XCTAssertEqual(upstream.requested, [])
    let first = TestSubscriber<Int, TestError>()
    auto.subscribe(first)
    XCTAssertEqual(upstream.requested, [.unlimited])
    let second = TestSubscriber<Int, TestError>()
    auto.subscribe(second)
    XCTAssertEqual(upstream.requested, [.unlimited], "one connection for all subscribers")
    upstream.send(7)
    XCTAssertEqual(first.values, [7])
    XCTAssertEqual(second.values, [7])
    XCTAssertEqual(first.subscriptionDescription, "Autoconnect")
  }

  func test_disconnectsWhenTheLastSubscriberCancels_andReconnectsLater() {
    let upstream = ManualPublisher<Int, TestError>()
    let auto = upstream.multicast { PassthroughSubject<Int, TestError>() }.autoconnect()
    let first = TestSubscriber<Int, TestError>()
    let second = TestSubscriber<Int, TestError>()
    auto.subscribe(first)
    auto.subscribe(second)
    first.cancel()
    XCTAssertEqual(upstream.cancels, 0)
    second.cancel()
    XCTAssertEqual(upstream.cancels, 1)
    let third = TestSubscriber<Int, TestError>()
    auto.subscribe(third)
    XCTAssertEqual(upstream.requested, [.unlimited, .unlimited])
  }

  func test_completionDoesNotDisconnect() {
    let upstream = ManualPublisher<Int, TestError>()
    let auto = upstream.multicast { PassthroughSubject<Int, TestError>() }.autoconnect()
    let first = TestSubscriber<Int, TestError>()
    auto.subscribe(first)
    upstream.finish()
    let late = TestSubscriber<Int, TestError>()
    auto.subscribe(late)
    XCTAssertEqual(upstream.requested, [.unlimited], "a late subscriber does not start the work again")
    XCTAssertEqual(late.completion, .finished)
  }

  func test_demandPassesThrough() {
    let auto = (1...5).publisher.makeConnectable().autoconnect()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    auto.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2])
  }
}
