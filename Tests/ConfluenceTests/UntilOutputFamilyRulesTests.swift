import Confluence
import ConfluenceTesting
import XCTest

/// Apple's rules shared by `drop(untilOutputFrom:)` and its sibling
/// `prefix(untilOutputFrom:)`, each checked against both.
final class UntilOutputFamilyRulesTests: XCTestCase {
  private typealias Make = (DetachedUpstream<Int, TestError>, DetachedUpstream<Int, TestError>) -> AnyPublisher<
    Int, TestError
  >

  private let members: [(name: String, make: Make)] = [
    ("DropUntilOutput", { $0.drop(untilOutputFrom: $1).eraseToAnyPublisher() }),
    ("PrefixUntilOutput", { $0.prefix(untilOutputFrom: $1).eraseToAnyPublisher() }),
  ]

  func test_downstreamFirst_thenTheOther_thenUpstream_withTheDemandOwed() {
    for (name, make) in members {
      let upstream = DetachedUpstream<Int, TestError>()
      let other = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
      var order: [String] = []
      subscriber.onSubscription = { _ in order.append("downstream") }
      make(upstream, other).subscribe(subscriber)
      _ = other.operatorSubscriber
      _ = upstream.operatorSubscriber
      XCTAssertEqual(order, ["downstream"], name)
      subscriber.subscription?.request(.max(2))
      let otherSubscription = other.attach()
      let subscription = upstream.attach()
      XCTAssertEqual(otherSubscription.events, [.requested(.max(1))], name)
      XCTAssertEqual(subscription.events, [.requested(.max(2))], "\(name): the demand requested before it")
    }
  }

  func test_cancelBeforeUpstreamSubscription_isRemembered() {
    for (name, make) in members {
      let upstream = DetachedUpstream<Int, TestError>()
      let other = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>()
      make(upstream, other).subscribe(subscriber)
      subscriber.cancel()
      XCTAssertEqual(upstream.attach().events, [.cancelled], name)
      XCTAssertEqual(other.attach().events, [.cancelled], name)
    }
  }

  func test_cancel_cancelsUpstreamAndTheOther_butKeepsTheDownstream() {
    for (name, make) in members {
      let upstream = DetachedUpstream<Int, TestError>()
      let other = DetachedUpstream<Int, TestError>()
      var subscriber: TestSubscriber<Int, TestError>? = TestSubscriber()
      make(upstream, other).subscribe(subscriber!)
      let otherSubscription = other.attach()
      let subscription = upstream.attach()
      let operatorSubscription = subscriber?.subscription
      subscriber?.cancel()
      XCTAssertEqual(subscription.events.last, .cancelled, name)
      XCTAssertEqual(otherSubscription.events.last, .cancelled, name)
      weak let released = subscriber
      subscriber = nil
      XCTAssertNotNil(released, "\(name): as Apple's, the subscription keeps its downstream")
      withExtendedLifetime(operatorSubscription) {}
    }
  }

  func test_reflection_bothSubscribersShareTheNameAndTheIdentity_withEmptyMirrors() {
    for (name, make) in members {
      let upstream = DetachedUpstream<Int, TestError>()
      let other = DetachedUpstream<Int, TestError>()
      make(upstream, other).subscribe(TestSubscriber<Int, TestError>())
      for subscriber in [upstream.operatorSubscriber, other.operatorSubscriber] {
        XCTAssertEqual((subscriber as? CustomStringConvertible)?.description, name)
        XCTAssertEqual((subscriber as? CustomReflectable)?.customMirror.children.count, 0, name)
        XCTAssertEqual(
          (subscriber as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, name)
      }
      XCTAssertEqual(
        (upstream.operatorSubscriber as? CustomCombineIdentifierConvertible)?.combineIdentifier,
        (other.operatorSubscriber as? CustomCombineIdentifierConvertible)?.combineIdentifier, name)
    }
  }

  func test_requestNone_isAcceptedWithoutATrap() {
    for (name, make) in members {
      let upstream = DetachedUpstream<Int, TestError>()
      let other = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
      make(upstream, other).subscribe(subscriber)
      let subscription = upstream.attach()
      subscriber.subscription?.request(.none)
      XCTAssertEqual(subscription.events, [.requested(.none)], name)
    }
  }
}
