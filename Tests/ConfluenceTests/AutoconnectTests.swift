import Confluence
import ConfluenceTesting
import Foundation
import Synchronization
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

  /// A subscriber that arrives on another thread while the first one's `connect()` is still
  /// running joins that connection: upstream is connected once. (Both once connected.)
  func test_subscriberOnAnotherThread_duringConnect_joinsTheConnection() {
    let upstream = BlockingConnectable()
    let auto = Unchecked(value: upstream.autoconnect())
    Thread { auto.value.subscribe(TestSubscriber<Int, Never>()) }.start()
    XCTAssertEqual(upstream.connectStarted.wait(timeout: .now() + 10), .success)
    let secondDone = DispatchSemaphore(value: 0)
    Thread {
      auto.value.subscribe(TestSubscriber<Int, Never>())
      secondDone.signal()
    }.start()
    XCTAssertEqual(
      secondDone.wait(timeout: .now() + 10), .success,
      "the second subscriber waited for the first one's connect instead of joining it")
    upstream.releaseConnect.signal()
    XCTAssertEqual(upstream.connectReturned.wait(timeout: .now() + 10), .success)
    XCTAssertEqual(upstream.connections.withLock { $0 }, 1, "upstream connected more than once")
    XCTAssertEqual(upstream.subscribers.withLock { $0 }, 2)
  }

  /// The second subscriber of a connection made on another thread counts: the first one's
  /// cancel leaves the connection to it, and its own cancel ends it.
  func test_subscriberThatJoinedDuringConnect_keepsTheConnectionUntilItCancels() {
    let upstream = BlockingConnectable()
    let auto = Unchecked(value: upstream.autoconnect())
    let firstSubscriber = Unchecked(value: TestSubscriber<Int, Never>())
    let firstSubscribed = DispatchSemaphore(value: 0)
    Thread {
      auto.value.subscribe(firstSubscriber.value)
      firstSubscribed.signal()
    }.start()
    XCTAssertEqual(upstream.connectStarted.wait(timeout: .now() + 10), .success)
    let second = TestSubscriber<Int, Never>()
    auto.value.subscribe(second)
    upstream.releaseConnect.signal()
    XCTAssertEqual(firstSubscribed.wait(timeout: .now() + 10), .success)
    firstSubscriber.value.cancel()
    XCTAssertEqual(upstream.disconnections.withLock { $0 }, 0, "disconnected while a subscriber remained")
    second.cancel()
    XCTAssertEqual(upstream.disconnections.withLock { $0 }, 1)
  }
}

/// A connectable publisher whose first `connect()` blocks until the test lets it return, and
/// which counts its subscribers, connections and disconnections. Its subscribers receive an empty
/// subscription.
private final class BlockingConnectable: ConnectablePublisher, @unchecked Sendable {
  // @unchecked Sendable: the semaphores and counters are thread-safe themselves.
  typealias Output = Int
  typealias Failure = Never

  let connectStarted = DispatchSemaphore(value: 0)
  let releaseConnect = DispatchSemaphore(value: 0)
  let connectReturned = DispatchSemaphore(value: 0)
  let connections = Mutex(0)
  let disconnections = Mutex(0)
  let subscribers = Mutex(0)

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    subscribers.withLock { $0 += 1 }
    subscriber.receive(subscription: Subscriptions.empty)
  }

  /// The first connection blocks until `releaseConnect` is signalled; any later one (a bug
  /// under test) returns at once, so that a failing test fails instead of hanging.
  func connect() -> Cancellable {
    let isFirst = connections.withLock {
      $0 += 1
      return $0 == 1
    }
    if isFirst {
      connectStarted.signal()
      releaseConnect.wait()
      connectReturned.signal()
    }
    return AnyCancellable { [self] in disconnections.withLock { $0 += 1 } }
  }
}
