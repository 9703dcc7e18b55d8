import Confluence
import ConfluenceExtras
import ConfluenceTesting
import XCTest

final class ReplaySubjectTests: XCTestCase {
  // MARK: Replay

  func test_replaysTheLatestValuesToANewSubscriber_thenLiveValues() {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 2)
    subject.send(1)
    subject.send(2)
    subject.send(3)
    let subscriber = TestSubscriber<Int, TestError>()
    subject.subscribe(subscriber)
    subject.send(4)
    XCTAssertEqual(subscriber.events, [.subscription("ReplaySubject"), .value(2), .value(3), .value(4)])
  }

  func test_lateSubscriberAfterCompletion_getsTheReplayAndTheCompletion() {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 2)
    for value in 1...4 { subject.send(value) }
    subject.send(completion: .finished)
    subject.send(5)
    let subscriber = TestSubscriber<Int, TestError>()
    subject.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription("ReplaySubject"), .value(3), .value(4), .completion(.finished)])
  }

  func test_lateSubscriberAfterFailure_getsTheReplayAndTheFailure() {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 1)
    subject.send(1)
    subject.send(completion: .failure(TestError("boom")))
    let subscriber = TestSubscriber<Int, TestError>()
    subject.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription("ReplaySubject"), .value(1), .completion(.failure(TestError("boom")))])
  }

  func test_bufferSizeZero_replaysOnlyTheCompletion() {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 0)
    subject.send(1)
    let subscriber = TestSubscriber<Int, TestError>()
    subject.subscribe(subscriber)
    subject.send(2)
    subject.send(completion: .finished)
    let late = TestSubscriber<Int, TestError>()
    subject.subscribe(late)
    XCTAssertEqual(subscriber.events, [.subscription("ReplaySubject"), .value(2), .completion(.finished)])
    XCTAssertEqual(late.events, [.subscription("ReplaySubject"), .completion(.finished)])
  }

  func test_everySubscriberGetsEveryLiveValue() {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 3)
    let first = TestSubscriber<Int, TestError>()
    let second = TestSubscriber<Int, TestError>()
    subject.subscribe(first)
    subject.send(1)
    subject.subscribe(second)
    subject.send(2)
    subject.send(completion: .finished)
    XCTAssertEqual(first.values, [1, 2])
    XCTAssertEqual(second.values, [1, 2])
    XCTAssertEqual(first.completion, .finished)
    XCTAssertEqual(second.completion, .finished)
  }

  // MARK: Demand

  func test_honoursNoneThenOneThenMoreThenUnlimited() {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 10)
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    subject.subscribe(subscriber)
    for value in 1...3 { subject.send(value) }
    XCTAssertEqual(subscriber.values, [])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [1])
    subscriber.request(.max(3))
    XCTAssertEqual(subscriber.values, [1, 2, 3])
    subject.send(4)
    subject.send(5)
    XCTAssertEqual(subscriber.values, [1, 2, 3, 4])
    subscriber.request(.unlimited)
    subject.send(6)
    XCTAssertEqual(subscriber.values, [1, 2, 3, 4, 5, 6])
  }

  func test_valuesASubscriberHasNotAskedFor_areCappedAtBufferSize_keepingTheLatest() {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 2)
    let eager = TestSubscriber<Int, TestError>()
    let slow = TestSubscriber<Int, TestError>(initialDemand: .none)
    subject.subscribe(eager)
    subject.subscribe(slow)
    for value in 1...5 { subject.send(value) }
    XCTAssertEqual(eager.values, [1, 2, 3, 4, 5])
    slow.request(.max(1))
    XCTAssertEqual(slow.values, [4])
    slow.request(.max(5))
    XCTAssertEqual(slow.values, [4, 5])
    subject.send(6)
    XCTAssertEqual(slow.values, [4, 5, 6])
  }

  func test_coveredValuesAreNeverDropped_onlyUncoveredOnes() {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 1)
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2))
    var sentInside = false
    subscriber.onValue = { _ in
      if !sentInside {
        sentInside = true
        // While the first value is being delivered: 2 is covered by demand, 3 and 4 are
        // not, and only the latest uncovered one (4) is kept.
        subject.send(2)
        subject.send(3)
        subject.send(4)
      }
      return .none
    }
    subject.subscribe(subscriber)
    subject.send(1)
    XCTAssertEqual(subscriber.values, [1, 2])
    subscriber.request(.unlimited)
    XCTAssertEqual(subscriber.values, [1, 2, 4])
  }

  func test_completionWaitsBehindValuesWaitingForDemand() {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 5)
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    subject.subscribe(subscriber)
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("ReplaySubject")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("ReplaySubject"), .value(1)])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("ReplaySubject"), .value(1), .value(2), .completion(.finished)])
  }

  func test_demandReturnedFromReceive_releasesMoreReplayedValues() {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 3)
    for value in 1...3 { subject.send(value) }
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(1))
    subject.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2, 3])
  }

  func test_asASubscriber_requestsUnlimitedFromUpstream() {
    let upstream = ManualPublisher<Int, TestError>()
    let subject = ReplaySubject<Int, TestError>(bufferSize: 1)
    let cancellable = upstream.subscribe(subject)
    XCTAssertEqual(upstream.demands, [.unlimited])
    upstream.send(7)
    let subscriber = TestSubscriber<Int, TestError>()
    subject.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [7])
    cancellable.cancel()
    XCTAssertTrue(upstream.isCancelled)
  }

  // MARK: Re-entrancy and cancel

  func test_sendInsideReceive_isDeliveredAfterReceiveReturns() {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 1)
    let subscriber = TestSubscriber<Int, TestError>()
    var log: [String] = []
    subscriber.onValue = { value in
      log.append("in \(value)")
      if value == 1 { subject.send(2) }
      log.append("out \(value)")
      return .none
    }
    subject.subscribe(subscriber)
    subject.send(1)
    XCTAssertEqual(log, ["in 1", "out 1", "in 2", "out 2"])
  }

  func test_cancel_stopsDeliveryToThatSubscriberOnly() {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 1)
    let cancelled = TestSubscriber<Int, TestError>()
    let staying = TestSubscriber<Int, TestError>()
    subject.subscribe(cancelled)
    subject.subscribe(staying)
    subject.send(1)
    cancelled.cancel()
    subject.send(2)
    subject.send(completion: .finished)
    XCTAssertEqual(cancelled.events, [.subscription("ReplaySubject"), .value(1)])
    XCTAssertEqual(staying.events, [.subscription("ReplaySubject"), .value(1), .value(2), .completion(.finished)])
  }

  func test_cancelInsideReceive_dropsTheRestOfTheReplay() {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 3)
    for value in 1...3 { subject.send(value) }
    let subscriber = TestSubscriber<Int, TestError>()
    subscriber.onValue = { [unowned subscriber] _ in
      subscriber.cancel()
      return .none
    }
    subject.subscribe(subscriber)
    subject.send(4)
    XCTAssertEqual(subscriber.events, [.subscription("ReplaySubject"), .value(1)])
  }

  func test_cancelDuringReceiveSubscription_deliversNothing() {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 3)
    subject.send(1)
    subject.send(completion: .finished)
    let subscriber = TestSubscriber<Int, TestError>()
    subscriber.onSubscription = { $0.cancel() }
    subject.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("ReplaySubject")])
  }

  // MARK: Lifetimes

  func test_lifetime_cancelReleasesTheSubscriberAndItsWaitingValues() {
    let tracker = LifetimeTracker()
    let subject = ReplaySubject<TrackedValue, Never>(bufferSize: 2)
    weak var weakSubscriber: TestSubscriber<TrackedValue, Never>?
    weak var weakConduit: AnyObject?
    do {
      let subscriber = TestSubscriber<TrackedValue, Never>(initialDemand: .none)
      weakSubscriber = subscriber
      subject.subscribe(subscriber)
      weakConduit = subscriber.subscription as AnyObject?
      for value in 1...3 { subject.send(TrackedValue(value, tracker)) }
      subscriber.cancel()
    }
    XCTAssertNil(weakSubscriber)
    XCTAssertNil(weakConduit)
    XCTAssertEqual(tracker.liveCount, 2, "only the subject's own replay buffer is left")
    subject.send(completion: .finished)
  }

  func test_lifetime_completionReleasesSubscriptions_andTheSubjectIsFreedWithItsSubscribers() {
    weak var weakSubject: ReplaySubject<Int, Never>?
    weak var weakConduit: AnyObject?
    let subscriber = TestSubscriber<Int, Never>()
    do {
      let subject = ReplaySubject<Int, Never>(bufferSize: 1)
      weakSubject = subject
      subject.subscribe(subscriber)
      weakConduit = subscriber.subscription as AnyObject?
      subject.send(1)
      subject.send(completion: .finished)
    }
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertNil(weakConduit)
    XCTAssertNil(weakSubject)
  }

  func test_lifetime_subscriptionDoesNotKeepTheSubjectAlive() {
    weak var weakSubject: ReplaySubject<Int, Never>?
    let subscriber = TestSubscriber<Int, Never>()
    do {
      let subject = ReplaySubject<Int, Never>(bufferSize: 1)
      weakSubject = subject
      subject.subscribe(subscriber)
    }
    XCTAssertNil(weakSubject)
    subscriber.cancel()
  }

}
