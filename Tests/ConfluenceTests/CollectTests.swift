import Confluence
import ConfluenceTesting
import XCTest

final class CollectTests: XCTestCase {
  func test_publishesArrayThenFinishes_unlimitedDemand() {
    let subscriber = TestSubscriber<[Int], Never>()
    [1, 2, 3].genericPublisher.collect().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Collect"), .value([1, 2, 3]), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_appleExample_collectsRange() {
    var received: [[Int]] = []
    _ = (0...10).genericPublisher.collect().sink { received.append($0) }
    XCTAssertEqual(received, [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]])
  }

  func test_requestsUnlimitedUpstream_assoonAsSubscribed() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .none)
    upstream.collect().subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [.unlimited], "asked before downstream asks, as Apple's")
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requests, [.unlimited])
    subscriber.request(.max(2))
    XCTAssertEqual(upstream.requests, [.unlimited], "later downstream demand is not forwarded")
    XCTAssertEqual(upstream.send(1), .none)
    XCTAssertEqual(upstream.send(2), .none)
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("Collect"), .value([1, 2]), .completion(.finished)])
  }

  func test_holdsResultUntilDemand_upstreamFinishesUnasked() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .none)
    upstream.collect().subscribe(subscriber)
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("Collect")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("Collect"), .value([]), .completion(.finished)])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [[]])
    XCTAssertEqual(upstream.requests, [.unlimited], "asked once, at subscription; never again")
  }

  func test_publishesAtOnce_demandBeforeFinish_max1() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .max(1))
    upstream.collect().subscribe(subscriber)
    upstream.send(7)
    XCTAssertEqual(subscriber.events, [.subscription("Collect")])
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("Collect"), .value([7]), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.max(1)])
  }

  func test_emptyUpstream_publishesEmptyArray() {
    let subscriber = TestSubscriber<[Int], Never>()
    [Int]().genericPublisher.collect().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Collect"), .value([]), .completion(.finished)])
  }

  func test_upstreamFailure_forwardsFailureAndDropsValues() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<[Int], TestError>()
    upstream.collect().subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(subscriber.events, [.subscription("Collect"), .completion(.failure(TestError("boom")))])
  }

  func test_upstreamFailure_isDeliveredWithoutDemand() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .none)
    upstream.collect().subscribe(subscriber)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(subscriber.events, [.subscription("Collect"), .completion(.failure(TestError()))])
  }

  func test_cancelBeforeCompletion_cancelsUpstreamAndSendsNothing() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<[Int], TestError>()
    upstream.collect().subscribe(subscriber)
    upstream.send(1)
    subscriber.cancel()
    XCTAssertEqual(upstream.cancelCount, 1)
    upstream.send(2)
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("Collect")])
  }

  func test_cancelWhileHoldingResult_sendsNothing() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .none)
    upstream.collect().subscribe(subscriber)
    upstream.send(completion: .finished)
    subscriber.cancel()
    XCTAssertEqual(upstream.cancelCount, 0, "a finished upstream is not cancelled")
    XCTAssertEqual(subscriber.events, [.subscription("Collect")])
  }

  func test_cancelInsideReceive_skipsFinished() {
    let subscriber = TestSubscriber<[Int], Never>()
    subscriber.onValue = { _ in
      subscriber.cancel()
      return .none
    }
    [1, 2].genericPublisher.collect().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Collect"), .value([1, 2])])
  }

  func test_requestInsideReceive_isHarmless() {
    let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
    subscriber.onValue = { _ in
      subscriber.request(.max(3))
      return .max(1)
    }
    [1].genericPublisher.collect().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Collect"), .value([1]), .completion(.finished)])
  }

  func test_cancelFromSubscription_cancelsUpstreamBeforeTheUnlimitedRequest() {
    // As Apple's, the `.unlimited` request follows downstream's receive(subscription:)
    // unconditionally; after the cancel, upstream ignores it.
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .none)
    subscriber.onSubscription = { $0.cancel() }
    upstream.collect().subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [.unlimited])
    XCTAssertEqual(upstream.cancelCount, 1)
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("Collect")])
  }

  func test_description_isCollect() {
    let subscriber = TestSubscriber<[Int], Never>(initialDemand: .none)
    Publishers.Collect(upstream: Just(1)).subscribe(subscriber)
    let subscription = subscriber.subscription
    XCTAssertEqual(subscription.map { String(describing: $0) }, "Collect")
    XCTAssertEqual((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, "Collect")
  }

  func test_completionAndCancel_releaseTheSubscription() {
    let upstream = ScriptedPublisher<Int, TestError>()
    var subscriber: TestSubscriber<[Int], TestError>? = TestSubscriber()
    upstream.collect().subscribe(subscriber!)
    weak let subscription = subscriber!.subscription as AnyObject?
    XCTAssertNotNil(subscription)
    upstream.send(completion: .finished)
    subscriber = nil
    XCTAssertNil(subscription)

    let cancelled = TestSubscriber<[Int], TestError>()
    upstream.collect().subscribe(cancelled)
    weak let second = cancelled.subscription as AnyObject?
    cancelled.cancel()
    XCTAssertNil(second)
    XCTAssertFalse(upstream.holdsSubscriber)
  }

  func test_equatable() {
    XCTAssertEqual(Publishers.Collect(upstream: Just(1)), Publishers.Collect(upstream: Just(1)))
    XCTAssertNotEqual(Publishers.Collect(upstream: Just(1)), Publishers.Collect(upstream: Just(2)))
  }
}
