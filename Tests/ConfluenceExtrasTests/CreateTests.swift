import Confluence
import ConfluenceExtras
import ConfluenceTesting
import XCTest

final class CreateTests: XCTestCase {
  /// A thread-safe log of what happened, in order.
  private final class Log: @unchecked Sendable {
    // @unchecked Sendable: `entries` is touched only under `lock`.
    private let lock = Lock()
    private var entries: [String] = []
    func append(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
    func count(of entry: String) -> Int { all.filter { $0 == entry }.count }
  }

  /// Holds the emitter a `Create` closure received, for the test to send through later.
  private final class EmitterBox<Output, Failure: Error>: @unchecked Sendable {
    // @unchecked Sendable: set once inside `subscribe`, before the test reads it.
    var emitter: Publishers.Create<Output, Failure>.Emitter?
  }

  private func manual(
    _ box: EmitterBox<Int, TestError>, log: Log
  ) -> Publishers.Create<Int, TestError> {
    Publishers.Create { subscriber in
      box.emitter = subscriber
      return AnyCancellable { log.append("hook") }
    }
  }

  // MARK: Values and completion

  func test_deliversValuesAndCompletion_thenCallsTheHookOnce() {
    let log = Log()
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onCompletion = { _ in log.append("completion") }
    Publishers.Create<Int, Never> { subscriber in
      subscriber.send(1)
      subscriber.send(2)
      subscriber.send(completion: .finished)
      log.append("returned")
      return AnyCancellable { log.append("hook") }
    }.subscribe(subscriber)

    XCTAssertEqual(
      subscriber.events, [.subscription("Create"), .value(1), .value(2), .completion(.finished)])
    XCTAssertEqual(log.all, ["completion", "returned", "hook"], "the hook waits for the closure to return")
  }

  func test_callsTheClosureOncePerSubscriber() {
    var calls = 0
    let publisher = Publishers.Create<Int, Never> { subscriber in
      calls += 1
      subscriber.send(calls)
      subscriber.send(completion: .finished)
      return AnyCancellable {}
    }
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    publisher.subscribe(first)
    publisher.subscribe(second)
    XCTAssertEqual(first.values, [1])
    XCTAssertEqual(second.values, [2])
  }

  func test_failureIsDelivered_andTheHookCalled() {
    let log = Log()
    let box = EmitterBox<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    manual(box, log: log).subscribe(subscriber)
    box.emitter?.send(1)
    box.emitter?.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(
      subscriber.events, [.subscription("Create"), .value(1), .completion(.failure(TestError("boom")))])
    XCTAssertEqual(log.all, ["hook"])
  }

  func test_ignoresEverythingAfterTheCompletion() {
    let log = Log()
    let box = EmitterBox<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    manual(box, log: log).subscribe(subscriber)
    box.emitter?.send(completion: .finished)
    box.emitter?.send(2)
    box.emitter?.send(completion: .failure(TestError("late")))
    XCTAssertEqual(subscriber.events, [.subscription("Create"), .completion(.finished)])
    XCTAssertEqual(log.all, ["hook"])
  }

  func test_sendsVoid() {
    let subscriber = TestSubscriber<Void, Never>()
    Publishers.Create<Void, Never> { subscriber in
      subscriber.send()
      return AnyCancellable {}
    }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values.count, 1)
  }

  // MARK: Demand and buffering

  func test_buffersValuesWithoutDemand_andDeliversThemAsDemandArrives() {
    let log = Log()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    subscriber.onCompletion = { _ in log.append("completion") }
    Publishers.Create<Int, Never> { subscriber in
      for value in 1...4 { subscriber.send(value) }
      subscriber.send(completion: .finished)
      return AnyCancellable { log.append("hook") }
    }.subscribe(subscriber)

    XCTAssertEqual(subscriber.events, [.subscription("Create")])
    XCTAssertEqual(log.all, [], "the completion waits behind the buffered values")

    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [1])
    subscriber.request(.max(2))
    XCTAssertEqual(subscriber.values, [1, 2, 3])
    XCTAssertNil(subscriber.completion)
    subscriber.request(.unlimited)
    XCTAssertEqual(
      subscriber.events,
      [.subscription("Create"), .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
    XCTAssertEqual(log.all, ["completion", "hook"])
  }

  func test_liveSends_honourNoneThenOneThenMoreThenUnlimited() {
    let log = Log()
    let box = EmitterBox<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    manual(box, log: log).subscribe(subscriber)
    let emitter = box.emitter!

    emitter.send(1)
    XCTAssertEqual(subscriber.values, [])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [1])
    emitter.send(2)
    emitter.send(3)
    XCTAssertEqual(subscriber.values, [1])
    subscriber.request(.max(3))
    XCTAssertEqual(subscriber.values, [1, 2, 3])
    emitter.send(4)
    emitter.send(5)
    XCTAssertEqual(subscriber.values, [1, 2, 3, 4], "the fourth unit of demand is used up")
    subscriber.request(.unlimited)
    for value in 6...8 { emitter.send(value) }
    XCTAssertEqual(subscriber.values, Array(1...8))
    XCTAssertEqual(subscriber.demands, [.max(1), .max(3), .unlimited])
  }

  func test_demandReturnedFromReceive_releasesMoreBufferedValues() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    Publishers.Create<Int, Never> { subscriber in
      for value in 1...3 { subscriber.send(value) }
      return AnyCancellable {}
    }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2, 3])
  }

  func test_requestInsideReceive_deliversInOrderWithoutReentering() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    var depth = 0
    var maxDepth = 0
    subscriber.onValue = { [unowned subscriber] _ in
      depth += 1
      maxDepth = max(maxDepth, depth)
      subscriber.request(.max(1))
      depth -= 1
      return .none
    }
    Publishers.Create<Int, Never> { subscriber in
      for value in 1...5 { subscriber.send(value) }
      return AnyCancellable {}
    }.subscribe(subscriber)
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [1, 2, 3, 4, 5])
    XCTAssertEqual(maxDepth, 1, "a request from inside receive must not deliver re-entrantly")
  }

  func test_sendInsideReceive_isQueuedAndDeliveredAfter() {
    let box = EmitterBox<Int, TestError>()
    let log = Log()
    let subscriber = TestSubscriber<Int, TestError>()
    subscriber.onValue = { value in
      log.append("in \(value)")
      if value == 1 {
        box.emitter?.send(2)
        box.emitter?.send(completion: .finished)
      }
      log.append("out \(value)")
      return .none
    }
    manual(box, log: log).subscribe(subscriber)
    box.emitter?.send(1)
    XCTAssertEqual(subscriber.events, [.subscription("Create"), .value(1), .value(2), .completion(.finished)])
    XCTAssertEqual(log.all, ["in 1", "out 1", "in 2", "out 2", "hook"])
  }

  // MARK: Cancel and the hook

  func test_cancel_callsTheHookExactlyOnce_andStopsDelivery() {
    let log = Log()
    let box = EmitterBox<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    manual(box, log: log).subscribe(subscriber)
    box.emitter?.send(1)
    subscriber.cancel()
    subscriber.subscription?.cancel()
    box.emitter?.send(2)
    box.emitter?.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("Create"), .value(1)])
    XCTAssertEqual(log.all, ["hook"])
  }

  func test_cancelTwice_callsTheHookOnce() {
    let log = Log()
    let box = EmitterBox<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    var held: Subscription?
    subscriber.onSubscription = { held = $0 }
    manual(box, log: log).subscribe(subscriber)
    held?.cancel()
    held?.cancel()
    XCTAssertEqual(log.all, ["hook"])
  }

  func test_cancelInsideReceive_dropsTheBuffer_andCallsTheHookOnce() {
    let log = Log()
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { [unowned subscriber] _ in
      subscriber.cancel()
      return .none
    }
    Publishers.Create<Int, Never> { subscriber in
      for value in 1...3 { subscriber.send(value) }
      subscriber.send(completion: .finished)
      return AnyCancellable { log.append("hook") }
    }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Create"), .value(1)])
    XCTAssertEqual(log.all, ["hook"])
  }

  func test_cancelWhileTheClosureRuns_callsTheHookWhenItReturns() {
    let log = Log()
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { [unowned subscriber] _ in
      subscriber.cancel()
      return .none
    }
    Publishers.Create<Int, Never> { subscriber in
      subscriber.send(1)
      log.append("returning")
      return AnyCancellable { log.append("hook") }
    }.subscribe(subscriber)
    XCTAssertEqual(log.all, ["returning", "hook"])
  }

  func test_cancelDuringReceiveSubscription_neverCallsTheClosure() {
    var called = false
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    subscriber.onSubscription = { $0.cancel() }
    Publishers.Create<Int, Never> { _ in
      called = true
      return AnyCancellable {}
    }.subscribe(subscriber)
    XCTAssertFalse(called)
    XCTAssertEqual(subscriber.events, [.subscription("Create")])
  }

  // MARK: Lifetimes

  func test_lifetime_cancelReleasesDownstreamBufferAndHook_evenIfTheProducerKeepsTheEmitter() {
    let tracker = LifetimeTracker()
    let box = EmitterBox<TrackedValue, Never>()
    weak var weakSubscriber: TestSubscriber<TrackedValue, Never>?
    do {
      let subscriber = TestSubscriber<TrackedValue, Never>(initialDemand: .max(1))
      weakSubscriber = subscriber
      let probe = tracker.make()
      Publishers.Create<TrackedValue, Never> { emitter in
        box.emitter = emitter
        for value in 1...3 { emitter.send(TrackedValue(value, tracker)) }
        // The hook captures the emitter, as real hooks often do.
        return AnyCancellable { withExtendedLifetime((probe, emitter)) {} }
      }.subscribe(subscriber)
      XCTAssertEqual(tracker.liveCount, 4, "one delivered value kept by the subscriber, two buffered, the probe")
      subscriber.cancel()
    }
    XCTAssertNotNil(box.emitter, "the producer still holds its emitter")
    XCTAssertNil(weakSubscriber, "downstream leaked")
    XCTAssertEqual(tracker.liveCount, 0, "a buffered value or the hook leaked")
  }

  func test_lifetime_completionFreesTheSubscription_whenTheEmitterIsDropped() {
    let tracker = LifetimeTracker()
    let subscriber = TestSubscriber<Int, Never>()
    weak var weakSubscription: AnyObject?
    do {
      let probe = tracker.make()
      Publishers.Create<Int, Never> { emitter in
        emitter.send(1)
        emitter.send(completion: .finished)
        return AnyCancellable { withExtendedLifetime((probe, emitter)) {} }
      }.subscribe(subscriber)
    }
    weakSubscription = subscriber.subscription as AnyObject?
    XCTAssertNil(weakSubscription)
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(tracker.liveCount, 0)
  }

}
