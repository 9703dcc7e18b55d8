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
}
