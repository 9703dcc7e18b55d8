import Confluence
import ConfluenceTesting
import Foundation
import XCTest

/// merge, zip, combineLatest, flatMap and switchToLatest with every upstream driven from its own thread,
/// while one more thread requests one value at a time and, in every other round, another
/// cancels. CI runs these under the thread sanitizer (`--filter StressTests`).
///
/// Each round checks: no contract violation (the TestSubscriber, with strict cancellation
/// off because a value may be in flight when cancel returns); never more values than the
/// demand granted; each upstream's values arrive in the order that upstream sent them,
/// none skipped; rounds that are not cancelled end with every sent value delivered and
/// `.finished`; and afterwards the operator's subscription and closures are freed and no
/// upstream still holds a subscriber.
final class FanInStressTests: XCTestCase {
  #if CONFLUENCE_THREAD_SANITIZER
    private let rounds = 40
  #else
    private let rounds = 150
  #endif
  private let valuesPerUpstream = 30
  /// Values per subject in the unlimited-demand tests: enough for the two senders to
  /// overlap for a while.
  #if CONFLUENCE_THREAD_SANITIZER
    private let lanePerUpstream = 300
    private let laneRounds = 20
  #else
    private let lanePerUpstream = 1000
    private let laneRounds = 60
  #endif

  // MARK: merge

  func test_merge_threeThreadedUpstreams_requestAndCancelRace() {
    for round in 0..<rounds {
      let sources = (0..<3).map { _ in DrivenPublisher<Int>() }
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), strictCancellation: false)
      sources[0].merge(with: sources[1], sources[2]).subscribe(subscriber)
      weak let subscription = subscriber.subscription as AnyObject?
      XCTAssertNotNil(subscription)

      let cancels = round.isMultiple(of: 2)
      let count = valuesPerUpstream
      var work: [@Sendable () -> Void] = sources.enumerated().map { index, source in
        { source.drive((0..<count).map { index * 1000 + $0 }) }
      }
      work.append(requester(subscriber, count: 40, releasing: sources))
      if cancels { work.append(canceller(subscriber, afterValues: round % 5)) }
      runConcurrently(work)

      if !cancels { subscriber.request(.unlimited) }
      let values = subscriber.values
      assertWithinDemand(subscriber, round: round)
      for (index, source) in sources.enumerated() {
        let fromSource = values.filter { $0 / 1000 == index }
        XCTAssertEqual(fromSource, Array(source.sent.prefix(fromSource.count)), "round \(round), source \(index)")
        if !cancels { XCTAssertEqual(fromSource, source.sent, "round \(round), source \(index)") }
      }
      if !cancels { XCTAssertEqual(subscriber.completion, .finished, "round \(round)") }
      subscriber.cancel()
      XCTAssertNil(subscription, "round \(round): Merge still alive")
      XCTAssertFalse(sources.contains { $0.holdsSubscriber }, "round \(round)")
    }
  }

  // MARK: zip

  func test_zip_twoThreadedUpstreams_pairInOrder_requestAndCancelRace() {
    for round in 0..<rounds {
      let a = DrivenPublisher<Int>()
      let b = DrivenPublisher<Int>()
      let subscriber = TestSubscriber<(Int, Int), TestError>(initialDemand: .max(1), strictCancellation: false)
      a.zip(b).subscribe(subscriber)
      weak let subscription = subscriber.subscription as AnyObject?
      XCTAssertNotNil(subscription)

      let cancels = round.isMultiple(of: 2)
      let count = valuesPerUpstream
      var work: [@Sendable () -> Void] = [
        { a.drive(Array(0..<count)) },
        { b.drive((0..<count).map { 1000 + $0 }) },
        requester(subscriber, count: 40, releasing: [a, b]),
      ]
      if cancels { work.append(canceller(subscriber, afterValues: round % 5)) }
      runConcurrently(work)

      if !cancels { subscriber.request(.unlimited) }
      let pairs = subscriber.values
      assertWithinDemand(subscriber, round: round)
      XCTAssertEqual(pairs.map(\.0), Array(a.sent.prefix(pairs.count)), "round \(round)")
      XCTAssertEqual(pairs.map(\.1), Array(b.sent.prefix(pairs.count)), "round \(round)")
      if !cancels {
        XCTAssertEqual(pairs.count, min(a.sent.count, b.sent.count), "round \(round)")
        XCTAssertEqual(subscriber.completion, .finished, "round \(round)")
      }
      subscriber.cancel()
      XCTAssertNil(subscription, "round \(round): Zip still alive")
      XCTAssertFalse(a.holdsSubscriber || b.holdsSubscriber, "round \(round)")
    }
  }

  func test_zip3_threeThreadedUpstreams_failureRacesRequests() {
    for round in 0..<rounds {
      let sources = (0..<3).map { _ in DrivenPublisher<Int>() }
      let subscriber = TestSubscriber<(Int, Int, Int), TestError>(initialDemand: .max(2), strictCancellation: false)
      sources[0].zip(sources[1], sources[2]).subscribe(subscriber)
      weak let subscription = subscriber.subscription as AnyObject?

      let count = valuesPerUpstream
      let failing = round % 3
      let work: [@Sendable () -> Void] =
        sources.enumerated().map { index, source in
          { source.drive(Array(0..<count), then: index == failing ? .failure(TestError()) : .finished) }
        } + [requester(subscriber, count: 40, releasing: sources)]
      runConcurrently(work)

      subscriber.request(.unlimited)
      let triples = subscriber.values
      assertWithinDemand(subscriber, round: round)
      XCTAssertEqual(triples.map(\.0), Array(sources[0].sent.prefix(triples.count)), "round \(round)")
      XCTAssertEqual(triples.map(\.1), Array(sources[1].sent.prefix(triples.count)), "round \(round)")
      XCTAssertEqual(triples.map(\.2), Array(sources[2].sent.prefix(triples.count)), "round \(round)")
      // Whether the failure or the end of the shortest side comes first is a race; either
      // way the subscriber sees exactly one completion.
      XCTAssertNotNil(subscriber.completion, "round \(round)")
      subscriber.cancel()
      XCTAssertNil(subscription, "round \(round): Zip3 still alive")
      XCTAssertFalse(sources.contains { $0.holdsSubscriber }, "round \(round)")
    }
  }

  // MARK: combineLatest

  func test_combineLatest_twoThreadedUpstreams_requestAndCancelRace() {
    for round in 0..<rounds {
      let a = DrivenPublisher<Int>()
      let b = DrivenPublisher<Int>()
      let subscriber = TestSubscriber<(Int, Int), TestError>(initialDemand: .max(1), strictCancellation: false)
      a.combineLatest(b).subscribe(subscriber)
      weak let subscription = subscriber.subscription as AnyObject?
      XCTAssertNotNil(subscription)

      let cancels = round.isMultiple(of: 2)
      let count = valuesPerUpstream
      var work: [@Sendable () -> Void] = [
        { a.drive(Array(0..<count)) },
        { b.drive((0..<count).map { 1000 + $0 }) },
        requester(subscriber, count: 40, releasing: [a, b]),
      ]
      if cancels { work.append(canceller(subscriber, afterValues: round % 5)) }
      runConcurrently(work)

      if !cancels { subscriber.request(.unlimited) }
      let pairs = subscriber.values
      assertWithinDemand(subscriber, round: round)
      let sentA = Set(a.sent)
      let sentB = Set(b.sent)
      XCTAssertTrue(pairs.allSatisfy { sentA.contains($0.0) && sentB.contains($0.1) }, "round \(round)")
      XCTAssertEqual(pairs.map(\.0), pairs.map(\.0).sorted(), "round \(round): A went backwards")
      XCTAssertEqual(pairs.map(\.1), pairs.map(\.1).sorted(), "round \(round): B went backwards")
      if !cancels {
        if let lastA = a.sent.last, let lastB = b.sent.last {
          XCTAssertEqual(pairs.last?.0, lastA, "round \(round)")
          XCTAssertEqual(pairs.last?.1, lastB, "round \(round)")
        } else {
          XCTAssertTrue(pairs.isEmpty, "round \(round)")
        }
        XCTAssertEqual(subscriber.completion, .finished, "round \(round)")
      }
      subscriber.cancel()
      XCTAssertNil(subscription, "round \(round): CombineLatest still alive")
      XCTAssertFalse(a.holdsSubscriber || b.holdsSubscriber, "round \(round)")
    }
  }

  // MARK: flatMap

  func test_flatMap_threadedInners_maxPublishers_requestAndCancelRace() {
    for round in 0..<rounds {
      let tracker = LifetimeTracker()
      let inners = (0..<4).map { _ in DrivenPublisher<Int>() }
      let subscribed = SubscribeCounter()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), strictCancellation: false)
      Publishers.Sequence<[Int], TestError>(sequence: Array(inners.indices))
        .flatMap(maxPublishers: .max(2)) { [probe = tracker.make()] index -> DrivenPublisher<Int> in
          _ = probe
          subscribed.enter(index, open: inners.filter(\.holdsOrAwaitsSubscriber).count)
          return inners[index]
        }
        .subscribe(subscriber)
      weak let subscription = subscriber.subscription as AnyObject?
      XCTAssertNotNil(subscription)

      let cancels = round.isMultiple(of: 2)
      let count = valuesPerUpstream
      var work: [@Sendable () -> Void] = inners.enumerated().map { index, inner in
        { inner.drive((0..<count).map { index * 1000 + $0 }) }
      }
      work.append(requester(subscriber, count: 40, releasing: inners))
      if cancels { work.append(canceller(subscriber, afterValues: round % 5)) }
      runConcurrently(work)

      if !cancels { subscriber.request(.unlimited) }
      let values = subscriber.values
      assertWithinDemand(subscriber, round: round)
      XCTAssertLessThanOrEqual(subscribed.maximumOpen, 2, "round \(round): more than maxPublishers inners at once")
      for (index, inner) in inners.enumerated() {
        let fromInner = values.filter { $0 / 1000 == index }
        XCTAssertEqual(fromInner, Array(inner.sent.prefix(fromInner.count)), "round \(round), inner \(index)")
        if !cancels { XCTAssertEqual(fromInner, inner.sent, "round \(round), inner \(index)") }
      }
      if !cancels {
        XCTAssertEqual(subscribed.indices, Array(inners.indices), "round \(round)")
        XCTAssertEqual(subscriber.completion, .finished, "round \(round)")
      }
      subscriber.cancel()
      XCTAssertNil(subscription, "round \(round): FlatMap still alive")
      XCTAssertEqual(tracker.liveCount, 0, "round \(round): the transform was not released")
      XCTAssertFalse(inners.contains { $0.holdsSubscriber }, "round \(round)")
    }
  }

  // MARK: switchToLatest

  func test_switchToLatest_threadedOuterAndInners_requestAndCancelRace() {
    for round in 0..<rounds {
      let outer = DrivenPublisher<DrivenPublisher<Int>>()
      let inners = (0..<3).map { _ in DrivenPublisher<Int>() }
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), strictCancellation: false)
      outer.switchToLatest().subscribe(subscriber)
      weak let subscription = subscriber.subscription as AnyObject?
      XCTAssertNotNil(subscription)

      let cancels = round.isMultiple(of: 2)
      let count = valuesPerUpstream
      var work: [@Sendable () -> Void] = inners.enumerated().map { index, inner in
        { inner.drive((0..<count).map { index * 1000 + $0 }) }
      }
      work.append { outer.drive(inners) }
      work.append(requester(subscriber, count: 40, releasing: inners + [outer]))
      if cancels { work.append(canceller(subscriber, afterValues: round % 5)) }
      runConcurrently(work)

      if !cancels { subscriber.request(.unlimited) }
      let values = subscriber.values
      assertWithinDemand(subscriber, round: round)
      let order = values.map { $0 / 1000 }
      XCTAssertEqual(order, order.sorted(), "round \(round): a replaced inner delivered after its successor")
      for (index, inner) in inners.enumerated() {
        let fromInner = values.filter { $0 / 1000 == index }
        XCTAssertEqual(fromInner, Array(inner.sent.prefix(fromInner.count)), "round \(round), inner \(index)")
      }
      if !cancels {
        XCTAssertEqual(values.filter { $0 / 1000 == 2 }, inners[2].sent, "round \(round): the latest inner lost values")
        XCTAssertEqual(subscriber.completion, .finished, "round \(round)")
      }
      subscriber.cancel()
      XCTAssertNil(subscription, "round \(round): SwitchToLatest still alive")
      XCTAssertFalse(outer.holdsSubscriber || inners.contains { $0.holdsSubscriber }, "round \(round)")
    }
  }

  // MARK: Unlimited demand: the lock-free hand-overs

  // With unlimited demand, merge hands values over through its lane (two exchanges, no
  // lock) and zip and combineLatest let go of delivery with one exchange. Two subjects are
  // sent to from two threads at once while a third thread keeps entering critical sections
  // (requests, which close and reopen merge's lane) or cancels.

  func test_merge_twoSubjects_unlimitedDemand_concurrentSendsAndRequests_deliverEverythingInOrder() {
    let count = lanePerUpstream
    for round in 0..<laneRounds {
      unlimitedRound(round, of: "Merge", { $0.merge(with: $1) }, alongside: requests) { subscriber in
        let values = subscriber.values
        XCTAssertEqual(values.filter { $0 < 1_000_000 }, Array(0..<count), "round \(round): A")
        XCTAssertEqual(values.filter { $0 >= 1_000_000 }, (0..<count).map { 1_000_000 + $0 }, "round \(round): B")
        XCTAssertEqual(subscriber.completion, .finished, "round \(round)")
      }
    }
  }

  func test_merge_twoSubjects_unlimitedDemand_cancelRacesSends() {
    for round in 0..<laneRounds {
      unlimitedRound(round, of: "Merge", { $0.merge(with: $1) }, alongside: cancel(afterValues: round % 50)) {
        subscriber in
        let values = subscriber.values
        let fromA = values.filter { $0 < 1_000_000 }
        let fromB = values.filter { $0 >= 1_000_000 }
        XCTAssertEqual(fromA, Array(0..<fromA.count), "round \(round): A")
        XCTAssertEqual(fromB, (0..<fromB.count).map { 1_000_000 + $0 }, "round \(round): B")
        XCTAssertNil(subscriber.completion, "round \(round): completed after cancel")
      }
    }
  }

  func test_zip_twoSubjects_unlimitedDemand_concurrentSends_pairEverythingInOrder() {
    let count = lanePerUpstream
    for round in 0..<laneRounds {
      unlimitedRound(round, of: "Zip", { $0.zip($1) }, alongside: requests) { subscriber in
        let pairs = subscriber.values
        XCTAssertEqual(pairs.map(\.0), Array(0..<count), "round \(round): A")
        XCTAssertEqual(pairs.map(\.1), (0..<count).map { 1_000_000 + $0 }, "round \(round): B")
        XCTAssertEqual(subscriber.completion, .finished, "round \(round)")
      }
    }
  }

  func test_zip_twoSubjects_unlimitedDemand_cancelRacesSends() {
    for round in 0..<laneRounds {
      unlimitedRound(round, of: "Zip", { $0.zip($1) }, alongside: cancel(afterValues: round % 50)) { subscriber in
        let pairs = subscriber.values
        XCTAssertEqual(pairs.map(\.0), Array(0..<pairs.count), "round \(round): A")
        XCTAssertEqual(pairs.map(\.1), (0..<pairs.count).map { 1_000_000 + $0 }, "round \(round): B")
        XCTAssertNil(subscriber.completion, "round \(round): completed after cancel")
      }
    }
  }

  func test_combineLatest_twoSubjects_unlimitedDemand_concurrentSends_onePairPerValueEndingWithTheLatest() {
    let count = lanePerUpstream
    for round in 0..<laneRounds {
      unlimitedRound(round, of: "CombineLatest", { $0.combineLatest($1) }, alongside: requests) { subscriber in
        let pairs = subscriber.values
        assertNeverBackwards(pairs, round: round)
        XCTAssertEqual(pairs.last?.0, count - 1, "round \(round)")
        XCTAssertEqual(pairs.last?.1, 1_000_000 + count - 1, "round \(round)")
        // With unlimited demand, one pair per value once both sides have one, including the
        // values that arrive while another thread delivers (they wait their turn; they
        // coalesce only when demand runs out, as Apple's do): every value of each side from
        // the first pair on appears.
        if let firstPair = pairs.first {
          let expected = (count - firstPair.0) + (count - (firstPair.1 - 1_000_000)) - 1
          XCTAssertEqual(pairs.count, expected, "round \(round)")
          XCTAssertEqual(Set(pairs.map(\.0)), Set(firstPair.0..<count), "round \(round): a value of A skipped")
          XCTAssertEqual(
            Set(pairs.map(\.1)), Set((firstPair.1 - 1_000_000..<count).map { 1_000_000 + $0 }),
            "round \(round): a value of B skipped")
        }
        XCTAssertEqual(subscriber.completion, .finished, "round \(round)")
      }
    }
  }

  func test_combineLatest_twoSubjects_unlimitedDemand_cancelRacesSends() {
    for round in 0..<laneRounds {
      unlimitedRound(round, of: "CombineLatest", { $0.combineLatest($1) }, alongside: cancel(afterValues: round % 50)) {
        subscriber in
        assertNeverBackwards(subscriber.values, round: round)
        XCTAssertNil(subscriber.completion, "round \(round): completed after cancel")
      }
    }
  }

  /// One round of the unlimited-demand tests: an unlimited subscriber attached to
  /// `operate(a, b)`; `a` sends 0, 1, … and `b` 1,000,000, 1,000,001, … (`lanePerUpstream`
  /// values each) from two threads while `alongside` runs on a third; then both complete,
  /// `check` looks at the subscriber (no contract violation is checked here), and once the
  /// subscriber cancels, the operator's subscription must be gone.
  private func unlimitedRound<Output>(
    _ round: Int, of name: String,
    _ operate: (PassthroughSubject<Int, TestError>, PassthroughSubject<Int, TestError>) -> some Publisher<
      Output, TestError
    >,
    alongside: (TestSubscriber<Output, TestError>) -> @Sendable () -> Void,
    check: (TestSubscriber<Output, TestError>) -> Void
  ) {
    let a = PassthroughSubject<Int, TestError>()
    let b = PassthroughSubject<Int, TestError>()
    let subscriber = TestSubscriber<Output, TestError>(initialDemand: .unlimited, strictCancellation: false)
    operate(a, b).subscribe(subscriber)
    weak let subscription = subscriber.subscription as AnyObject?
    let count = lanePerUpstream
    runConcurrently([
      { for value in 0..<count { a.send(value) } },
      { for value in 0..<count { b.send(1_000_000 + value) } },
      alongside(subscriber),
    ])
    a.send(completion: .finished)
    b.send(completion: .finished)
    XCTAssertTrue(subscriber.violations.isEmpty, "round \(round): \(subscriber.violations)")
    check(subscriber)
    subscriber.cancel()
    XCTAssertNil(subscription, "round \(round): \(name) still alive")
  }

  /// Work for the third thread of ``unlimitedRound(_:of:_:alongside:check:)``: requests
  /// (critical sections that close and reopen merge's lane), which change nothing.
  private func requests<Input>(_ subscriber: TestSubscriber<Input, TestError>) -> @Sendable () -> Void {
    let count = lanePerUpstream / 4
    return { for _ in 0..<count { subscriber.request(.max(1)) } }
  }

  /// Work for the third thread of ``unlimitedRound(_:of:_:alongside:check:)``: a cancel
  /// after `values` values.
  private func cancel<Input>(afterValues values: Int) -> (TestSubscriber<Input, TestError>) -> @Sendable () -> Void {
    { self.canceller($0, afterValues: values) }
  }

  private func assertNeverBackwards(_ pairs: [(Int, Int)], round: Int, line: UInt = #line) {
    XCTAssertEqual(pairs.map(\.0), pairs.map(\.0).sorted(), "round \(round): A went backwards", line: line)
    XCTAssertEqual(pairs.map(\.1), pairs.map(\.1).sorted(), "round \(round): B went backwards", line: line)
  }

  // MARK: Helpers

  /// Requests one value at a time, `count` times, then lets `publishers` drop what no
  /// demand is left for.
  private func requester<Input>(
    _ subscriber: TestSubscriber<Input, TestError>, count: Int, releasing publishers: [any WaitingProducer]
  ) -> @Sendable () -> Void {
    {
      for _ in 0..<count { subscriber.request(.max(1)) }
      for publisher in publishers { publisher.stopWaiting() }
    }
  }

  /// Makes `subscriber` count its values, and returns work for another thread that
  /// waits (blocking, for at most 20 ms) until `values` of them arrived, then cancels.
  private func canceller<Input>(
    _ subscriber: TestSubscriber<Input, TestError>, afterValues values: Int
  ) -> @Sendable () -> Void {
    let latch = ValueLatch()
    subscriber.onValue = { _ in
      latch.countOne()
      return .none
    }
    return {
      latch.wait(forAtLeast: values)
      subscriber.cancel()
    }
  }

  private func assertWithinDemand<Input>(
    _ subscriber: TestSubscriber<Input, TestError>, round: Int, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertTrue(subscriber.violations.isEmpty, "round \(round): \(subscriber.violations)", file: file, line: line)
    let granted = subscriber.demands.reduce(Subscribers.Demand.none, +)
    if let granted = granted.max {
      XCTAssertLessThanOrEqual(subscriber.values.count, granted, "round \(round)", file: file, line: line)
    }
  }
}

/// Runs each body on a thread of its own, all released together, and waits for all.
private func runConcurrently(_ bodies: [@Sendable () -> Void]) {
  let group = DispatchGroup()
  let gate = StartGate(parties: bodies.count)
  for body in bodies {
    group.enter()
    Thread {
      gate.arriveAndWait()
      body()
      group.leave()
    }.start()
  }
  group.wait()
}

/// Holds threads until all of them have arrived, so that their work overlaps.
private final class StartGate: @unchecked Sendable {
  // @unchecked Sendable: `waiting` is guarded by `condition`.
  private let condition = NSCondition()
  private var waiting: Int

  init(parties: Int) { waiting = parties }

  func arriveAndWait() {
    condition.lock()
    defer { condition.unlock() }
    waiting -= 1
    if waiting == 0 {
      condition.broadcast()
    } else {
      while waiting > 0 { condition.wait() }
    }
  }
}

/// Counts values and lets another thread wait for a number of them.
private final class ValueLatch: @unchecked Sendable {
  // @unchecked Sendable: `count` is guarded by `condition`.
  private let condition = NSCondition()
  private var count = 0

  func countOne() {
    condition.lock()
    count += 1
    condition.unlock()
    condition.broadcast()
  }

  func wait(forAtLeast target: Int) {
    let deadline = Date(timeIntervalSinceNow: 0.02)
    condition.lock()
    defer { condition.unlock() }
    while count < target && condition.wait(until: deadline) {}
  }
}

/// Records which inner publishers a flatMap asked for, and how many were open at once.
private final class SubscribeCounter: @unchecked Sendable {
  // @unchecked Sendable: every field is guarded by `lock`.
  private let lock = NSLock()
  private var _indices: [Int] = []
  private var _maximumOpen = 0

  func enter(_ index: Int, open: Int) {
    lock.withLock {
      _indices.append(index)
      _maximumOpen = max(_maximumOpen, open + 1)
    }
  }

  var indices: [Int] { lock.withLock { _indices } }
  var maximumOpen: Int { lock.withLock { _maximumOpen } }
}

/// A thread-safe, back-pressured publisher that one producer thread drives:
/// ``drive(_:then:)`` offers each value in turn, blocking (not spinning) until the
/// subscriber has demand outstanding, then completes. Once ``stopWaiting()`` was called, a
/// value offered without demand is dropped instead, so a round always ends. ``sent``
/// records what was actually sent, in order.
///
/// A completion is remembered: a subscriber that arrives after it gets the subscription
/// and then the completion at once. One subscriber at a time; it is released on cancel and
/// on completion, as a real publisher releases it.
/// A producer that may block until it is told to stop waiting for demand.
private protocol WaitingProducer: Sendable {
  func stopWaiting()
}

private final class DrivenPublisher<Output: Sendable>: Publisher, WaitingProducer, @unchecked Sendable {
  typealias Failure = TestError

  // @unchecked Sendable: every mutable field is guarded by `condition`; the subscriber is
  // called only outside it, from the producer thread (values, completion) or the
  // subscribing one.
  private let condition = NSCondition()
  private var subscriber: ClosureSubscriber<Output, TestError>?
  private var subscribing = false
  private var generation = 0
  private var demand = Subscribers.Demand.none
  private var completion: Subscribers.Completion<TestError>?
  private var dropsWithoutDemand = false
  private var _sent: [Output] = []

  /// The values sent to a subscriber, in order.
  var sent: [Output] { locked { _sent } }

  /// Whether a subscriber is still held.
  var holdsSubscriber: Bool { locked { subscriber != nil } }

  /// Whether a subscriber is held or on its way.
  var holdsOrAwaitsSubscriber: Bool { locked { subscriber != nil || subscribing } }

  /// From now on, values offered without demand are dropped instead of waited for.
  func stopWaiting() {
    locked { dropsWithoutDemand = true }
    condition.broadcast()
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == TestError {
    let token = locked { () -> Token in
      generation += 1
      demand = .none
      subscribing = true
      return Token(owner: self, generation: generation)
    }
    subscriber.receive(subscription: token)
    let late = locked { () -> Subscribers.Completion<TestError>? in
      subscribing = false
      guard token.generation == generation else { return nil }  // cancelled meanwhile
      if let completion { return completion }
      self.subscriber = ClosureSubscriber(subscriber)
      return nil
    }
    condition.broadcast()
    if let late { subscriber.receive(completion: late) }
  }

  /// Offers `values` one by one, then completes.
  func drive(_ values: [Output], then completion: Subscribers.Completion<TestError> = .finished) {
    for value in values { offer(value) }
    complete(completion)
  }

  private func offer(_ value: Output) {
    condition.lock()
    while !dropsWithoutDemand && (subscriber == nil || demand == .none) {
      condition.wait()
    }
    guard let subscriber, demand > 0 else {
      condition.unlock()
      return
    }
    demand -= 1
    _sent.append(value)
    let generation = self.generation
    condition.unlock()

    let more = subscriber.receiveValue(value)
    if more > 0 {
      locked { if generation == self.generation { demand += more } }
    }
  }

  private func complete(_ completion: Subscribers.Completion<TestError>) {
    let target = locked { () -> ClosureSubscriber<Output, TestError>? in
      guard self.completion == nil else { return nil }
      self.completion = completion
      defer { subscriber = nil }
      return subscriber
    }
    target?.receiveCompletion(completion)
  }

  private func locked<R>(_ body: () -> R) -> R {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }

  private final class Token: Subscription {
    let owner: DrivenPublisher
    let generation: Int

    init(owner: DrivenPublisher, generation: Int) {
      self.owner = owner
      self.generation = generation
    }

    func request(_ demand: Subscribers.Demand) {
      owner.locked { if owner.generation == generation { owner.demand += demand } }
      owner.condition.broadcast()
    }

    func cancel() {
      let released = owner.locked { () -> ClosureSubscriber<Output, TestError>? in
        guard owner.generation == generation else { return nil }
        owner.generation += 1  // later requests and deliveries of this subscription are void
        defer { owner.subscriber = nil }
        return owner.subscriber
      }
      owner.condition.broadcast()
      _ = released  // released outside the lock
    }
  }
}
