import Confluence
import ConfluenceTesting
import XCTest

final class CurrentValueSubjectTests: XCTestCase {
  typealias Sub = TestSubscriber<Int, TestError>

  func test_deliversCurrentValueThenChanges_unlimitedDemand() {
    let subject = CurrentValueSubject<Int, TestError>(0)
    let subscriber = Sub()
    subject.subscribe(subscriber)
    subject.send(1)
    subject.value = 2
    subject.send(completion: .finished)
    XCTAssertEqual(
      subscriber.events,
      [.subscription("CurrentValueSubject"), .value(0), .value(1), .value(2), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_valueReflectsLastSend() {
    let subject = CurrentValueSubject<String, Never>("a")
    XCTAssertEqual(subject.value, "a")
    subject.send("b")
    XCTAssertEqual(subject.value, "b")
    subject.value = "c"
    XCTAssertEqual(subject.value, "c")
  }

  func test_currentValueWaitsForDemand_noInitialDemand() {
    let subject = CurrentValueSubject<Int, TestError>(7)
    let subscriber = Sub(initialDemand: .none)
    subject.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("CurrentValueSubject")])
    subject.send(8)
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [8], "the first demand delivers the value current at that moment")
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [8], "the current value is delivered once")
    subject.send(9)
    XCTAssertEqual(subscriber.values, [8, 9])
  }

  func test_latestValueDelivered_whenDemandArrivesAfterMissedValues() {
    let subject = CurrentValueSubject<Int, TestError>(0)
    let subscriber = Sub(initialDemand: .max(1))
    subject.subscribe(subscriber)
    subject.send(1)  // no demand left
    subject.send(2)  // no demand left
    XCTAssertEqual(subscriber.values, [0])
    subscriber.request(.max(2))
    XCTAssertEqual(subscriber.values, [0, 2], "missed values collapse into the latest one")
    subject.send(3)
    subject.send(4)  // no demand left
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [0, 2, 3, 4])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [0, 2, 3, 4], "nothing owed after catching up")
    XCTAssertEqual(subscriber.demands, [.max(1), .max(2), .max(1), .max(1)])
  }

  func test_demandReturnedFromReceive_isAdded() {
    let subject = CurrentValueSubject<Int, TestError>(0)
    let subscriber = Sub(initialDemand: .max(1), demandPerValue: .max(1))
    subject.subscribe(subscriber)
    subject.send(1)
    subject.send(2)
    XCTAssertEqual(subscriber.values, [0, 1, 2])
  }

  func test_sendIgnored_afterCompletion() {
    let subject = CurrentValueSubject<Int, TestError>(0)
    let subscriber = Sub()
    subject.subscribe(subscriber)
    subject.send(completion: .finished)
    subject.send(1)
    XCTAssertEqual(subject.value, 0, "send after completion changes nothing")
    XCTAssertEqual(subscriber.events, [.subscription("CurrentValueSubject"), .value(0), .completion(.finished)])
  }

  // Apple's: once completed, `send` is ignored but setting `value` still changes it (an
  // earlier version ignored both).
  func test_settingValue_afterCompletion_changesItButSendsNothing() {
    let subject = CurrentValueSubject<Int, TestError>(0)
    let subscriber = Sub()
    subject.subscribe(subscriber)
    subject.send(completion: .finished)
    subject.value = 2
    XCTAssertEqual(subject.value, 2)
    XCTAssertEqual(subscriber.events, [.subscription("CurrentValueSubject"), .value(0), .completion(.finished)])
  }

  func test_completionReplayed_lateSubscriber_withoutValue() {
    let subject = CurrentValueSubject<Int, TestError>(0)
    subject.send(completion: .failure(TestError("done")))
    let subscriber = Sub()
    subject.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.failure(TestError("done")))])
  }

  func test_completionDelivered_withoutDemand_dropsOwedValue() {
    let subject = CurrentValueSubject<Int, TestError>(0)
    let subscriber = Sub(initialDemand: .none)
    subject.subscribe(subscriber)
    subject.send(completion: .finished)
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("CurrentValueSubject"), .completion(.finished)])
  }

  func test_eachSubscriberHasItsOwnDemand() {
    let subject = CurrentValueSubject<Int, TestError>(0)
    let greedy = Sub()
    let frugal = Sub(initialDemand: .max(1))
    subject.subscribe(greedy)
    subject.send(1)
    subject.subscribe(frugal)
    subject.send(2)
    XCTAssertEqual(greedy.values, [0, 1, 2])
    XCTAssertEqual(frugal.values, [1])
    frugal.request(.max(5))
    XCTAssertEqual(frugal.values, [1, 2])
  }

  func test_demandGrantedMidBroadcast_deliversTheValueOnce() {
    let subject = CurrentValueSubject<Int, TestError>(0)
    let waiting = Sub(initialDemand: .none)
    let first = Sub()
    first.onValue = { value in
      if value == 1 { waiting.request(.max(5)) }  // takes the current value, 1, right now
      return .none
    }
    subject.subscribe(first)
    subject.subscribe(waiting)
    subject.send(1)  // then reaches `waiting`, which already has it
    subject.send(2)
    XCTAssertEqual(waiting.values, [1, 2])
    XCTAssertEqual(first.values, [0, 1, 2])
  }

  func test_cancelInsideReceive_stopsDelivery() {
    let subject = CurrentValueSubject<Int, TestError>(0)
    let subscriber = Sub()
    subscriber.onValue = { value in
      if value == 1 { subscriber.cancel() }
      return .none
    }
    subject.subscribe(subscriber)
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("CurrentValueSubject"), .value(0), .value(1)])
  }

  func test_cancelBeforeDemand_sendsNothing() {
    let subject = CurrentValueSubject<Int, TestError>(0)
    let subscriber = Sub(initialDemand: .none)
    subject.subscribe(subscriber)
    let subscription = subscriber.subscription
    subscriber.cancel()
    subscription?.request(.max(1))
    subject.send(1)
    XCTAssertEqual(subscriber.events, [.subscription("CurrentValueSubject")])
  }

  func test_reentrantSetValue_isQueuedAndValueUpdated() {
    let subject = CurrentValueSubject<Int, TestError>(0)
    var log: [String] = []
    let subscriber = Sub()
    subscriber.onValue = { value in
      log.append("begin \(value)")
      if value == 1 { subject.value = 2 }
      log.append("end \(value) value=\(subject.value)")
      return .none
    }
    subject.subscribe(subscriber)
    subject.send(1)
    XCTAssertEqual(log, ["begin 0", "end 0 value=0", "begin 1", "end 1 value=2", "begin 2", "end 2 value=2"])
  }

  // Apple's: the current value is delivered inside the request made from
  // `receive(subscription:)` (an earlier version held it until that returned).
  func test_requestInsideReceiveSubscription_deliversCurrentValueInsideTheRequest() {
    let subject = CurrentValueSubject<Int, TestError>(5)
    var log: [String] = []
    let subscriber = Sub(initialDemand: .none)
    subscriber.onSubscription = { _ in
      subscriber.request(.max(1))
      log.append("requested")
    }
    subscriber.onValue = { value in
      log.append("value \(value)")
      return .none
    }
    subject.subscribe(subscriber)
    XCTAssertEqual(log, ["value 5", "requested"])
  }

  func test_optionalOutput_nilIsAValue() {
    let subject = CurrentValueSubject<Int?, Never>(nil)
    let subscriber = TestSubscriber<Int?, Never>()
    subject.subscribe(subscriber)
    subject.send(1)
    subject.send(nil)
    XCTAssertEqual(subscriber.values, [nil, 1, nil])
    XCTAssertNil(subject.value)
  }

  func test_cancelReleasesSubscriberAndValueIsReleasedWhenReplaced() {
    let tracker = LifetimeTracker()
    let subject = CurrentValueSubject<LifetimeTracker.Tracked, Never>(tracker.make())
    let cancellable = subject.sink { _ in }
    subject.send(tracker.make())
    XCTAssertEqual(tracker.liveCount, 1, "the replaced value is released")
    cancellable.cancel()
    XCTAssertEqual(tracker.liveCount, 1, "the current value stays")
  }

  func test_completionReleasesSubscriber() {
    let subject = CurrentValueSubject<Int, TestError>(0)
    var subscriber: Sub? = Sub()
    weak let weakSubscriber = subscriber
    subject.subscribe(subscriber!)
    subscriber = nil
    subject.send(completion: .finished)
    XCTAssertNil(weakSubscriber)
  }

  func test_cancelReleasesSubscriber() {
    let subject = CurrentValueSubject<Int, TestError>(0)
    var subscriber: Sub? = Sub()
    weak let weakSubscriber = subscriber
    subject.subscribe(subscriber!)
    subscriber?.cancel()
    subscriber = nil
    XCTAssertNil(weakSubscriber)
  }

  func test_sendSubscription_requestsUnlimited() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let upstream = SubjectTestsRecordingSubscription()
    subject.send(subscription: upstream)
    XCTAssertEqual(upstream.requests, [.unlimited])
  }

  func test_print_showsCurrentValueSubject() {
    let log = LineCollector()
    let subject = CurrentValueSubject<String, Never>("a")
    let cancellable = subject.print("value", to: log).sink { _ in }
    subject.value = "b"
    XCTAssertEqual(
      log.lines,
      [
        "value: receive subscription: (CurrentValueSubject)",
        "value: request unlimited",
        "value: receive value: (a)",
        "value: receive value: (b)",
      ])
    withExtendedLifetime(cancellable) {}
  }

  func test_subscriptionDescription() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let subscriber = TestSubscriber<Int, Never>()
    subject.subscribe(subscriber)
    XCTAssertEqual(subscriber.subscription.map(String.init(describing:)), "CurrentValueSubject")
    XCTAssertEqual(
      (subscriber.subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String,
      "CurrentValueSubject")
  }
}
