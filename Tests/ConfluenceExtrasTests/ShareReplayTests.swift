import Confluence
import ConfluenceExtras
import ConfluenceTesting
import XCTest

final class ShareReplayTests: XCTestCase {
  private typealias Source = ManualPublisher<Int, TestError>

  func test_subscribesUpstreamOnce_andReplaysTheLatestValuesToLaterSubscribers() {
    let upstream = Source()
    let shared = upstream.share(replay: 2)
    let first = TestSubscriber<Int, TestError>()
    shared.subscribe(first)
    for value in 1...3 { upstream.send(value) }
    let second = TestSubscriber<Int, TestError>()
    shared.subscribe(second)
    upstream.send(4)

    XCTAssertEqual(upstream.subscriptionCount, 1)
    XCTAssertEqual(upstream.demands, [.unlimited])
    XCTAssertEqual(first.events, [.subscription("Multicast"), .value(1), .value(2), .value(3), .value(4)])
    XCTAssertEqual(second.events, [.subscription("Multicast"), .value(2), .value(3), .value(4)])
  }

  func test_afterUpstreamCompletes_laterSubscribersGetTheReplayAndCompletion_withoutResubscribing() {
    let upstream = Source()
    let shared = upstream.share(replay: 1)
    let first = TestSubscriber<Int, TestError>()
    shared.subscribe(first)
    upstream.send(1)
    upstream.send(completion: .finished)
    let second = TestSubscriber<Int, TestError>()
    shared.subscribe(second)
    XCTAssertEqual(upstream.subscriptionCount, 1)
    XCTAssertEqual(second.events, [.subscription("Multicast"), .value(1), .completion(.finished)])
  }

  func test_upstreamFailure_reachesCurrentAndLaterSubscribers() {
    let upstream = Source()
    let shared = upstream.share(replay: 1)
    let first = TestSubscriber<Int, TestError>()
    shared.subscribe(first)
    upstream.send(1)
    upstream.send(completion: .failure(TestError("boom")))
    let second = TestSubscriber<Int, TestError>()
    shared.subscribe(second)
    XCTAssertEqual(first.completion, .failure(TestError("boom")))
    XCTAssertEqual(second.events, [.subscription("Multicast"), .value(1), .completion(.failure(TestError("boom")))])
  }

  func test_eachSubscribersDemandIsHonouredSeparately() {
    let upstream = Source()
    let shared = upstream.share(replay: 5)
    let eager = TestSubscriber<Int, TestError>()
    let slow = TestSubscriber<Int, TestError>(initialDemand: .max(1))
    shared.subscribe(eager)
    shared.subscribe(slow)
    for value in 1...3 { upstream.send(value) }
    XCTAssertEqual(eager.values, [1, 2, 3])
    XCTAssertEqual(slow.values, [1])
    slow.request(.max(2))
    XCTAssertEqual(slow.values, [1, 2, 3])
  }

  func test_whenEverySubscriberCancels_upstreamIsCancelled_andANewSubscriberReconnects() {
    let upstream = Source()
    let shared = upstream.share(replay: 1)
    let first = TestSubscriber<Int, TestError>()
    let second = TestSubscriber<Int, TestError>()
    shared.subscribe(first)
    shared.subscribe(second)
    upstream.send(1)
    first.cancel()
    XCTAssertFalse(upstream.isCancelled, "one subscriber is left")
    second.cancel()
    XCTAssertTrue(upstream.isCancelled)

    let third = TestSubscriber<Int, TestError>()
    shared.subscribe(third)
    XCTAssertEqual(upstream.subscriptionCount, 2)
    upstream.send(2)
    XCTAssertEqual(third.values, [1, 2], "the old replay, then the new connection's values")
  }

  func test_cancelInsideReceive_leavesOtherSubscribersRunning() {
    let upstream = Source()
    let shared = upstream.share(replay: 1)
    let cancelling = TestSubscriber<Int, TestError>()
    let staying = TestSubscriber<Int, TestError>()
    cancelling.onValue = { [unowned cancelling] _ in
      cancelling.cancel()
      return .none
    }
    shared.subscribe(cancelling)
    shared.subscribe(staying)
    upstream.send(1)
    upstream.send(2)
    XCTAssertEqual(cancelling.values, [1])
    XCTAssertEqual(staying.values, [1, 2])
    XCTAssertFalse(upstream.isCancelled)
  }

  func test_lifetime_cancellingEverySubscriberFreesTheChain() {
    let tracker = LifetimeTracker()
    let upstream = ManualPublisher<TrackedValue, TestError>()
    weak var weakSubscriber: TestSubscriber<TrackedValue, TestError>?
    weak var weakShared: AnyObject?
    do {
      let shared = upstream.share(replay: 1)
      weakShared = shared
      let subscriber = TestSubscriber<TrackedValue, TestError>()
      weakSubscriber = subscriber
      shared.subscribe(subscriber)
      upstream.send(TrackedValue(1, tracker))
      subscriber.cancel()
    }
    XCTAssertTrue(upstream.isCancelled)
    XCTAssertFalse(upstream.hasSubscriber)
    XCTAssertNil(weakSubscriber)
    XCTAssertNil(weakShared, "the shared publisher, its subject and replay buffer leaked")
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_lifetime_upstreamCompletionFreesSubscribers() {
    let upstream = Source()
    weak var weakSubscriber: TestSubscriber<Int, TestError>?
    weak var weakShared: AnyObject?
    do {
      let shared = upstream.share(replay: 1)
      weakShared = shared
      let subscriber = TestSubscriber<Int, TestError>()
      weakSubscriber = subscriber
      shared.subscribe(subscriber)
      upstream.send(1)
      upstream.send(completion: .finished)
    }
    XCTAssertNil(weakSubscriber)
    XCTAssertNil(weakShared)
  }
}
