import Confluence
import ConfluenceTesting
import XCTest

/// Apple's rules for the reducing and matching family — every operator that publishes at
/// most one value once upstream has ended or matched: `reduce`, `count`, `collect`,
/// `min`/`max`, `contains`, `allSatisfy`, `first`, `last` and their `(where:)` and `try`
/// forms. Each test states one rule and checks it against every member, each run labelled
/// with the member's name.
final class ReducingFamilyRulesTests: XCTestCase {
  // MARK: When upstream is asked

  func test_upstreamIsAskedForUnlimited_onceDownstreamHasTheSubscription() {
    struct Rule: ReducingRule {
      func check<P: Publisher>(_ member: String, _ make: (DetachedUpstream<Int, TestError>) -> P) {
        let upstream = DetachedUpstream<Int, TestError>()
        let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: .none)
        let subscription = RecordingSubscription()
        var seenByDownstream: [RecordingSubscription.Event]?
        subscriber.onSubscription = { _ in seenByDownstream = subscription.events }
        make(upstream).subscribe(subscriber)
        upstream.attach(subscription)
        XCTAssertEqual(seenByDownstream, [], member)
        XCTAssertEqual(subscription.events, [.requested(.unlimited)], member)
        subscriber.request(.max(1))
        subscriber.request(.max(2))
        XCTAssertEqual(subscription.events, [.requested(.unlimited)], "\(member): downstream demand stays here")
      }
    }
    forEveryReducer(Rule())
  }

  // MARK: Events outside the subscription

  func test_valueBeforeSubscription_isIgnored() {
    struct Rule: ReducingRule {
      func check<P: Publisher>(_ member: String, _ make: (DetachedUpstream<Int, TestError>) -> P) {
        let reference = run(make, valueBeforeSubscription: false)
        let probed = run(make, valueBeforeSubscription: true)
        XCTAssertEqual(probed, reference, member)
      }

      func run<P: Publisher>(
        _ make: (DetachedUpstream<Int, TestError>) -> P, valueBeforeSubscription: Bool
      ) -> [String] {
        let upstream = DetachedUpstream<Int, TestError>()
        let subscriber = TestSubscriber<P.Output, P.Failure>()
        make(upstream).subscribe(subscriber)
        if valueBeforeSubscription {
          XCTAssertEqual(upstream.send(99), .none)
          XCTAssertEqual(subscriber.events.count, 0)
        }
        upstream.attach()
        upstream.send(1)
        upstream.send(completion: .finished)
        return subscriber.eventDescriptions
      }
    }
    forEveryReducer(Rule())
  }

  func test_completionBeforeSubscription_isIgnored() {
    struct Rule: ReducingRule {
      func check<P: Publisher>(_ member: String, _ make: (DetachedUpstream<Int, TestError>) -> P) {
        let upstream = DetachedUpstream<Int, TestError>()
        let subscriber = TestSubscriber<P.Output, P.Failure>()
        make(upstream).subscribe(subscriber)
        upstream.send(completion: .finished)
        upstream.send(completion: .failure(TestError()))
        XCTAssertEqual(subscriber.events.count, 0, member)
        let subscription = upstream.attach()
        XCTAssertEqual(subscription.events, [.requested(.unlimited)], member)
        XCTAssertEqual(subscriber.events.count, 1, "\(member): only the subscription, nothing ended")
      }
    }
    forEveryReducer(Rule())
  }

  func test_valuesAndCompletionsAfterTheEnd_areIgnored() {
    struct Rule: ReducingRule {
      func check<P: Publisher>(_ member: String, _ make: (DetachedUpstream<Int, TestError>) -> P) {
        let upstream = DetachedUpstream<Int, TestError>()
        let subscriber = TestSubscriber<P.Output, P.Failure>()
        make(upstream).subscribe(subscriber)
        upstream.attach()
        upstream.send(completion: .finished)
        let ended = subscriber.eventDescriptions
        XCTAssertEqual(upstream.send(1), .none, member)
        upstream.send(completion: .failure(TestError()))
        upstream.send(completion: .finished)
        XCTAssertEqual(subscriber.eventDescriptions, ended, member)
      }
    }
    forEveryReducer(Rule())
  }

  // MARK: Subscriptions and cancels

  func test_cancelBeforeSubscription_isNotRemembered() {
    struct Rule: ReducingRule {
      func check<P: Publisher>(_ member: String, _ make: (DetachedUpstream<Int, TestError>) -> P) {
        let upstream = DetachedUpstream<Int, TestError>()
        let subscriber = TestSubscriber<P.Output, P.Failure>()
        make(upstream).subscribe(subscriber)
        upstream.operatorSubscription?.cancel()
        let subscription = upstream.attach()
        XCTAssertEqual(subscription.events, [.requested(.unlimited)], member)
        upstream.send(completion: .finished)
        XCTAssertEqual(subscriber.completion.map { "\($0)" }, "finished", "\(member): the result still arrives")
      }
    }
    forEveryReducer(Rule())
  }

  func test_requestBeforeSubscription_isAcceptedQuietly() {
    struct Rule: ReducingRule {
      func check<P: Publisher>(_ member: String, _ make: (DetachedUpstream<Int, TestError>) -> P) {
        let upstream = DetachedUpstream<Int, TestError>()
        let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: .none)
        make(upstream).subscribe(subscriber)
        upstream.operatorSubscription?.request(.max(1))
        let subscription = upstream.attach()
        XCTAssertEqual(subscription.events, [.requested(.unlimited)], member)
      }
    }
    forEveryReducer(Rule())
  }

  func test_secondSubscription_isCancelled_beforeAndAfterTheEnd() {
    struct Rule: ReducingRule {
      func check<P: Publisher>(_ member: String, _ make: (DetachedUpstream<Int, TestError>) -> P) {
        let upstream = DetachedUpstream<Int, TestError>()
        let subscriber = TestSubscriber<P.Output, P.Failure>()
        make(upstream).subscribe(subscriber)
        let first = upstream.attach()
        let second = upstream.attach()
        XCTAssertEqual(second.events, [.cancelled], member)
        upstream.attach(first)
        XCTAssertEqual(first.events, [.requested(.unlimited), .cancelled], "\(member): the same one again")
        upstream.send(completion: .finished)
        let late = upstream.attach()
        XCTAssertEqual(late.events, [.cancelled], "\(member): after the end")
        XCTAssertEqual(subscriber.violations, [], member)
      }
    }
    forEveryReducer(Rule())
  }

  func test_cancelTwice_cancelsUpstreamOnce_andLaterRequestsDoNothing() {
    struct Rule: ReducingRule {
      func check<P: Publisher>(_ member: String, _ make: (DetachedUpstream<Int, TestError>) -> P) {
        let upstream = DetachedUpstream<Int, TestError>()
        let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: .none)
        make(upstream).subscribe(subscriber)
        let subscription = upstream.attach()
        let downstreamSide = subscriber.subscription
        downstreamSide?.cancel()
        downstreamSide?.request(.unlimited)
        downstreamSide?.cancel()
        XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled], member)
        upstream.send(completion: .finished)
        XCTAssertEqual(subscriber.events.count, 1, "\(member): nothing after cancel")
      }
    }
    forEveryReducer(Rule())
  }

  func test_cancelWhileHolding_dropsTheResult() {
    struct Rule: ReducingRule {
      func check<P: Publisher>(_ member: String, _ make: (DetachedUpstream<Int, TestError>) -> P) {
        let upstream = DetachedUpstream<Int, TestError>()
        let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: .none)
        make(upstream).subscribe(subscriber)
        let subscription = upstream.attach()
        upstream.send(completion: .finished)
        let downstreamSide = subscriber.subscription
        downstreamSide?.cancel()
        downstreamSide?.request(.max(1))
        XCTAssertEqual(subscriber.events.count, 1, member)
        XCTAssertEqual(subscription.events, [.requested(.unlimited)], "\(member): a finished upstream is not cancelled")
      }
    }
    forEveryReducer(Rule())
  }

  // MARK: Delivery

  func test_finish_waitsForDemand_evenWithoutAValue() {
    struct Rule: ReducingRule {
      func check<P: Publisher>(_ member: String, _ make: (DetachedUpstream<Int, TestError>) -> P) {
        let upstream = DetachedUpstream<Int, TestError>()
        let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: .none)
        make(upstream).subscribe(subscriber)
        upstream.attach()
        upstream.send(completion: .finished)
        XCTAssertEqual(subscriber.events.count, 1, "\(member): held, whether or not there is a value")
        subscriber.request(.max(1))
        XCTAssertEqual(subscriber.completion.map { "\($0)" }, "finished", member)
      }
    }
    forEveryReducer(Rule())
  }

  func test_upstreamFailure_goesAtOnce_withoutDemand() {
    struct Rule: ReducingRule {
      func check<P: Publisher>(_ member: String, _ make: (DetachedUpstream<Int, TestError>) -> P) {
        let upstream = DetachedUpstream<Int, TestError>()
        let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: .none)
        make(upstream).subscribe(subscriber)
        let subscription = upstream.attach()
        upstream.send(completion: .failure(TestError("down")))
        XCTAssertEqual(subscriber.eventDescriptions.last, "completion(failure(down))", member)
        XCTAssertEqual(subscription.events, [.requested(.unlimited)], "\(member): an ended upstream is not cancelled")
      }
    }
    forEveryReducer(Rule())
  }

  func test_earlyEnd_cancelsUpstream_andHoldsTheResultForDemand() {
    let members: [(String, (DetachedUpstream<Int, TestError>) -> AnyPublisher<String, Never>)] = [
      ("first", { $0.first().map { "\($0)" }.replaceError(with: "error").eraseToAnyPublisher() }),
      ("firstWhere", { $0.first { $0 == 1 }.map { "\($0)" }.replaceError(with: "error").eraseToAnyPublisher() }),
      ("tryFirstWhere", { $0.tryFirst { $0 == 1 }.map { "\($0)" }.replaceError(with: "error").eraseToAnyPublisher() }),
      ("contains", { $0.contains(1).map { "\($0)" }.replaceError(with: "error").eraseToAnyPublisher() }),
      ("containsWhere", { $0.contains { $0 == 1 }.map { "\($0)" }.replaceError(with: "error").eraseToAnyPublisher() }),
      (
        "tryContainsWhere",
        { $0.tryContains { $0 == 1 }.map { "\($0)" }.replaceError(with: "error").eraseToAnyPublisher() }
      ),
      ("allSatisfy", { $0.allSatisfy { $0 != 1 }.map { "\($0)" }.replaceError(with: "error").eraseToAnyPublisher() }),
      (
        "tryAllSatisfy",
        { $0.tryAllSatisfy { $0 != 1 }.map { "\($0)" }.replaceError(with: "error").eraseToAnyPublisher() }
      ),
    ]
    for (member, make) in members {
      let upstream = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<String, Never>(initialDemand: .none)
      make(upstream).subscribe(subscriber)
      let subscription = upstream.attach()
      XCTAssertEqual(upstream.send(1), .none, member)
      XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled], member)
      XCTAssertEqual(subscriber.events.count, 1, "\(member): held until downstream asks")
      subscriber.request(.max(1))
      XCTAssertEqual(subscriber.values.count, 1, member)
      XCTAssertEqual(subscriber.completion, .finished, member)
    }
  }

  func test_thrownError_cancelsUpstreamBeforeFailing_withoutDemand() {
    let boom = TestError("thrown")
    let members: [(String, (DetachedUpstream<Int, TestError>) -> AnyPublisher<Int, any Error>)] = [
      ("tryReduce", { $0.tryReduce(0) { _, _ in throw boom }.eraseToAnyPublisher() }),
      ("tryMin", { $0.tryMin { _, _ in throw boom }.eraseToAnyPublisher() }),
      ("tryMax", { $0.tryMax { _, _ in throw boom }.eraseToAnyPublisher() }),
      ("tryContainsWhere", { $0.tryContains { _ in throw boom }.map { $0 ? 1 : 0 }.eraseToAnyPublisher() }),
      ("tryAllSatisfy", { $0.tryAllSatisfy { _ in throw boom }.map { $0 ? 1 : 0 }.eraseToAnyPublisher() }),
      ("tryFirstWhere", { $0.tryFirst { _ in throw boom }.eraseToAnyPublisher() }),
      ("tryLastWhere", { $0.tryLast { _ in throw boom }.eraseToAnyPublisher() }),
    ]
    for (member, make) in members {
      let upstream = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
      let subscription = RecordingSubscription()
      var upstreamWhenFailed: [RecordingSubscription.Event]?
      subscriber.onCompletion = { _ in upstreamWhenFailed = subscription.events }
      make(upstream).subscribe(subscriber)
      upstream.attach(subscription)
      // tryMin/tryMax compare from the second value on.
      upstream.send(1)
      upstream.send(2)
      XCTAssertEqual(subscriber.eventDescriptions.last, "completion(failure(thrown))", member)
      XCTAssertEqual(upstreamWhenFailed, [.requested(.unlimited), .cancelled], member)
      XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled], member)
    }
  }

  // MARK: Lifetime

  func test_subscriptionKeepsDownstream_afterCompletionAndCancel() {
    struct Rule: ReducingRule {
      func check<P: Publisher>(_ member: String, _ make: (DetachedUpstream<Int, TestError>) -> P) {
        for cancels in [false, true] {
          let upstream = DetachedUpstream<Int, TestError>()
          var subscriber: TestSubscriber<P.Output, P.Failure>? = TestSubscriber()
          weak let downstream = subscriber
          make(upstream).subscribe(subscriber!)
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
    forEveryReducer(Rule())
  }

  // MARK: Reflection

  func test_descriptionAndPlayground_nameTheOperator() {
    struct Rule: ReducingRule {
      let expected: [String: String] = [
        "reduce": "Reduce", "tryReduce": "TryReduce", "count": "Count", "collect": "Collect",
        "min": "Comparison", "max": "Comparison", "tryMin": "TryComparison", "tryMax": "TryComparison",
        "contains": "Contains", "containsWhere": "ContainsWhere", "tryContainsWhere": "TryContainsWhere",
        "allSatisfy": "AllSatisfy", "tryAllSatisfy": "TryAllSatisfy",
        // Apple's first(where:) subscription says "TryFirst".
        "first": "First", "firstWhere": "TryFirst", "tryFirstWhere": "TryFirstWhere",
        "last": "Last", "lastWhere": "LastWhere", "tryLastWhere": "TryLastWhere",
      ]

      func check<P: Publisher>(_ member: String, _ make: (DetachedUpstream<Int, TestError>) -> P) {
        let upstream = DetachedUpstream<Int, TestError>()
        make(upstream).subscribe(TestSubscriber<P.Output, P.Failure>())
        let inner = upstream.operatorSubscriber
        XCTAssertEqual((inner as? CustomStringConvertible)?.description, expected[member], member)
        XCTAssertEqual(
          (inner as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, expected[member], member)
        XCTAssertFalse(inner is CustomDebugStringConvertible, member)
      }
    }
    forEveryReducer(Rule())
  }

  func test_mirror_showsDownstreamResultInitialAndStatus() {
    struct Rule: ReducingRule {
      func check<P: Publisher>(_ member: String, _ make: (DetachedUpstream<Int, TestError>) -> P) {
        let upstream = DetachedUpstream<Int, TestError>()
        make(upstream).subscribe(TestSubscriber<P.Output, P.Failure>(initialDemand: .none))
        let mirror = (upstream.operatorSubscriber as? CustomReflectable)?.customMirror
        let labels = mirror.map { $0.children.map { $0.label ?? "" } }
        let expected = member == "collect" ? ["count"] : ["downstream", "result", "initial", "status"]
        XCTAssertEqual(labels, expected, member)
      }
    }
    forEveryReducer(Rule())
  }

  func test_mirror_initialIsTheStartingResult_andResultIsTheHeldOne() {
    let upstream = DetachedUpstream<Int, TestError>()
    upstream.reduce(10, +).subscribe(TestSubscriber<Int, TestError>(initialDemand: .none))
    upstream.attach()
    upstream.send(5)
    upstream.send(completion: .finished)
    let children = (upstream.operatorSubscriber as? CustomReflectable)?.customMirror.children.map { "\($0.value)" }
    XCTAssertEqual(children?[1], "Optional(15)", "result, held for demand")
    XCTAssertEqual(children?[2], "Optional(10)", "initial")

    let collected = DetachedUpstream<Int, TestError>()
    collected.collect().subscribe(TestSubscriber<[Int], TestError>(initialDemand: .none))
    collected.attach()
    collected.send(1)
    collected.send(2)
    collected.send(completion: .finished)
    let count = (collected.operatorSubscriber as? CustomReflectable)?.customMirror.children.first?.value as? Int
    XCTAssertEqual(count, 2)
  }
}

/// One rule, checked against a reducing operator that `make` builds on a detached upstream.
private protocol ReducingRule {
  func check<P: Publisher>(_ member: String, _ make: (DetachedUpstream<Int, TestError>) -> P)
}

/// Runs `rule` against every member of the family.
private func forEveryReducer(_ rule: some ReducingRule) {
  rule.check("reduce") { $0.reduce(0, +) }
  rule.check("tryReduce") { $0.tryReduce(0, +) }
  rule.check("count") { $0.count() }
  rule.check("collect") { $0.collect() }
  rule.check("min") { $0.min() }
  rule.check("max") { $0.max() }
  rule.check("tryMin") { $0.tryMin(by: <) }
  rule.check("tryMax") { $0.tryMax(by: <) }
  rule.check("contains") { $0.contains(99) }
  rule.check("containsWhere") { $0.contains { $0 == 99 } }
  rule.check("tryContainsWhere") { $0.tryContains { $0 == 99 } }
  rule.check("allSatisfy") { $0.allSatisfy { $0 < 99 } }
  rule.check("tryAllSatisfy") { $0.tryAllSatisfy { $0 < 99 } }
  rule.check("first") { $0.first() }
  rule.check("firstWhere") { $0.first { $0 == 99 } }
  rule.check("tryFirstWhere") { $0.tryFirst { $0 == 99 } }
  rule.check("last") { $0.last() }
  rule.check("lastWhere") { $0.last { $0 < 99 } }
  rule.check("tryLastWhere") { $0.tryLast { $0 < 99 } }
}
