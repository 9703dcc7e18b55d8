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
    // As Apple's: the relay shows the upstream subscription's description (here Multicast's per-subscriber relay).
    XCTAssertEqual(first.subscriptionDescription, "Multicast")
  }

  // Apple's relay forwards a completion without ending the subscription: the subscriber
  // still counts towards the connection until it cancels.
  func test_completionDoesNotDisconnect_theLastCancelDoes() {
    var connections = 0
    let subject = PassthroughSubject<Int, Never>()
    let auto = Deferred { () -> PassthroughSubject<Int, Never> in
      connections += 1
      return subject
    }.makeConnectable().autoconnect()
    var kept: [Subscription] = []
    for _ in 0..<2 {
      let subscriber = TestSubscriber<Int, Never>()
      subscriber.onSubscription = { kept.append($0) }
      auto.subscribe(subscriber)
    }
    subject.send(completion: .finished)
    XCTAssertEqual(connections, 1)
    kept[0].cancel()
    kept[1].cancel()
    kept[1].cancel()  // a second cancel does not count twice
    // Both cancelled after the completion, so the connection went: a new subscriber connects again.
    auto.subscribe(TestSubscriber<Int, Never>())
    XCTAssertEqual(connections, 2)
  }
}
