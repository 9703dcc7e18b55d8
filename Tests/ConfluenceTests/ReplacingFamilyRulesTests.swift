import Confluence
import ConfluenceTesting
import XCTest

/// Apple's rules for the pair that replaces the end of a stream with one value:
/// `replaceEmpty(with:)` (an empty finish) and `replaceError(with:)` (a failure). Each test
/// states one rule and checks it against both, labelled with the member's name; where the
/// two differ, the test says how.
final class ReplacingFamilyRulesTests: XCTestCase {
  private typealias Make = (DetachedUpstream<Int, TestError>) -> AnyPublisher<Int, TestError>

  /// Both members, typed alike (replaceError's `Never` failure widened to `TestError`).
  private let members: [(String, Make)] = [
    ("replaceEmpty", { $0.replaceEmpty(with: -1).eraseToAnyPublisher() }),
    ("replaceError", { $0.replaceError(with: -1).setFailureType(to: TestError.self).eraseToAnyPublisher() }),
  ]

  /// Builds the member on a detached upstream and returns the operator's own subscriber.
  private func build(_ make: Make, _ subscriber: TestSubscriber<Int, TestError>) -> DetachedUpstream<Int, TestError> {
    let upstream = DetachedUpstream<Int, TestError>()
    make(upstream).subscribe(subscriber)
    return upstream
  }

  // MARK: When upstream is asked

  func test_replaceEmpty_asksUpstreamForUnlimited_afterDownstreamsOwnRequest() {
    let upstream = DetachedUpstream<Int, TestError>()
    upstream.replaceEmpty(with: 0).subscribe(TestSubscriber<Int, TestError>(initialDemand: .max(2)))
    let subscription = upstream.attach()
    XCTAssertEqual(subscription.events, [.requested(.max(2)), .requested(.unlimited)])
  }

  func test_replaceError_passesDownstreamDemandOnly() {
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.replaceError(with: 0).subscribe(subscriber)
    let subscription = upstream.attach()
    subscriber.request(.max(1))
    XCTAssertEqual(subscription.events, [.requested(.max(2)), .requested(.max(1))])
  }

  // MARK: Events outside the subscription

  func test_valueAndCompletionBeforeSubscription_areIgnored() {
    for (member, make) in members {
      let subscriber = TestSubscriber<Int, TestError>()
      let upstream = build(make, subscriber)
      XCTAssertEqual(upstream.send(5), .none, member)
      upstream.send(completion: .finished)
      upstream.send(completion: .failure(TestError()))
      XCTAssertEqual(subscriber.events.count, 0, member)
      upstream.attach()
      upstream.send(1)
      upstream.send(completion: .finished)
      XCTAssertEqual(subscriber.values, [1], member)
      XCTAssertEqual(subscriber.completion, .finished, member)
    }
  }

  func test_valuesAndCompletionsAfterTheEnd_areIgnored() {
    for (member, make) in members {
      let subscriber = TestSubscriber<Int, TestError>(demandPerValue: .max(1))
      let upstream = build(make, subscriber)
      upstream.attach()
      upstream.send(completion: .finished)
      let ended = subscriber.events
      XCTAssertEqual(upstream.send(7), .none, member)
      upstream.send(completion: .failure(TestError()))
      upstream.send(completion: .finished)
      XCTAssertEqual(subscriber.events, ended, member)
    }
  }

  // MARK: Subscriptions and cancels

  func test_cancelBeforeSubscription_isNotRemembered() {
    for (member, make) in members {
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
      let upstream = build(make, subscriber)
      upstream.operatorSubscription?.cancel()
      let subscription = upstream.attach()
      XCTAssertFalse(subscription.events.contains(.cancelled), member)
      upstream.send(completion: .finished)
      subscriber.request(.max(1))
      XCTAssertEqual(subscriber.completion, .finished, "\(member): still delivers")
    }
  }

  func test_secondSubscription_isCancelled_beforeAndAfterTheEnd() {
    for (member, make) in members {
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
      let upstream = build(make, subscriber)
      let first = upstream.attach()
      XCTAssertEqual(upstream.attach().events, [.cancelled], member)
      upstream.attach(first)
      XCTAssertEqual(first.events.last, .cancelled, "\(member): the same one again")
      upstream.send(completion: .finished)
      XCTAssertEqual(upstream.attach().events, [.cancelled], "\(member): after the end")
    }
  }

  func test_cancelTwice_cancelsUpstreamOnce_andLaterRequestsAreNotForwarded() {
    for (member, make) in members {
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
      let upstream = build(make, subscriber)
      let subscription = upstream.attach()
      let before = subscription.events
      let downstreamSide = subscriber.subscription
      downstreamSide?.cancel()
      downstreamSide?.request(.max(3))
      downstreamSide?.cancel()
      XCTAssertEqual(subscription.events, before + [.cancelled], member)
      upstream.send(completion: .failure(TestError()))
      XCTAssertEqual(subscriber.events.count, 1, "\(member): nothing after cancel")
    }
  }

  // MARK: Delivery

  func test_replacement_waitsForDemand() {
    let endings: [String: Subscribers.Completion<TestError>] = [
      "replaceEmpty": .finished, "replaceError": .failure(TestError()),
    ]
    for (member, make) in members {
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
      let upstream = build(make, subscriber)
      upstream.attach()
      upstream.send(completion: endings[member]!)
      XCTAssertEqual(subscriber.events.count, 1, member)
      subscriber.request(.max(1))
      XCTAssertEqual(subscriber.values, [-1], member)
      XCTAssertEqual(subscriber.completion, .finished, member)
    }
  }

  func test_endThatIsNotReplaced_goesAtOnce_withoutDemand() {
    // replaceEmpty forwards a failure; replaceError forwards a finish.
    let endings: [String: Subscribers.Completion<TestError>] = [
      "replaceEmpty": .failure(TestError("x")), "replaceError": .finished,
    ]
    for (member, make) in members {
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
      let upstream = build(make, subscriber)
      upstream.attach()
      upstream.send(completion: endings[member]!)
      XCTAssertEqual(subscriber.completion, endings[member], member)
    }
  }

  // MARK: Lifetime and reflection

  func test_subscriptionKeepsDownstream_afterCompletionAndCancel() {
    for (member, make) in members {
      for cancels in [false, true] {
        var subscriber: TestSubscriber<Int, TestError>? = TestSubscriber()
        weak let downstream = subscriber
        let upstream = build(make, subscriber!)
        upstream.attach()
        if cancels {
          subscriber?.cancel()
        } else {
          upstream.send(completion: .finished)
        }
        subscriber = nil
        XCTAssertNotNil(downstream, "\(member), cancels: \(cancels): kept, as Apple's")
      }
    }
  }

  func test_reflection_namesTheOperator_withAnEmptyMirror() {
    let replaceEmpty = DetachedUpstream<Int, TestError>()
    replaceEmpty.replaceEmpty(with: 0).subscribe(TestSubscriber<Int, TestError>())
    let replaceError = DetachedUpstream<Int, TestError>()
    replaceError.replaceError(with: 0).subscribe(TestSubscriber<Int, Never>())
    for (name, upstream) in [("ReplaceEmpty", replaceEmpty), ("ReplaceError", replaceError)] {
      let inner = upstream.operatorSubscriber
      XCTAssertEqual((inner as? CustomStringConvertible)?.description, name)
      XCTAssertEqual((inner as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, name)
      XCTAssertEqual((inner as? CustomReflectable)?.customMirror.children.count, 0, name)
      XCTAssertFalse(inner is CustomDebugStringConvertible, name)
    }
  }

  func test_valueAfterCancel_isDropped_andAsksForNothing() {
    for (member, make) in members {
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(5), demandPerValue: .max(4))
      let upstream = build(make, subscriber)
      upstream.attach()
      XCTAssertEqual(upstream.send(1), .max(4), member)
      subscriber.cancel()
      XCTAssertEqual(upstream.send(2), .none, member)
      upstream.send(completion: .finished)
      XCTAssertEqual(subscriber.values, [1], member)
      XCTAssertNil(subscriber.completion, member)
    }
  }

  // MARK: Demand counted on values

  /// replaceError counts what it passed on (requested plus what each value returned): values
  /// within that are delivered (a value beyond it traps, see `MisuseTrapTests`). replaceEmpty,
  /// which asked upstream for unlimited itself, does not count.
  func test_valuesWithinTheDemandRequestedAndReturned_areDelivered() {
    for (member, make) in members {
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
      subscriber.onValue = { $0 == 1 ? .max(1) : .none }
      let upstream = build(make, subscriber)
      _ = upstream.attach()
      _ = upstream.send(1)
      _ = upstream.send(2)
      subscriber.request(.max(1))
      _ = upstream.send(3)
      XCTAssertEqual(subscriber.values, [1, 2, 3], member)
    }
  }

  func test_replaceEmpty_passesOnAValueBeyondTheDownstreamsDemand() {
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
    var violations: [String] = []
    subscriber.onViolation = { violations.append($0) }
    upstream.replaceEmpty(with: 0).subscribe(subscriber)
    _ = upstream.attach()
    _ = upstream.send(1)
    _ = upstream.send(2)
    XCTAssertEqual(subscriber.values, [1, 2], "passed on, no trap")
    XCTAssertEqual(violations.count, 1, "the upstream broke the contract, not replaceEmpty")
  }
}
