import Confluence
import ConfluenceTesting
import XCTest

/// Apple's rules for the operators that flatten a publisher of publishers: `flatMap` and
/// `switchToLatest`. Upstream and the inner publishers are detached, so each test drives
/// every event by hand and reads what the operator asked of each subscription.
final class FlatteningFamilyRulesTests: XCTestCase {
  private typealias Inner = DetachedUpstream<Int, TestError>

  // MARK: The downstream subscription comes first

  func test_flatMap_handsDownstreamItsSubscription_beforeUpstreamSubscribes() {
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.flatMap { _ in Inner() }.subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(FlatMap)"])
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(FlatMap)", "completion(finished)"])
  }

  func test_switchToLatest_handsDownstreamItsSubscription_beforeUpstreamSubscribes() {
    let upstream = DetachedUpstream<Inner, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.switchToLatest().subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(SwitchToLatest)"])
    let subscription = upstream.attach()
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(SwitchToLatest)"], "not handed over twice")
    XCTAssertEqual(subscription.events, [.requested(.unlimited)])
  }

  func test_flatMap_asksUpstreamForMaxPublishers_evenNone() {
    for maxPublishers in [Subscribers.Demand.max(2), .none] {
      let upstream = DetachedUpstream<Int, TestError>()
      upstream.flatMap(maxPublishers: maxPublishers) { _ in Inner() }.subscribe(TestSubscriber<Int, TestError>())
      XCTAssertEqual(upstream.attach().events, [.requested(maxPublishers)])
    }
  }

  // MARK: Demand for inner values

  func test_flatMap_innerValueDeliveredAtOnce_isAnsweredByItsReturn() {
    let inner = Inner()
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(5))
    upstream.flatMap { _ in inner }.subscribe(subscriber)
    upstream.attach()
    _ = upstream.send(0)
    let innerSubscription = inner.attach()
    XCTAssertEqual(inner.send(7), .max(1))
    XCTAssertEqual(innerSubscription.events, [.requested(.max(1))], "no separate request")
    XCTAssertEqual(subscriber.values, [7])
  }

  func test_flatMap_bufferedInnerValue_isAskedAgainByRequest() {
    let inner = Inner()
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.flatMap { _ in inner }.subscribe(subscriber)
    upstream.attach()
    _ = upstream.send(0)
    let innerSubscription = inner.attach()
    XCTAssertEqual(inner.send(7), .none, "no demand yet: buffered")
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [7])
    XCTAssertEqual(innerSubscription.events, [.requested(.max(1)), .requested(.max(1))])
  }

  func test_flatMap_passesOnAValueFromAnInnerThatAlreadyFinished_whileTheWholeIsLive() {
    let inners = [Inner(), Inner()]
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.flatMap { inners[$0] }.subscribe(subscriber)
    upstream.attach()
    _ = upstream.send(0)
    _ = upstream.send(1)
    let first = inners[0].attach()
    inners[1].attach()
    upstream.send(completion: .finished)
    inners[0].send(completion: .finished)
    XCTAssertEqual(inners[0].send(7), .none, "passed on, not asked again")
    XCTAssertEqual(subscriber.values, [7])
    XCTAssertEqual(first.events, [.requested(.unlimited)])
    inners[1].send(completion: .finished)
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(inners[0].send(8), .none)
    XCTAssertEqual(subscriber.values, [7], "nothing once the whole has finished")
  }

  func test_flatMap_liveInnersAskedOneAtATime_areAskedForEverything_onceDemandIsUnlimited() {
    let inners = [Inner(), Inner()]
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3))
    upstream.flatMap { inners[$0] }.subscribe(subscriber)
    upstream.attach()
    _ = upstream.send(0)
    _ = upstream.send(1)
    let first = inners[0].attach()
    let second = inners[1].attach()
    XCTAssertEqual(first.events, [.requested(.max(1))])
    XCTAssertEqual(second.events, [.requested(.max(1))])
    subscriber.request(.max(2))
    XCTAssertEqual(first.events, [.requested(.max(1))], "finite demand: still one at a time")
    subscriber.request(.unlimited)
    XCTAssertEqual(first.events, [.requested(.max(1)), .requested(.unlimited)])
    XCTAssertEqual(second.events, [.requested(.max(1)), .requested(.unlimited)])
    subscriber.request(.unlimited)
    XCTAssertEqual(first.events.count, 2, "asked once")
    XCTAssertEqual(inners[0].send(1), .none, "an inner asked for everything is owed nothing more")
  }

  func test_switchToLatest_downstreamsDemandForAValue_isReturnedToTheInner() {
    let inner = Inner()
    let upstream = DetachedUpstream<Inner, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3), demandPerValue: .max(2))
    upstream.switchToLatest().subscribe(subscriber)
    upstream.attach()
    _ = upstream.send(inner)
    let innerSubscription = inner.attach()
    XCTAssertEqual(inner.send(1), .max(2))
    XCTAssertEqual(innerSubscription.events, [.requested(.max(3))], "no separate request")
    XCTAssertEqual(subscriber.values, [1])
  }

  func test_switchToLatest_innerSubscriber_showsAsTheOperator() {
    let inner = Inner()
    let upstream = DetachedUpstream<Inner, TestError>()
    upstream.switchToLatest().subscribe(TestSubscriber<Int, TestError>())
    upstream.attach()
    _ = upstream.send(inner)
    let innerSide = inner.operatorSubscriber
    XCTAssertEqual(
      (innerSide as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, "SwitchToLatest")
    XCTAssertNotNil(innerSide as? CustomReflectable)
  }

  // MARK: Failure: the publisher that failed is not cancelled

  func test_flatMap_upstreamFailure_cancelsTheInners_notUpstream() {
    let inner = Inner()
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.flatMap { _ in inner }.subscribe(subscriber)
    let upstreamSubscription = upstream.attach()
    _ = upstream.send(0)
    let innerSubscription = inner.attach()
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(upstreamSubscription.events, [.requested(.unlimited)])
    XCTAssertEqual(innerSubscription.events, [.requested(.unlimited), .cancelled])
    XCTAssertEqual(subscriber.completion, .failure(TestError()))
  }

  func test_flatMap_innerFailure_cancelsOtherInners_notTheFailingOneNorUpstream() {
    let inners = [Inner(), Inner()]
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.flatMap { inners[$0] }.subscribe(subscriber)
    let upstreamSubscription = upstream.attach()
    _ = upstream.send(0)
    _ = upstream.send(1)
    let first = inners[0].attach()
    let second = inners[1].attach()
    inners[1].send(completion: .failure(TestError()))
    XCTAssertEqual(upstreamSubscription.events, [.requested(.unlimited)], "released, not cancelled")
    XCTAssertEqual(first.events, [.requested(.unlimited), .cancelled])
    XCTAssertEqual(second.events, [.requested(.unlimited)])
    XCTAssertEqual(subscriber.completion, .failure(TestError()))
  }

  func test_switchToLatest_downstreamCancel_cancelsTheInnerBeforeUpstream() {
    let inner = Inner()
    let upstream = DetachedUpstream<Inner, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.switchToLatest().subscribe(subscriber)
    var order: [String] = []
    let upstreamSubscription = RecordingSubscription()
    upstreamSubscription.onCancel = { order.append("upstream") }
    upstream.attach(upstreamSubscription)
    _ = upstream.send(inner)
    let innerSubscription = RecordingSubscription()
    innerSubscription.onCancel = { order.append("inner") }
    inner.attach(innerSubscription)
    subscriber.cancel()
    XCTAssertEqual(order, ["inner", "upstream"])
  }

  func test_switchToLatest_secondSubscriptionForAnInner_isCancelled() {
    let inner = Inner()
    let upstream = DetachedUpstream<Inner, TestError>()
    upstream.switchToLatest().subscribe(TestSubscriber<Int, TestError>())
    upstream.attach()
    _ = upstream.send(inner)
    let first = inner.attach()
    let second = inner.attach()
    XCTAssertEqual(first.events, [.requested(.unlimited)])
    XCTAssertEqual(second.events, [.cancelled])
  }

  func test_switchToLatest_failingPublisher_isNotCancelled() {
    // The inner fails.
    do {
      let inner = Inner()
      let upstream = DetachedUpstream<Inner, TestError>()
      let subscriber = TestSubscriber<Int, TestError>()
      upstream.switchToLatest().subscribe(subscriber)
      let upstreamSubscription = upstream.attach()
      _ = upstream.send(inner)
      let innerSubscription = inner.attach()
      inner.send(completion: .failure(TestError()))
      XCTAssertEqual(innerSubscription.events, [.requested(.unlimited)])
      XCTAssertEqual(upstreamSubscription.events, [.requested(.unlimited), .cancelled])
      XCTAssertEqual(subscriber.completion, .failure(TestError()))
    }
    // Upstream fails.
    do {
      let inner = Inner()
      let upstream = DetachedUpstream<Inner, TestError>()
      let subscriber = TestSubscriber<Int, TestError>()
      upstream.switchToLatest().subscribe(subscriber)
      let upstreamSubscription = upstream.attach()
      _ = upstream.send(inner)
      let innerSubscription = inner.attach()
      upstream.send(completion: .failure(TestError()))
      XCTAssertEqual(innerSubscription.events, [.requested(.unlimited), .cancelled])
      XCTAssertEqual(upstreamSubscription.events, [.requested(.unlimited)])
      XCTAssertEqual(subscriber.completion, .failure(TestError()))
    }
  }

  func test_switchToLatest_innerValueWithoutDemand_traps() {
    assertTraps("SwitchToLatest: an inner publisher sent a value it was not asked for") {
      let inner = Inner()
      let upstream = DetachedUpstream<Inner, TestError>()
      upstream.switchToLatest().subscribe(TestSubscriber<Int, TestError>(initialDemand: .max(1)))
      upstream.attach()
      _ = upstream.send(inner)
      inner.attach()
      _ = inner.send(1)
      _ = inner.send(2)
    }
  }

  func test_switchToLatest_innerCompletionBeforeItsSubscription_traps() {
    for completion in [Subscribers.Completion<TestError>.finished, .failure(TestError())] {
      assertTraps("SwitchToLatest: an inner publisher completed before sending its subscription") {
        let inner = Inner()
        let upstream = DetachedUpstream<Inner, TestError>()
        upstream.switchToLatest().subscribe(TestSubscriber<Int, TestError>())
        upstream.attach()
        _ = upstream.send(inner)
        inner.send(completion: completion)
      }
    }
  }
}
