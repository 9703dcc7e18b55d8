import Confluence
import ConfluenceTesting
import XCTest

final class PassthroughSubjectTests: XCTestCase {
  typealias Sub = TestSubscriber<Int, TestError>

  func test_deliversValuesThenFinishes_unlimitedDemand() {
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = Sub()
    subject.subscribe(subscriber)
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    XCTAssertEqual(
      subscriber.events, [.subscription("PassthroughSubject"), .value(1), .value(2), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_deliversFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = Sub()
    subject.subscribe(subscriber)
    subject.send(1)
    subject.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(
      subscriber.events, [.subscription("PassthroughSubject"), .value(1), .completion(.failure(TestError("boom")))])
  }

  func test_dropsValues_noDemandThenMaxOneThenMore() {
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = Sub(initialDemand: .none)
    subject.subscribe(subscriber)
    subject.send(1)  // no demand: dropped
    XCTAssertEqual(subscriber.events, [.subscription("PassthroughSubject")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [], "a passthrough subject does not buffer")
    subject.send(2)
    subject.send(3)  // demand used up: dropped
    subscriber.request(.max(2))
    subject.send(4)
    subject.send(5)
    subject.send(6)  // dropped
    XCTAssertEqual(subscriber.values, [2, 4, 5])
    XCTAssertEqual(subscriber.demands, [.max(1), .max(2)])
  }

  func test_demandReturnedFromReceive_isAdded() {
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = Sub(initialDemand: .max(1), demandPerValue: .max(1))
    subject.subscribe(subscriber)
    for value in 1...4 { subject.send(value) }
    XCTAssertEqual(subscriber.values, [1, 2, 3, 4])
    XCTAssertEqual(subscriber.demands, [.max(1), .max(1), .max(1), .max(1), .max(1)])
  }

  func test_dropsValues_noSubscribers() {
    let subject = PassthroughSubject<Int, TestError>()
    subject.send(1)
    let subscriber = Sub()
    subject.subscribe(subscriber)
    subject.send(2)
    XCTAssertEqual(subscriber.values, [2])
  }

  func test_sendIgnored_afterCompletion() {
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = Sub()
    subject.subscribe(subscriber)
    subject.send(completion: .finished)
    subject.send(1)
    subject.send(completion: .failure(TestError()))
    XCTAssertEqual(subscriber.events, [.subscription("PassthroughSubject"), .completion(.finished)])
  }

  func test_completionReplayed_lateSubscriber() {
    let subject = PassthroughSubject<Int, TestError>()
    subject.send(completion: .failure(TestError("late")))
    let subscriber = Sub(initialDemand: .none)
    subject.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.failure(TestError("late")))])
  }

  // Made, subscribed and sent to from this (unoptimised) test code, the subject runs its
  // unspecialised paths: its list of subscribers is made empty without its element type, its
  // size read from its lone and head subscribers, and its completion kept as the failure.
  func test_subscribersLeaveInAnyOrder_thenALateOneGetsTheFirstCompletionOnly() {
    let subject = PassthroughSubject<Int, TestError>()
    let first = Sub()
    let second = Sub()
    let third = Sub()
    subject.subscribe(first)
    subject.subscribe(second)
    subject.subscribe(third)
    subject.send(1)
    second.cancel()
    first.cancel()  // one left: the list's lone subscriber again
    subject.send(2)
    third.cancel()  // none left
    subject.send(3)
    let fourth = Sub()
    subject.subscribe(fourth)  // from none to one
    subject.send(4)
    subject.send(completion: .finished)
    subject.send(completion: .failure(TestError("second completion")))
    let late = Sub()
    subject.subscribe(late)
    XCTAssertEqual(first.values, [1])
    XCTAssertEqual(second.values, [1])
    XCTAssertEqual(third.values, [1, 2])
    XCTAssertEqual(fourth.events, [.subscription("PassthroughSubject"), .value(4), .completion(.finished)])
    XCTAssertEqual(late.events, [.subscription("Empty"), .completion(.finished)], "the first completion only")
  }

  func test_completionDelivered_withoutDemand() {
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = Sub(initialDemand: .none)
    subject.subscribe(subscriber)
    subject.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("PassthroughSubject"), .completion(.finished)])
  }

  func test_eachSubscriberHasItsOwnDemand() {
    let subject = PassthroughSubject<Int, TestError>()
    let greedy = Sub()
    let frugal = Sub(initialDemand: .max(1))
    let idle = Sub(initialDemand: .none)
    subject.subscribe(greedy)
    subject.subscribe(frugal)
    subject.subscribe(idle)
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    XCTAssertEqual(greedy.values, [1, 2])
    XCTAssertEqual(frugal.values, [1])
    XCTAssertEqual(idle.values, [])
    for subscriber in [greedy, frugal, idle] {
      XCTAssertEqual(subscriber.completion, .finished)
    }
  }

  func test_cancel_stopsDelivery() {
    let subject = PassthroughSubject<Int, TestError>()
    let kept = Sub()
    let cancelled = Sub()
    subject.subscribe(kept)
    subject.subscribe(cancelled)
    subject.send(1)
    cancelled.cancel()
    subject.send(2)
    subject.send(completion: .finished)
    XCTAssertEqual(cancelled.events, [.subscription("PassthroughSubject"), .value(1)])
    XCTAssertEqual(kept.values, [1, 2])
  }

  func test_cancelInsideReceive_stopsDelivery() {
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = Sub()
    subscriber.onValue = { value in
      if value == 2 { subscriber.cancel() }
      return .none
    }
    subject.subscribe(subscriber)
    for value in 1...4 { subject.send(value) }
    subject.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("PassthroughSubject"), .value(1), .value(2)])
  }

  func test_requestInsideReceive_addsDemand() {
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = Sub(initialDemand: .max(1))
    subscriber.onValue = { _ in
      subscriber.request(.max(1))
      return .none
    }
    subject.subscribe(subscriber)
    for value in 1...3 { subject.send(value) }
    XCTAssertEqual(subscriber.values, [1, 2, 3])
  }

  func test_reentrantSend_isQueuedUntilReceiveReturns() {
    let subject = PassthroughSubject<Int, TestError>()
    var log: [String] = []
    let subscriber = Sub()
    subscriber.onValue = { value in
      log.append("begin \(value)")
      if value == 1 {
        subject.send(2)
        subject.send(3)
      }
      log.append("end \(value)")
      return .none
    }
    subject.subscribe(subscriber)
    subject.send(1)
    XCTAssertEqual(log, ["begin 1", "end 1", "begin 2", "end 2", "begin 3", "end 3"])
    XCTAssertEqual(subscriber.values, [1, 2, 3])
  }

  func test_reentrantSend_withoutDemand_isDropped() {
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = Sub(initialDemand: .max(1), demandPerValue: .max(1))
    subscriber.onValue = { value in
      if value == 1 { subject.send(2) }  // the demand for 2 arrives only when this returns
      return .max(1)
    }
    subject.subscribe(subscriber)
    subject.send(1)
    subject.send(3)
    XCTAssertEqual(subscriber.values, [1, 3])
  }

  func test_reentrantCompletion_followsQueuedValues() {
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = Sub()
    subscriber.onValue = { value in
      if value == 1 {
        subject.send(2)
        subject.send(completion: .finished)
        subject.send(3)
      }
      return .none
    }
    subject.subscribe(subscriber)
    subject.send(1)
    XCTAssertEqual(
      subscriber.events, [.subscription("PassthroughSubject"), .value(1), .value(2), .completion(.finished)])
  }

  func test_sendInsideReceiveSubscription_isDeliveredAfterIt() {
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = Sub()
    subscriber.onSubscription = { _ in subject.send(1) }
    subject.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("PassthroughSubject"), .value(1)])
  }

  func test_subscribeInsideReceive_newSubscriberGetsLaterValues() {
    let subject = PassthroughSubject<Int, TestError>()
    let late = Sub()
    let first = Sub()
    first.onValue = { value in
      if value == 1 { subject.subscribe(late) }
      return .none
    }
    subject.subscribe(first)
    subject.send(1)
    subject.send(2)
    XCTAssertEqual(first.values, [1, 2])
    XCTAssertEqual(late.values, [2])
  }

  func test_cancelReleasesSubscriber() {
    let tracker = LifetimeTracker()
    let subject = PassthroughSubject<Int, TestError>()
    var received: [Int] = []
    let cancellable = subject.sink(
      receiveCompletion: { [probe = tracker.make()] _ in _ = probe },
      receiveValue: { received.append($0) })
    subject.send(1)
    XCTAssertEqual(tracker.liveCount, 1)
    cancellable.cancel()
    XCTAssertEqual(tracker.liveCount, 0, "cancel must release the subscriber")
    subject.send(2)
    XCTAssertEqual(received, [1])
  }

  func test_completionReleasesSubscriber() {
    let subject = PassthroughSubject<Int, TestError>()
    var subscriber: Sub? = Sub()
    weak let weakSubscriber = subscriber
    subject.subscribe(subscriber!)
    subscriber = nil  // only the subject's subscription holds it now
    subject.send(1)
    XCTAssertNotNil(weakSubscriber)
    subject.send(completion: .finished)
    XCTAssertNil(weakSubscriber, "completion must release the subscriber")
  }

  func test_cancelInsideReceive_releasesSubscriber() {
    let subject = PassthroughSubject<Int, TestError>()
    var subscriber: Sub? = Sub()
    weak let weakSubscriber = subscriber
    subscriber?.onValue = { [unowned(unsafe) subscriber = subscriber!] _ in
      subscriber.cancel()
      return .none
    }
    subject.subscribe(subscriber!)
    subscriber = nil
    subject.send(1)
    XCTAssertNil(weakSubscriber, "cancel from inside receive must release the subscriber")
  }

  func test_cancelReleasesSubscription_andSubject() {
    var subject: PassthroughSubject<Int, TestError>? = PassthroughSubject()
    weak let weakSubject = subject
    let subscriber = Sub()
    subject?.subscribe(subscriber)
    var subscription: AnyObject? = subscriber.subscription as AnyObject?
    subject = nil
    subscriber.cancel()
    assertReleased(&subscription)
    XCTAssertNil(weakSubject)
  }

  func test_droppedSubject_withoutSubscribers_isFreed() {
    var subject: PassthroughSubject<Int, Never>? = PassthroughSubject()
    assertReleased(&subject)
  }

  // Apple's PassthroughSubject asks an upstream for `.unlimited` only once one of its
  // subscribers has asked for something (an earlier version asked at once).
  func test_sendSubscription_requestsUnlimited_onceASubscriberHasDemand() {
    let subject = PassthroughSubject<Int, Never>()
    let upstream = SubjectTestsRecordingSubscription()
    subject.send(subscription: upstream)
    XCTAssertEqual(upstream.requests, [])
    let subscriber = TestSubscriber<Int, Never>()
    subject.subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [.unlimited])
    let late = SubjectTestsRecordingSubscription()
    subject.send(subscription: late)
    XCTAssertEqual(late.requests, [.unlimited], "with demand already there, a new upstream is asked at once")
    XCTAssertEqual(upstream.cancels, 0)
  }

  func test_deinit_cancelsUpstreamSubscriptions() {
    let upstream = SubjectTestsRecordingSubscription()
    do {
      let subject = PassthroughSubject<Int, Never>()
      subject.send(subscription: upstream)
      subject.send(subscription: upstream)
    }
    XCTAssertEqual(upstream.cancels, 2)
  }

  func test_subscriptionDescriptionAndMirror() {
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
    subject.subscribe(subscriber)
    let subscription = subscriber.subscription
    XCTAssertEqual(subscription.map(String.init(describing:)), "PassthroughSubject")
    XCTAssertEqual(
      (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String,
      "PassthroughSubject")
    let mirror = subscription.map(Mirror.init(reflecting:))
    XCTAssertEqual(mirror?.children.first { $0.label == "demand" }?.value as? Subscribers.Demand, .max(3))
  }

  func test_print_showsPassthroughSubject() {
    let log = LineCollector()
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.print("subject", to: log).sink { _ in }
    subject.send(1)
    subject.send(completion: .finished)
    XCTAssertEqual(
      log.lines,
      [
        "subject: receive subscription: (PassthroughSubject)",
        "subject: request unlimited",
        "subject: receive value: (1)",
        "subject: receive finished",
      ])
    withExtendedLifetime(cancellable) {}
  }

  func test_voidSubject_sendWithoutArgument() {
    let subject = PassthroughSubject<Void, Never>()
    var count = 0
    let cancellable = subject.sink { count += 1 }
    subject.send()
    subject.send()
    XCTAssertEqual(count, 2)
    cancellable.cancel()
  }

  func test_mapFilterSink_chain() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [String] = []
    let cancellable = subject.map { $0 * 10 }.filter { $0 > 10 }.map { "#\($0)" }.sink { received.append($0) }
    for value in 1...3 { subject.send(value) }
    XCTAssertEqual(received, ["#20", "#30"])
    cancellable.cancel()
  }

  /// Sent by generic code the compiler does not specialise. In a debug build (as `swift test`
  /// runs) a send to two or more subscribers is planned and delivered by the first of them
  /// (`SubjectConduit.sendAsHead`), and must reach the same subscribers in the same order as
  /// the plan of an optimised build, whichever of them comes and goes.
  @_semantics("optimize.sil.specialize.generic.never")
  private func sendInGenericCode<S: Subject>(_ values: [S.Output], to subject: S) {
    for value in values { subject.send(value) }
  }

  func test_sentByUnspecialisedGenericCode_toSeveralSubscribers_eachInOrder_whoeverLeaves() {
    let subject = PassthroughSubject<Int, TestError>()
    var first: [Int] = []
    let firstCancellable = subject.sink(receiveCompletion: { _ in }, receiveValue: { first.append($0) })
    // One value at a time: its own lane stays closed, so it is offered the value under the lock.
    let limited = Sub(initialDemand: .max(2))
    subject.subscribe(limited)
    var third: [Int] = []
    var thirdCancellable: AnyCancellable?
    thirdCancellable = subject.sink(
      receiveCompletion: { _ in },
      receiveValue: { value in
        third.append(value)
        if value == 3 { thirdCancellable?.cancel() }  // leaves during its own delivery
      })
    sendInGenericCode([1, 2, 3, 4], to: subject)
    XCTAssertEqual(first, [1, 2, 3, 4])
    XCTAssertEqual(limited.values, [1, 2], "only what it asked for")
    XCTAssertEqual(third, [1, 2, 3])
    firstCancellable.cancel()  // the first subscriber (the head of the list) leaves
    limited.request(.max(1))
    var late: [Int] = []
    let lateCancellable = subject.sink(receiveCompletion: { _ in }, receiveValue: { late.append($0) })
    sendInGenericCode([5, 6], to: subject)
    XCTAssertEqual(first, [1, 2, 3, 4], "nothing after its cancel")
    XCTAssertEqual(limited.values, [1, 2, 5])
    XCTAssertEqual(late, [5, 6])
    subject.send(completion: .finished)
    sendInGenericCode([7], to: subject)
    XCTAssertEqual(late, [5, 6], "nothing after the completion")
    XCTAssertEqual(limited.completion, .finished)
    lateCancellable.cancel()
  }
}
