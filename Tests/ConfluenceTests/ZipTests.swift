import Confluence
import ConfluenceTesting
import XCTest

final class ZipTests: XCTestCase {
  private struct Pair: Equatable {
    let number: Int
    let letter: String
  }

  private func pairs(_ subscriber: TestSubscriber<(Int, String), TestError>) -> [Pair] {
    subscriber.values.map { Pair(number: $0.0, letter: $0.1) }
  }

  func test_pairsValuesOneForOne_inArrivalOrder() {
    let numbers = ManualPublisher<Int, TestError>()
    let letters = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<(Int, String), TestError>()
    numbers.zip(letters).subscribe(subscriber)
    numbers.send(1)
    numbers.send(2)
    XCTAssertEqual(subscriber.values.count, 0, "waits for a value from each upstream")
    letters.send("a")
    letters.send("b")
    letters.send("c")
    numbers.send(3)
    XCTAssertEqual(
      pairs(subscriber), [Pair(number: 1, letter: "a"), Pair(number: 2, letter: "b"), Pair(number: 3, letter: "c")])
    XCTAssertEqual(subscriber.subscriptionDescription, "Zip")
  }

  func test_forwardsDownstreamDemandToEachUpstream() {
    let numbers = ManualPublisher<Int, TestError>()
    let letters = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<(Int, String), TestError>(initialDemand: .max(2))
    numbers.zip(letters).subscribe(subscriber)
    XCTAssertEqual(numbers.requested, [.max(2)])
    XCTAssertEqual(letters.requested, [.max(2)])
    subscriber.request(.max(1))
    XCTAssertEqual(numbers.requested, [.max(2), .max(1)])
    XCTAssertEqual(letters.requested, [.max(2), .max(1)])
  }

  func test_finiteDemand_pairsWaitForDemand() {
    let subscriber = TestSubscriber<(Int, String), TestError>(initialDemand: .none)
    let numbers = Publishers.Sequence<[Int], TestError>(sequence: [1, 2, 3])
    let letters = Publishers.Sequence<[String], TestError>(sequence: ["a", "b", "c"])
    numbers.zip(letters).subscribe(subscriber)
    XCTAssertEqual(subscriber.values.count, 0)
    subscriber.request(.max(1))
    XCTAssertEqual(pairs(subscriber), [Pair(number: 1, letter: "a")])
    subscriber.request(.max(2))
    XCTAssertEqual(pairs(subscriber).map(\.letter), ["a", "b", "c"])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_finishesWhenOneSideFinishedAndIsDrained() {
    let numbers = ManualPublisher<Int, TestError>()
    let letters = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<(Int, String), TestError>()
    numbers.zip(letters).subscribe(subscriber)
    numbers.send(1)
    numbers.send(2)
    numbers.finish()
    XCTAssertNil(subscriber.completion, "2 is still waiting for a partner")
    letters.send("a")
    XCTAssertNil(subscriber.completion)
    letters.send("b")
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(letters.cancels, 1, "the other side is cancelled")
  }

  func test_failureOfEitherSide_failsAndCancelsTheOther() {
    let numbers = ManualPublisher<Int, TestError>()
    let letters = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<(Int, String), TestError>()
    numbers.zip(letters).subscribe(subscriber)
    numbers.send(1)
    letters.fail(TestError("letters"))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Zip)", "completion(failure(letters))"])
    XCTAssertEqual(numbers.cancels, 1)
  }

  func test_withTransform_returnsMap() {
    let zipped:
      Publishers.Map<Publishers.Zip<Publishers.Sequence<[Int], Never>, Publishers.Sequence<[Int], Never>>, Int> =
        [1, 2].publisher.zip([10, 20].publisher) { $0 + $1 }
    let subscriber = TestSubscriber<Int, Never>()
    zipped.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [11, 22])
  }

  func test_zip3AndZip4_flattenTuples() {
    let subscriber3 = TestSubscriber<String, Never>()
    [1, 2].publisher.zip(["a", "b"].publisher, [true, false].publisher) { "\($0)\($1)\($2)" }.subscribe(subscriber3)
    XCTAssertEqual(subscriber3.values, ["1atrue", "2bfalse"])
    let zip4: Publishers.Zip4 = Just(1).zip(Just("x"), Just(2.5), Just(false))
    var received: [(Int, String, Double, Bool)] = []
    _ = zip4.sink { received.append($0) }
    XCTAssertEqual(received.count, 1)
    XCTAssertEqual(received.first?.1, "x")
    XCTAssertEqual(received.first?.3, false)
    XCTAssertEqual(Publishers.Zip3(Just(1), Just(2), Just(3)), Publishers.Zip3(Just(1), Just(2), Just(3)))
  }

  func test_cancelInsideReceive() {
    let numbers = ManualPublisher<Int, TestError>()
    let letters = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<(Int, String), TestError>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    numbers.zip(letters).subscribe(subscriber)
    numbers.send(1)
    numbers.send(2)
    letters.send("a")
    letters.send("b")
    XCTAssertEqual(subscriber.values.count, 1)
    XCTAssertEqual(numbers.cancels, 1)
    XCTAssertEqual(letters.cancels, 1)
  }

  func test_cancel_releasesBuffers() {
    let tracker = LifetimeTracker()
    let objects = ManualPublisher<LifetimeTracker.Tracked, TestError>()
    let never = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<(LifetimeTracker.Tracked, Int), TestError>()
    objects.zip(never).subscribe(subscriber)
    objects.send(tracker.make())
    objects.send(tracker.make())
    XCTAssertEqual(tracker.liveCount, 2)
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_concurrentUpstreams_pairEverything() {
    let numbers = ManualPublisher<Int, Never>()
    let others = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<(Int, Int), Never>()
    numbers.zip(others).subscribe(subscriber)
    DispatchQueue.concurrentPerform(iterations: 2) { side in
      for value in 0..<1000 { (side == 0 ? numbers : others).send(value) }
    }
    let values = subscriber.values
    XCTAssertEqual(values.count, 1000)
    XCTAssertTrue(values.allSatisfy { $0.0 == $0.1 }, "each side's values stay in order, so pairs match")
  }

  func test_deliveredValues_areReleasedAtOnce_whileOthersStillWait() {
    let tracker = LifetimeTracker()
    let objects = ManualPublisher<LifetimeTracker.Tracked, TestError>()
    let numbers = ManualPublisher<Int, TestError>()
    var delivered = 0
    let cancellable = objects.zip(numbers).sink(receiveCompletion: { _ in }, receiveValue: { _ in delivered += 1 })
    objects.send(tracker.make())
    objects.send(tracker.make())
    numbers.send(1)
    XCTAssertEqual(delivered, 1)
    XCTAssertEqual(tracker.liveCount, 1, "the paired object is released; only the waiting one is held")
    cancellable.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  // MARK: Apple's edges

  func test_demandAddedDuringADelivery_isReturnedToTheSenderAndRequestedFromTheOther() {
    let a = DetachedUpstream<Int, Never>()
    let b = DetachedUpstream<Int, Never>()
    let subscriber = TestSubscriber<(Int, Int), Never>(initialDemand: .max(1))
    subscriber.onValue = { _ in
      subscriber.request(.max(5))
      return .max(2)
    }
    a.zip(b).subscribe(subscriber)
    let subscriptionA = a.attach()
    let subscriptionB = b.attach()
    XCTAssertEqual(a.send(1), .none)
    XCTAssertEqual(b.send(1), .max(7), "b set the delivery off: it is owed what was added")
    XCTAssertEqual(subscriptionA.events, [.requested(.max(1)), .requested(.max(5)), .requested(.max(2))])
    XCTAssertEqual(subscriptionB.events, [.requested(.max(1))])
  }

  func test_aSideThatFinished_isNotCancelledWhenTheZipCompletes() {
    let a = DetachedUpstream<Int, Never>()
    let b = DetachedUpstream<Int, Never>()
    let subscriber = TestSubscriber<(Int, Int), Never>()
    a.zip(b).subscribe(subscriber)
    let subscriptionA = a.attach()
    let subscriptionB = b.attach()
    a.send(completion: .finished)
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(subscriptionA.events, [.requested(.unlimited)])
    XCTAssertEqual(subscriptionB.events, [.requested(.unlimited), .cancelled])
  }

  /// Records what it gets without judging it (TestSubscriber would report the value
  /// beyond demand that this rule is about).
  private final class Recorder: Subscriber {
    var subscription: Subscription?
    var values: [Int] = []
    let initialDemand: Subscribers.Demand
    let demandPerValue: Subscribers.Demand

    init(initialDemand: Subscribers.Demand, demandPerValue: Subscribers.Demand = .none) {
      self.initialDemand = initialDemand
      self.demandPerValue = demandPerValue
    }

    func receive(subscription: Subscription) {
      self.subscription = subscription
      if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      values.append(input)
      return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Never>) {}
  }

  func test_upstreamsSendingBeyondDemand_getOneTupleThrough_theNextWaitsForDemand() {
    let a = DetachedUpstream<Int, Never>()
    let b = DetachedUpstream<Int, Never>()
    let recorder = Recorder(initialDemand: .max(1))
    a.zip(b) { $0 + $1 }.subscribe(recorder)
    a.attach()
    b.attach()
    _ = a.send(100)
    _ = b.send(1)
    XCTAssertEqual(recorder.values, [101], "within demand")
    _ = a.send(200)
    _ = a.send(300)
    _ = b.send(2)
    XCTAssertEqual(recorder.values, [101, 202], "as Apple's: one beyond demand")
    _ = b.send(3)
    XCTAssertEqual(recorder.values, [101, 202], "the next waits")
    recorder.subscription?.request(.max(1))
    XCTAssertEqual(recorder.values, [101, 202, 303])
    _ = a.send(400)
    _ = b.send(4)
    XCTAssertEqual(recorder.values, [101, 202, 303], "the overdraft is paid back before anything more goes")
    recorder.subscription = nil  // zip keeps its downstream (as Apple's): break the pair
  }

  func test_aTupleCompletedWithoutDemand_isDelivered_andDownstreamsReturnGoesToTheSender() {
    let a = DetachedUpstream<Int, Never>()
    let b = DetachedUpstream<Int, Never>()
    let recorder = Recorder(initialDemand: .none, demandPerValue: .max(1))
    a.zip(b) { $0 + $1 }.subscribe(recorder)
    a.attach()
    b.attach()
    XCTAssertEqual(a.send(1), .none)
    XCTAssertEqual(b.send(1), .max(1))
    XCTAssertEqual(recorder.values, [2])
    recorder.subscription = nil  // zip keeps its downstream (as Apple's): break the pair
  }
}
