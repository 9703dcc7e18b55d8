import Confluence
import ConfluenceTesting
import XCTest

/// Rules Apple gives the filter-like operators at the edges of a subscription, family by
/// family: relays (`map`, `filter`, `compactMap`, `scan`), the strict family (`tryFilter`,
/// `tryCompactMap`, `removeDuplicates`, `prefix(while:)` and their `try` forms), the quiet
/// family (`drop(while:)`, `tryDrop(while:)`), the stateless family (`tryMap`, `tryScan`,
/// `output(in:)`) and `dropFirst`. The strict family's traps are in `MisuseTrapTests`.
final class FilteringFamilyRulesTests: XCTestCase {
  // MARK: Relays

  func test_relays_handOnUpstreamsSubscription_andPassEveryCompletion() {
    for make in [
      { (upstream: DetachedUpstream<Int, TestError>) in upstream.filter { _ in true }.eraseToAnyPublisher() },
      { $0.compactMap { $0 }.eraseToAnyPublisher() },
      { $0.map { $0 }.eraseToAnyPublisher() },
      { $0.scan(0, +).eraseToAnyPublisher() },
    ] {
      let upstream = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>()
      subscriber.onViolation = { _ in }
      make(upstream).subscribe(subscriber)
      let subscription = upstream.attach()
      XCTAssertEqual(subscriber.subscriptionDescription, "Recording")
      XCTAssertEqual(subscription.events, [.requested(.unlimited)], "the downstream requests from upstream directly")
      upstream.send(completion: .finished)
      upstream.send(completion: .failure(TestError("late")))
      XCTAssertEqual(
        subscriber.eventDescriptions, ["subscription(Recording)", "completion(finished)", "completion(failure(late))"])
    }
  }

  func test_relayMirrors_emptyExceptScansResult() {
    let upstream = DetachedUpstream<Int, Never>()
    upstream.scan(10, +).subscribe(TestSubscriber<Int, Never>())
    XCTAssertEqual(String(describing: upstream.operatorSubscriber), "Scan")
    XCTAssertEqual(Mirror(reflecting: upstream.operatorSubscriber).children.map(\.label), ["downstream", "result"])
    let mapped = DetachedUpstream<Int, Never>()
    mapped.map { $0 }.subscribe(TestSubscriber<Int, Never>())
    XCTAssertTrue(Mirror(reflecting: mapped.operatorSubscriber).children.isEmpty)
  }

  func test_keyPathMaps_showTheirKeyPaths() {
    struct Pair { var a = 1, b = 2, c = 3 }
    let one = DetachedUpstream<Pair, Never>()
    one.map(\.a).subscribe(TestSubscriber<Int, Never>())
    XCTAssertEqual(String(describing: one.operatorSubscriber), "ValueForKey")
    XCTAssertEqual(Mirror(reflecting: one.operatorSubscriber).children.map(\.label), ["keyPath"])
    let three = DetachedUpstream<Pair, Never>()
    three.map(\.a, \.b, \.c).subscribe(TestSubscriber<(Int, Int, Int), Never>())
    XCTAssertEqual(String(describing: three.operatorSubscriber), "ValueForKeys")
    XCTAssertEqual(
      Mirror(reflecting: three.operatorSubscriber).children.map(\.label), ["keyPath0", "keyPath1", "keyPath2"])
  }

  // MARK: Strict family

  func test_strict_afterCompletionOrCancel_valuesAreDroppedWithoutCallingTheClosure() {
    var calls = 0
    let upstream = DetachedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryFilter { _ in
      calls += 1; return true
    }.subscribe(subscriber)
    upstream.attach()
    XCTAssertEqual(upstream.send(1), .none)
    upstream.send(completion: .finished)
    XCTAssertEqual(upstream.send(2), .none)
    XCTAssertEqual(calls, 1)

    let cancelled = DetachedUpstream<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    cancelled.removeDuplicates { _, _ in
      calls += 1; return false
    }.subscribe(second)
    cancelled.attach()
    second.cancel()
    XCTAssertEqual(cancelled.send(1), .none)
    XCTAssertEqual(second.values, [])
  }

  func test_strict_cancelBeforeTheSubscription_isRemembered() {
    let upstream = DetachedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.prefix { _ in true }.subscribe(subscriber)
    (upstream.operatorSubscription)?.cancel()
    let subscription = upstream.attach()
    XCTAssertEqual(subscription.events, [.cancelled])
    XCTAssertEqual(subscriber.events, [])
  }

  func test_removeDuplicatesMirror_showsTheLastValue() {
    let upstream = DetachedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.removeDuplicates().subscribe(subscriber)
    upstream.attach()
    upstream.send(7)
    let children = Mirror(reflecting: subscriber.subscription!).children.map { ($0.label, "\($0.value)") }
    XCTAssertEqual(children.map(\.0), ["downstream", "last"])
    XCTAssertEqual(children.last?.1, "Optional(7)")
  }

  // MARK: Quiet family

  func test_quiet_valueBeforeTheSubscription_isDroppedUnseen_andAnEarlyCancelForgotten() {
    var calls = 0
    let upstream = DetachedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.drop { _ in
      calls += 1; return false
    }.subscribe(subscriber)
    XCTAssertEqual(upstream.send(1), .none)
    XCTAssertEqual(calls, 0)
    upstream.operatorSubscription?.cancel()
    let subscription = upstream.attach()
    XCTAssertEqual(subscription.events, [.requested(.unlimited)], "the early cancel was forgotten")
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(DropWhile)"])
    XCTAssertTrue(Mirror(reflecting: subscriber.subscription!).children.isEmpty)
  }

  // MARK: Stateless family

  func test_stateless_valuesBeforeTheSubscriptionAreProcessed_completionIsNot() {
    let upstream = DetachedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(demandPerValue: .max(3))
    subscriber.onViolation = { _ in }
    upstream.tryMap { $0 * 10 }.subscribe(subscriber)
    XCTAssertEqual(upstream.send(1), .max(3), "the downstream's answer")
    upstream.send(completion: .finished)
    upstream.attach()
    XCTAssertEqual(subscriber.eventDescriptions, ["value(10)", "subscription(TryMap)"])
  }

  func test_tryScanMirror_showsStatusAndResult() {
    let upstream = DetachedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryScan(5) { $0 + $1 }.subscribe(subscriber)
    upstream.attach()
    let labels = Mirror(reflecting: subscriber.subscription!).children.map(\.label)
    XCTAssertEqual(labels, ["downstream", "status", "result"])
  }

  func test_output_lastValueInTheRangeReturnsTheDownstreamsDemand_thenFinishes() {
    let upstream = DetachedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(5), demandPerValue: .max(2))
    upstream.output(in: 1..<3).subscribe(subscriber)
    let subscription = upstream.attach()
    XCTAssertEqual(upstream.send(0), .max(1))
    XCTAssertEqual(upstream.send(1), .max(2))
    XCTAssertEqual(upstream.send(2), .max(2))
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(Output)", "value(1)", "value(2)", "completion(finished)"])
    XCTAssertEqual(subscription.events, [.requested(.max(5)), .cancelled])
    XCTAssertEqual(upstream.send(3), .none)
  }

  // MARK: dropFirst

  func test_dropFirst_downstreamFirst_thenAsksForItsDemandPlusTheCount() {
    let upstream = DetachedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
    upstream.dropFirst(2).subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Drop)"], "before upstream is subscribed")
    let subscription = upstream.attach()
    XCTAssertEqual(subscription.events, [.requested(.max(5))])
    XCTAssertEqual(upstream.send(1), .none, "paid for up front")
    XCTAssertEqual(upstream.send(2), .none)
    XCTAssertEqual(upstream.send(3), .none)
    XCTAssertEqual(subscriber.values, [3])
  }

  func test_dropFirst_isReusable_afterACompletion() {
    let upstream = DetachedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    subscriber.onViolation = { _ in }
    var drop: Subscription?
    subscriber.onSubscription = { drop = $0 }
    upstream.dropFirst(1).subscribe(subscriber)
    let first = upstream.attach()
    upstream.send(completion: .finished)
    drop?.request(.max(4))
    drop?.cancel()
    XCTAssertEqual(
      first.events, [.requested(.max(1))], "released at the completion: neither request nor cancel reach it")
    let second = upstream.attach()
    XCTAssertEqual(second.events, [.requested(.max(5))], "the waiting demand plus the value still to drop")
    XCTAssertEqual(upstream.send(8), .none)
    XCTAssertEqual(upstream.send(9), .none)
    XCTAssertEqual(subscriber.values, [9])
  }
}
