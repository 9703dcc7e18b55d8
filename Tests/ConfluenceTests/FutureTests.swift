import Confluence
import ConfluenceTesting
import Dispatch
import XCTest

final class FutureTests: XCTestCase {
  /// A future whose promise the test fulfils later.
  private func makePending<Output, Failure: Error>(
    _: Output.Type = Output.self, _: Failure.Type = Failure.self
  ) -> (Future<Output, Failure>, Future<Output, Failure>.Promise) {
    var captured: Future<Output, Failure>.Promise?
    let future = Future<Output, Failure> { captured = $0 }
    return (future, captured!)
  }

  // MARK: Fulfilment and demand

  func test_fulfilledBeforeSubscription_replaysValueThenFinishes() {
    let future = Future<Int, Never> { $0(.success(1)) }
    let subscriber = TestSubscriber<Int, Never>()
    future.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Future"), .value(1), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_fulfilledAfterSubscription_deliversWhenFulfilled() {
    let (future, promise) = makePending(Int.self, TestError.self)
    let subscriber = TestSubscriber<Int, TestError>()
    future.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Future")])
    promise(.success(2))
    XCTAssertEqual(subscriber.events, [.subscription("Future"), .value(2), .completion(.finished)])
  }

  func test_failureBeforeSubscription_failsWithoutDemand() {
    let future = Future<Int, TestError> { $0(.failure(TestError("early"))) }
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    future.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Future"), .completion(.failure(TestError("early")))])
    XCTAssertEqual(subscriber.demands, [])
  }

  func test_failureAfterSubscription_failsWithoutDemand() {
    let (future, promise) = makePending(Int.self, TestError.self)
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    future.subscribe(subscriber)
    promise(.failure(TestError("late")))
    XCTAssertEqual(subscriber.events, [.subscription("Future"), .completion(.failure(TestError("late")))])
  }

  func test_successWaitsForDemand_noneThenMaxOneThenMore() {
    let (future, promise) = makePending(Int.self, TestError.self)
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    future.subscribe(subscriber)
    promise(.success(3))
    XCTAssertEqual(subscriber.events, [.subscription("Future")])
    let subscription = subscriber.subscription
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("Future"), .value(3), .completion(.finished)])
    subscription?.request(.max(2))
    XCTAssertEqual(subscriber.events, [.subscription("Future"), .value(3), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.max(1)])
  }

  func test_demandBeforeFulfilment_deliversOnFulfilment() {
    let (future, promise) = makePending(Int.self, Never.self)
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    future.subscribe(subscriber)
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("Future")])
    promise(.success(4))
    XCTAssertEqual(subscriber.events, [.subscription("Future"), .value(4), .completion(.finished)])
  }

  func test_fulfilledTwice_secondIgnored() {
    let (future, promise) = makePending(Int.self, TestError.self)
    let early = TestSubscriber<Int, TestError>()
    future.subscribe(early)
    promise(.success(1))
    promise(.success(2))
    promise(.failure(TestError()))
    let late = TestSubscriber<Int, TestError>()
    future.subscribe(late)
    XCTAssertEqual(early.events, [.subscription("Future"), .value(1), .completion(.finished)])
    XCTAssertEqual(late.events, [.subscription("Future"), .value(1), .completion(.finished)])
  }

  func test_fulfilledTwiceInsideClosure_firstCounts() {
    let future = Future<Int, TestError> { promise in
      promise(.failure(TestError("first")))
      promise(.success(1))
    }
    let subscriber = TestSubscriber<Int, TestError>()
    future.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Future"), .completion(.failure(TestError("first")))])
  }

  func test_closureRunsOnceAtCreation_notPerSubscriber() {
    var runs = 0
    let future = Future<Int, Never> { promise in
      runs += 1
      promise(.success(runs))
    }
    XCTAssertEqual(runs, 1)
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    future.subscribe(first)
    future.subscribe(second)
    XCTAssertEqual(runs, 1)
    XCTAssertEqual(first.values, [1])
    XCTAssertEqual(second.values, [1])
  }

  func test_manySubscribers_eachGetsResultOnItsOwnDemand() {
    let (future, promise) = makePending(String.self, Never.self)
    let eager = TestSubscriber<String, Never>()
    let lazy = TestSubscriber<String, Never>(initialDemand: .none)
    future.subscribe(eager)
    future.subscribe(lazy)
    promise(.success("done"))
    XCTAssertEqual(eager.events, [.subscription("Future"), .value("done"), .completion(.finished)])
    XCTAssertEqual(lazy.events, [.subscription("Future")])
    lazy.request(.max(1))
    XCTAssertEqual(lazy.events, [.subscription("Future"), .value("done"), .completion(.finished)])
  }

  // MARK: Cancellation

  func test_cancelBeforeFulfilment_sendsNothing() {
    let (future, promise) = makePending(Int.self, TestError.self)
    let subscriber = TestSubscriber<Int, TestError>()
    future.subscribe(subscriber)
    subscriber.cancel()
    promise(.success(1))
    XCTAssertEqual(subscriber.events, [.subscription("Future")])
  }

  func test_cancelBeforeDemand_afterFulfilment_sendsNothing() {
    let future = Future<Int, Never> { $0(.success(1)) }
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    future.subscribe(subscriber)
    subscriber.cancel()
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("Future")])
  }

  func test_cancelInsideReceiveSubscription_sendsNothing() {
    let future = Future<Int, TestError> { $0(.failure(TestError())) }
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    subscriber.onSubscription = { _ in subscriber.cancel() }
    future.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Future")])
  }

  func test_cancelInsideReceive_completesOnce() {
    let future = Future<Int, Never> { $0(.success(1)) }
    let subscriber = TestSubscriber<Int, Never>(strictCancellation: false)
    subscriber.onValue = { _ in
      subscriber.cancel()
      return .none
    }
    future.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertEqual(subscriber.violations, [])
  }

  // MARK: Threads

  func test_promiseFulfilledFromAnotherThread_delivers() {
    let (future, promise) = makePending(Int.self, Never.self)
    let subscriber = TestSubscriber<Int, Never>()
    future.subscribe(subscriber)
    let fulfil = promise
    let done = DispatchGroup()
    DispatchQueue.global().async(group: done) { fulfil(.success(7)) }
    done.wait()
    XCTAssertEqual(subscriber.events, [.subscription("Future"), .value(7), .completion(.finished)])
  }

  func test_promiseFulfilledConcurrently_onlyFirstCounts() {
    let (future, promise) = makePending(Int.self, Never.self)
    let early = TestSubscriber<Int, Never>()
    future.subscribe(early)
    let fulfil = promise
    DispatchQueue.concurrentPerform(iterations: 16) { fulfil(.success($0)) }
    let late = TestSubscriber<Int, Never>()
    future.subscribe(late)
    XCTAssertEqual(early.values.count, 1)
    XCTAssertEqual(early.completion, .finished)
    XCTAssertEqual(late.values, early.values)
    XCTAssertEqual(early.violations, [])
  }

  // MARK: Lifetime

  func test_closureReleasedAfterCreation() {
    let tracker = LifetimeTracker()
    let future = Future<Int, Never> { [probe = tracker.make()] promise in
      promise(.success(probe.id))
    }
    XCTAssertEqual(tracker.liveCount, 0)
    let subscriber = TestSubscriber<Int, Never>()
    future.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1])
  }

  func test_cancel_releasesSubscriber() {
    let tracker = LifetimeTracker()
    let (future, promise) = makePending(Int.self, Never.self)
    var subscription: Subscription?
    do {
      let probe = tracker.make()
      future.subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: { subscription = $0 },
          receiveValue: { [probe] _ in
            _ = probe
            return .none
          }))
    }
    XCTAssertEqual(tracker.liveCount, 1)
    subscription?.cancel()
    XCTAssertEqual(tracker.liveCount, 0, "the future still retains a cancelled subscriber")
    promise(.success(1))
  }

  func test_delivery_releasesSubscriber() {
    let tracker = LifetimeTracker()
    let (future, promise) = makePending(Int.self, Never.self)
    var subscription: Subscription?
    do {
      let probe = tracker.make()
      future.subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: {
            subscription = $0
            $0.request(.max(1))
          },
          receiveValue: { [probe] _ in
            _ = probe
            return .none
          }))
    }
    promise(.success(1))
    XCTAssertEqual(tracker.liveCount, 0)
    XCTAssertNotNil(subscription)
  }

  func test_unfulfillableFuture_freedWhileSubscribed() {
    let subscriber = TestSubscriber<Int, Never>()
    weak var weakFuture: Future<Int, Never>?
    do {
      let future = Future<Int, Never> { _ in }
      weakFuture = future
      future.subscribe(subscriber)
    }
    XCTAssertNil(weakFuture, "a subscription keeps alive a future nobody can fulfil")
    subscriber.cancel()
  }

  func test_cancelledSubscription_freed() {
    let (future, promise) = makePending(Int.self, Never.self)
    let subscriber = TestSubscriber<Int, Never>()
    future.subscribe(subscriber)
    var subscription: AnyObject? = subscriber.subscription as AnyObject?
    subscriber.cancel()
    assertReleased(&subscription)
    promise(.success(1))
  }

  // MARK: The book's example

  /// Combine in Action, chapter 13: the work runs once, when the future is created, and
  /// both subscribers receive its result.
  func test_chapter13Example_twoSubscribersWorkPerformedOnce() {
    var lines: [String] = []
    func print(_ line: String) { lines.append(line) }

    func performSomeWork() throws -> Int {
      print("Performing some work and returning a result")
      return 5
    }

    let future = Future<Int, Error> { fulfill in
      do {
        let result = try performSomeWork()
        fulfill(.success(result))
      } catch {
        fulfill(.failure(error))
      }
    }

    print("Subscribing to future...")

    let subscription1 =
      future
      .sink(
        receiveCompletion: { _ in print("subscription1 completed") },
        receiveValue: { print("subscription1 received: '\($0)'") }
      )

    let subscription2 =
      future
      .sink(
        receiveCompletion: { _ in print("subscription2 completed") },
        receiveValue: { print("subscription2 received: '\($0)'") }
      )

    XCTAssertEqual(
      lines,
      [
        "Performing some work and returning a result",
        "Subscribing to future...",
        "subscription1 received: '5'",
        "subscription1 completed",
        "subscription2 received: '5'",
        "subscription2 completed",
      ])
    subscription1.cancel()
    subscription2.cancel()
  }

  // MARK: What the subscription shows (Apple's mirror)

  private func mirrorChildren(_ subscription: Subscription?) -> [(String?, String)] {
    guard let subscription else { return [] }
    return Mirror(reflecting: subscription).children.map { ($0.label, String(describing: $0.value)) }
  }

  /// A subscriber that keeps its subscription after completion, for the mirror tests.
  private func keepingSubscriber(
    initialDemand: Subscribers.Demand
  ) -> (TestSubscriber<Int, TestError>, () -> Subscription?) {
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: initialDemand)
    var kept: Subscription?
    subscriber.onSubscription = { kept = $0 }
    return (subscriber, { kept })
  }

  func test_mirror_parentDownstreamHasAnyDemandSubject() {
    let future = Future<Int, TestError> { _ in }
    let (subscriber, subscription) = keepingSubscriber(initialDemand: .none)
    future.subscribe(subscriber)
    let children = mirrorChildren(subscription())
    XCTAssertEqual(children.map(\.0), ["parent", "downstream", "hasAnyDemand", "subject"])
    XCTAssertTrue(children[0].1.contains("Future"))
    XCTAssertTrue(children[1].1.contains("TestSubscriber"))
    XCTAssertEqual(children[2].1, "false")
    XCTAssertTrue(children[3].1.contains("Future"))
    subscriber.request(.max(1))
    XCTAssertEqual(mirrorChildren(subscription())[2].1, "true")
  }

  func test_promiseDelivery_clearsParent_afterTheDownstreamReturns() {
    var promise: Future<Int, TestError>.Promise?
    let future = Future<Int, TestError> { promise = $0 }
    let (subscriber, subscription) = keepingSubscriber(initialDemand: .unlimited)
    future.subscribe(subscriber)
    var parentDuringDelivery: String?
    subscriber.onValue = { _ in
      parentDuringDelivery = self.mirrorChildren(subscription()).first?.1
      return .none
    }
    promise?(.success(1))
    XCTAssertTrue(parentDuringDelivery?.contains("Future") ?? false)
    XCTAssertEqual(mirrorChildren(subscription()).map(\.1), ["nil", "nil", "true", "nil"])
  }

  func test_alreadyFailed_subscriptionShowsNothing() {
    let future = Future<Int, TestError> { $0(.failure(TestError())) }
    let (subscriber, subscription) = keepingSubscriber(initialDemand: .none)
    future.subscribe(subscriber)
    XCTAssertEqual(mirrorChildren(subscription()).map(\.1), ["nil", "nil", "false", "nil"])
  }

  func test_deliveryOnRequest_keepsParent() {
    let future = Future<Int, TestError> { $0(.success(1)) }
    let (subscriber, subscription) = keepingSubscriber(initialDemand: .none)
    future.subscribe(subscriber)
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertTrue(mirrorChildren(subscription()).first?.1.contains("Future") ?? false)
  }
}

/// Fulfilment, demand and cancel racing on two threads; run under the thread sanitizer
/// by CI.
final class FutureStressTests: XCTestCase {
  func test_fulfilAndRequestRace_deliverExactlyOnce() {
    for _ in 0..<300 {
      var captured: Future<Int, Never>.Promise?
      let future = Future<Int, Never> { captured = $0 }
      let promise = captured!
      let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
      future.subscribe(subscriber)
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          promise(.success(1))
        } else {
          subscriber.request(.max(1))
        }
      }
      XCTAssertEqual(subscriber.events, [.subscription("Future"), .value(1), .completion(.finished)])
    }
  }

  func test_subscribeAndFulfilRace_deliverExactlyOnce() {
    for _ in 0..<300 {
      var captured: Future<Int, Never>.Promise?
      let future = Future<Int, Never> { captured = $0 }
      let promise = captured!
      let unsafeFuture = future
      let subscriber = TestSubscriber<Int, Never>()
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          promise(.success(1))
        } else {
          unsafeFuture.subscribe(subscriber)
        }
      }
      XCTAssertEqual(subscriber.events, [.subscription("Future"), .value(1), .completion(.finished)])
    }
  }

  func test_cancelAndFulfilRace_atMostOnceNothingAfterCancel() {
    for _ in 0..<300 {
      var captured: Future<Int, Never>.Promise?
      let future = Future<Int, Never> { captured = $0 }
      let promise = captured!
      let subscriber = TestSubscriber<Int, Never>(strictCancellation: false)
      future.subscribe(subscriber)
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          promise(.success(1))
        } else {
          subscriber.cancel()
        }
      }
      XCTAssertLessThanOrEqual(subscriber.values.count, 1)
      XCTAssertEqual(subscriber.violations, [])
    }
  }
}
