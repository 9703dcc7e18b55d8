import Confluence
import ConfluenceTesting
import XCTest

/// `map(transform).filter(isIncluded)` subscribes one relay to the map's upstream
/// (`Publisher._subscribeFiltering(_:isIncluded:)`) where it would subscribe two: what
/// reaches the upstream and the downstream is the same as with the two relays, in
/// specialised code and in generic code the compiler did not specialise.
final class MapFilterFusionTests: XCTestCase {
  /// The pair built by a generic helper compiled once for every `P`, as a helper in
  /// another module that is not `@inlinable` is.
  @inline(never)
  @_semantics("optimize.sil.specialize.generic.never")
  private func mapFilter<P: Publisher>(_ upstream: P) -> Publishers.Filter<Publishers.Map<P, Int>>
  where P.Output == Int {
    upstream.map { $0 * 10 }.filter { $0 % 20 == 0 }
  }

  private typealias Pair = Publishers.Filter<Publishers.Map<ScriptedUpstream<Int, TestError>, Int>>

  private func specialised(_ upstream: ScriptedUpstream<Int, TestError>) -> Pair {
    upstream.map { $0 * 10 }.filter { $0 % 20 == 0 }
  }

  func test_eachValueTransformedThenTested_droppedOnesAnsweredWithOneMore() {
    for build in [specialised, mapFilter] {
      let upstream = ScriptedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2), demandPerValue: .max(3))
      build(upstream).subscribe(subscriber)
      XCTAssertEqual(upstream.subscriberDescription, "Map", "the relay the map's upstream sees")
      XCTAssertEqual(upstream.requested, [.max(2)])
      XCTAssertEqual(upstream.send(1), .max(1), "10 is dropped: one more is asked for")
      XCTAssertEqual(upstream.send(2), .max(3), "20 passes: what the downstream returned")
      XCTAssertEqual(upstream.send(3), .max(1))
      upstream.send(completion: .failure(TestError("end")))
      XCTAssertEqual(subscriber.values, [20])
      XCTAssertEqual(subscriber.completion, .failure(TestError("end")))
      XCTAssertEqual(subscriber.subscriptionDescription, "ScriptedUpstream", "the upstream's subscription, passed on")
    }
  }

  func test_subscriptionPassedOn_requestAndCancelReachTheUpstream() {
    for build in [specialised, mapFilter] {
      let upstream = ScriptedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
      build(upstream).subscribe(subscriber)
      subscriber.request(.max(5))
      subscriber.cancel()
      XCTAssertEqual(upstream.requested, [.max(5)])
      XCTAssertEqual(upstream.cancelCount, 1)
      XCTAssertEqual(upstream.send(2), .none, "nothing reaches a cancelled chain")
      XCTAssertEqual(subscriber.values, [])
    }
  }

  /// Over a subject, whose conduit holds a class subscriber as itself only in specialised
  /// code (boxed otherwise): the same values either way.
  func test_overASubject_specialisedAndNot() {
    let subject = PassthroughSubject<Int, Never>()
    var direct: [Int] = []
    var generic: [Int] = []
    let first = subject.map { $0 * 10 }.filter { $0 % 20 == 0 }.sink { direct.append($0) }
    let second = mapFilter(subject).sink { generic.append($0) }
    for value in 1...6 { subject.send(value) }
    subject.send(completion: .finished)
    XCTAssertEqual(direct, [20, 40, 60])
    XCTAssertEqual(generic, [20, 40, 60])
    first.cancel()
    second.cancel()
  }

  /// Several pairs in a row, fused pair by pair, over a sequence (its run path) and a
  /// subject (one value at a time).
  func test_pairsInARow() {
    let values = (1...30).publisher.map { $0 + 1 }.filter { $0.isMultiple(of: 2) }
      .map { $0 * 3 }.filter { $0.isMultiple(of: 4) }
      .map { $0 - 1 }.filter { $0 > 20 }
    var received: [Int] = []
    _ = values.sink { received.append($0) }
    let expected = (1...30).map { $0 + 1 }.filter { $0.isMultiple(of: 2) }
      .map { $0 * 3 }.filter { $0.isMultiple(of: 4) }
      .map { $0 - 1 }.filter { $0 > 20 }
    XCTAssertEqual(received, expected)
    let limited = TestSubscriber<Int, Never>(initialDemand: .max(2))
    values.subscribe(limited)
    XCTAssertEqual(limited.values, Array(expected.prefix(2)))
    XCTAssertNil(limited.completion)
  }

  /// While an introspection watches, both subscribes are made and reported, as without
  /// the fusion.
  func test_whileAnIntrospectionWatches_bothRelaysAreSubscribed() {
    let introspection = SubscribedDescriptions()
    introspection.enable()
    defer { introspection.disable() }
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.map { $0 * 10 }.filter { $0 % 20 == 0 }.subscribe(subscriber)
    XCTAssertEqual(introspection.subscribers, ["TestSubscriber", "Filter", "Map"])
    upstream.send(1, 2)
    XCTAssertEqual(subscriber.values, [20])
  }
  // MARK: Two pairs in one relay, where the code that subscribes is not specialised

  /// Two pairs built by a generic helper compiled once for every `P`: the relay the
  /// upstream sees runs both (`MapFilterPairSubscriber`).
  @inline(never)
  @_semantics("optimize.sil.specialize.generic.never")
  private func twoPairs<P: Publisher>(_ upstream: P)
    -> Publishers.Filter<Publishers.Map<Publishers.Filter<Publishers.Map<P, Int>>, Int>>
  where P.Output == Int {
    upstream.map { $0 * 10 }.filter { $0 % 20 == 0 }.map { $0 + 1 }.filter { $0 % 3 != 0 }
  }

  private func twoPairsSpecialised(_ upstream: ScriptedUpstream<Int, TestError>)
    -> Publishers.Filter<Publishers.Map<Pair, Int>>
  {
    upstream.map { $0 * 10 }.filter { $0 % 20 == 0 }.map { $0 + 1 }.filter { $0 % 3 != 0 }
  }

  func test_twoPairs_eitherTestDrops_droppedOnesAnsweredWithOneMore() {
    for build in [twoPairsSpecialised, twoPairs] {
      let upstream = ScriptedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2), demandPerValue: .max(3))
      build(upstream).subscribe(subscriber)
      XCTAssertEqual(upstream.subscriberDescription, "Map", "the relay the first map's upstream sees")
      XCTAssertEqual(upstream.send(1), .max(1), "10 is dropped by the first test")
      XCTAssertEqual(upstream.send(4), .max(3), "41 passes both")
      XCTAssertEqual(upstream.send(2), .max(1), "21 is dropped by the second test")
      XCTAssertEqual(upstream.send(8), .max(1), "81 passes the first, not the second")
      XCTAssertEqual(upstream.send(6), .max(3), "61 passes both")
      subscriber.request(.max(4))
      XCTAssertEqual(upstream.requested, [.max(2), .max(4)], "requests reach the upstream")
      upstream.send(completion: .failure(TestError("end")))
      XCTAssertEqual(subscriber.values, [41, 61])
      XCTAssertEqual(subscriber.completion, .failure(TestError("end")))
      XCTAssertEqual(subscriber.subscriptionDescription, "ScriptedUpstream", "the upstream's subscription, passed on")
    }
  }

  /// A `filter` with no `map` above it, then a pair: the upstream sees the filter's relay.
  @inline(never)
  @_semantics("optimize.sil.specialize.generic.never")
  private func filterThenPair<P: Publisher>(_ upstream: P)
    -> Publishers.Filter<Publishers.Map<Publishers.Filter<P>, Int>>
  where P.Output == Int {
    upstream.filter { $0 > 2 }.map { $0 * 10 }.filter { $0 % 20 == 0 }
  }

  func test_filterThenPair_notSpecialised() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(5))
    filterThenPair(upstream).subscribe(subscriber)
    XCTAssertEqual(upstream.subscriberDescription, "Filter")
    XCTAssertEqual(upstream.send(2), .max(1), "dropped by the first filter")
    XCTAssertEqual(upstream.send(3), .max(1), "dropped by the second")
    XCTAssertEqual(upstream.send(4), .none)
    XCTAssertEqual(subscriber.values, [40])
  }

  /// Three pairs (two in one relay, one on its own) over a subject and over a sequence's
  /// run, built by unspecialised code: the same values as the same closures applied in turn.
  @inline(never)
  @_semantics("optimize.sil.specialize.generic.never")
  private func threePairs<P: Publisher>(_ upstream: P)
    -> Publishers.Filter<
      Publishers.Map<Publishers.Filter<Publishers.Map<Publishers.Filter<Publishers.Map<P, Int>>, Int>>, Int>
    >
  where P.Output == Int {
    upstream.map { $0 + 1 }.filter { $0.isMultiple(of: 2) }
      .map { $0 * 3 }.filter { $0.isMultiple(of: 4) }
      .map { $0 - 1 }.filter { $0 > 20 }
  }

  func test_threePairs_notSpecialised_overASubjectAndASequence() {
    let expected = (1...30).map { $0 + 1 }.filter { $0.isMultiple(of: 2) }
      .map { $0 * 3 }.filter { $0.isMultiple(of: 4) }
      .map { $0 - 1 }.filter { $0 > 20 }
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = threePairs(subject).sink { received.append($0) }
    for value in 1...30 { subject.send(value) }
    XCTAssertEqual(received, expected)
    cancellable.cancel()
    let limited = TestSubscriber<Int, Never>(initialDemand: .max(2))
    threePairs((1...30).publisher).subscribe(limited)
    XCTAssertEqual(limited.values, Array(expected.prefix(2)))
    XCTAssertNil(limited.completion)
    limited.request(.unlimited)
    XCTAssertEqual(limited.values, expected)
    XCTAssertEqual(limited.completion, .finished)
  }

  func test_twoPairs_notSpecialised_releaseEveryClosure_onCancel() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    do {
      let probes = [tracker.make(), tracker.make(), tracker.make(), tracker.make()]
      capturingPairs(upstream, probes).subscribe(subscriber)
    }
    XCTAssertEqual(upstream.send(1), .none)
    XCTAssertEqual(tracker.liveCount, 4)
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
    XCTAssertEqual(subscriber.values.count, 1)
  }

  @inline(never)
  @_semantics("optimize.sil.specialize.generic.never")
  private func capturingPairs<P: Publisher>(_ upstream: P, _ probes: [LifetimeTracker.Tracked])
    -> Publishers.Filter<Publishers.Map<Publishers.Filter<Publishers.Map<P, Int>>, Int>>
  where P.Output == Int {
    let (a, b, c, d) = (probes[0], probes[1], probes[2], probes[3])
    return upstream.map { $0 + a.id }.filter { $0 > b.id - 1_000 }.map { $0 + c.id }.filter { $0 > d.id - 1_000 }
  }

  /// While an introspection watches, every subscribe is made and reported, as without the
  /// fusion.
  func test_twoPairs_whileAnIntrospectionWatches_everyRelayIsSubscribed() {
    let introspection = SubscribedDescriptions()
    introspection.enable()
    defer { introspection.disable() }
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    twoPairs(upstream).subscribe(subscriber)
    XCTAssertEqual(introspection.subscribers, ["TestSubscriber", "Filter", "Map", "Filter", "Map"])
    upstream.send(1, 4)
    XCTAssertEqual(subscriber.values, [41])
  }
}
