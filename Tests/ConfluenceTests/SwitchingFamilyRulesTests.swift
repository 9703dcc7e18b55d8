import Confluence
import ConfluenceTesting
import XCTest

/// Apple's rules for the operators that move from one upstream to another: `retry`
/// (the same upstream again), `append`/`prepend` (`Concatenate`), `catch`/`tryCatch`.
/// Upstreams are detached, so each test drives every event by hand.
final class SwitchingFamilyRulesTests: XCTestCase {
  // MARK: Retry

  func test_retry_requestsDownstreamsReturnedDemand_insteadOfReturningIt() {
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3), demandPerValue: .max(5))
    upstream.retry(1).subscribe(subscriber)
    let subscription = upstream.attach()
    XCTAssertEqual(upstream.send(1), .none)
    XCTAssertEqual(subscription.events, [.requested(.max(3)), .requested(.max(5))])
  }

  func test_retry_ignoresValues_afterTheLastFailure_andAfterCancel() {
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.retry(0).subscribe(subscriber)
    upstream.attach()
    _ = upstream.send(1)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(upstream.send(2), .none)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Retry)", "value(1)", "completion(failure(oops))"])

    let other = DetachedUpstream<Int, TestError>()
    let cancelling = TestSubscriber<Int, TestError>(strictCancellation: false)
    other.retry(3).subscribe(cancelling)
    other.attach()
    cancelling.cancel()
    XCTAssertEqual(other.send(7), .none)
    XCTAssertEqual(cancelling.values, [])
  }

  func test_retry_negativeCount_retriesWithoutLimit() {
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.retry(-1).subscribe(subscriber)
    for _ in 0..<50 {
      upstream.attach()
      upstream.send(completion: .failure(TestError()))
    }
    XCTAssertNil(subscriber.completion, "still retrying")
    upstream.attach()
    _ = upstream.send(4)
    XCTAssertEqual(subscriber.values, [4])
  }

  func test_retry_finishBeforeAnySubscription_isPassedOn() {
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.retry(1).subscribe(subscriber)
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.eventDescriptions, ["completion(finished)"])
  }

  // MARK: Concatenate

  func test_concatenate_ignoresValuesOutsideEachPublishersSubscription() {
    let prefix = DetachedUpstream<Int, TestError>()
    let suffix = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(demandPerValue: .max(9))
    prefix.append(suffix).subscribe(subscriber)
    XCTAssertEqual(prefix.send(1), .none, "before the prefix's subscription")
    prefix.attach()
    XCTAssertEqual(prefix.send(2), .max(9))
    prefix.send(completion: .finished)
    XCTAssertEqual(prefix.send(3), .none, "after the prefix finished")
    XCTAssertEqual(suffix.send(4), .none, "before the suffix's subscription")
    suffix.attach()
    XCTAssertEqual(suffix.send(5), .max(9))
    suffix.send(completion: .finished)
    XCTAssertEqual(suffix.send(6), .none, "after the suffix finished")
    XCTAssertEqual(subscriber.values, [2, 5])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_concatenate_ignoresValues_afterPrefixFailure_andAfterCancel() {
    let prefix = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    prefix.append(Empty()).subscribe(subscriber)
    prefix.attach()
    prefix.send(completion: .failure(TestError()))
    XCTAssertEqual(prefix.send(1), .none)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Concatenate)", "completion(failure(oops))"])

    let other = DetachedUpstream<Int, TestError>()
    let cancelling = TestSubscriber<Int, TestError>(strictCancellation: false)
    other.append(Empty()).subscribe(cancelling)
    other.attach()
    cancelling.cancel()
    XCTAssertEqual(other.send(1), .none)
    XCTAssertEqual(cancelling.values, [])
  }

  func test_concatenate_releasesTheSuffix_onCancel() {
    let tracker = LifetimeTracker()
    let prefix = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    do {
      let tracked = tracker.make()
      let suffix = DetachedUpstream<Int, TestError>().map { [tracked] in $0 + tracked.id }
      prefix.append(suffix).subscribe(subscriber)
    }
    prefix.attach()
    XCTAssertEqual(tracker.liveCount, 1, "held while the prefix runs")
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0, "released by cancel")
  }

  func test_concatenate_subscribesBothPublishers_underDownstreamsIdentity() {
    let prefix = DetachedUpstream<Int, TestError>()
    let suffix = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    prefix.append(suffix).subscribe(subscriber)
    prefix.attach()
    prefix.send(completion: .finished)
    let prefixSide = prefix.operatorSubscriber as? CustomCombineIdentifierConvertible
    let suffixSide = suffix.operatorSubscriber as? CustomCombineIdentifierConvertible
    XCTAssertEqual(prefixSide?.combineIdentifier, subscriber.combineIdentifier)
    XCTAssertEqual(suffixSide?.combineIdentifier, subscriber.combineIdentifier)
  }

  // MARK: Catch

  func test_catch_cancelWhileTheRecoveryIsBeingSubscribed_isNotRemembered() {
    for useTryCatch in [false, true] {
      let upstream = DetachedUpstream<Int, TestError>()
      let recovery = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, Error>(initialDemand: .max(3), strictCancellation: false)
      let label = useTryCatch ? "tryCatch" : "catch"
      if useTryCatch {
        upstream.tryCatch { _ in recovery }.subscribe(subscriber)
      } else {
        upstream.catch { _ in recovery.mapError { $0 as Error } }.mapError { $0 as Error }.subscribe(subscriber)
      }
      upstream.attach()
      upstream.send(completion: .failure(TestError()))
      subscriber.cancel()  // the recovery has not sent its subscription yet
      let recoverySubscription = recovery.attach()
      XCTAssertEqual(recoverySubscription.events, [.requested(.max(3))], label)
      recovery.send(completion: .finished)
      XCTAssertEqual(subscriber.eventDescriptions.last, "completion(finished)", label)
    }
  }

  func test_catch_passesTheFirstPublishersValuesOn_evenAfterCancel() {
    // Unlike Concatenate, Apple's catch does not gate its upstream's values.
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(demandPerValue: .max(3), strictCancellation: false)
    upstream.catch { _ in Empty<Int, TestError>() }.subscribe(subscriber)
    upstream.attach()
    subscriber.cancel()
    XCTAssertEqual(upstream.send(1), .max(3))
    XCTAssertEqual(subscriber.values, [1])
  }

  // MARK: Misuse Apple traps on

  func test_catchAndRetry_trapOnAValueBeforeTheUpstreamSubscription() {
    assertTraps("Catch: received a value before the upstream subscription") {
      let upstream = DetachedUpstream<Int, TestError>()
      upstream.catch { _ in Empty<Int, TestError>() }.subscribe(TestSubscriber<Int, TestError>())
      _ = upstream.send(1)
    }
    assertTraps("TryCatch: received a value before the upstream subscription") {
      let upstream = DetachedUpstream<Int, TestError>()
      upstream.tryCatch { _ in Empty<Int, TestError>() }.subscribe(TestSubscriber<Int, Error>())
      _ = upstream.send(1)
    }
    assertTraps("Retry: received a value before the upstream subscription") {
      let upstream = DetachedUpstream<Int, TestError>()
      upstream.retry(1).subscribe(TestSubscriber<Int, TestError>())
      _ = upstream.send(1)
    }
  }

  func test_catch_trapsWhenTheUpstreamCompletesAgainAfterFailing() {
    assertTraps("Catch: the upstream completed again after it had failed") {
      let upstream = DetachedUpstream<Int, TestError>()
      upstream.catch { _ in Empty<Int, TestError>(completeImmediately: false) }.subscribe(
        TestSubscriber<Int, TestError>())
      upstream.attach()
      upstream.send(completion: .failure(TestError()))
      upstream.send(completion: .failure(TestError()))
    }
  }

  func test_concatenate_valueBeforeTheSubscription_isIgnored_notTrapped() {
    let prefix = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    prefix.append(Empty()).subscribe(subscriber)
    XCTAssertEqual(prefix.send(1), .none)
    XCTAssertEqual(subscriber.values, [])
  }

  func test_catchAndRetry_trapOnAValueNobodyAskedFor() {
    assertTraps("Catch: the upstream sent a value it was not asked for") {
      let upstream = DetachedUpstream<Int, TestError>()
      upstream.catch { _ in Empty<Int, TestError>() }.subscribe(TestSubscriber<Int, TestError>(initialDemand: .max(1)))
      upstream.attach()
      _ = upstream.send(1)
      _ = upstream.send(2)
    }
    assertTraps("Retry: the upstream sent a value it was not asked for") {
      let upstream = DetachedUpstream<Int, TestError>()
      upstream.retry(1).subscribe(TestSubscriber<Int, TestError>(initialDemand: .max(1)))
      upstream.attach()
      _ = upstream.send(1)
      _ = upstream.send(2)
    }
  }

  func test_concatenate_ignoresAValueNobodyAskedFor_andCountsReturnedDemand() {
    let prefix = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
    subscriber.onValue = { $0 == 1 ? .max(1) : .none }
    prefix.append(Empty()).subscribe(subscriber)
    prefix.attach()
    XCTAssertEqual(prefix.send(1), .max(1))
    XCTAssertEqual(prefix.send(2), .none)
    XCTAssertEqual(prefix.send(3), .none, "no demand left: ignored")
    subscriber.request(.max(1))
    XCTAssertEqual(prefix.send(4), .none)
    XCTAssertEqual(subscriber.values, [1, 2, 4])
  }
}
