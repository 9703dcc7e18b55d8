import Confluence
import ConfluenceTesting
import XCTest

/// The rules of the until-output family (`drop(untilOutputFrom:)`,
/// `prefix(untilOutputFrom:)`), each checked against both members: the ones they share, and
/// the edges where Apple's two operators differ (each member's expectation is stated
/// beside it; `UntilOutputRules` in the sources has the same table).
final class UntilOutputFamilyRulesTests: XCTestCase {
  private typealias Make = (DetachedUpstream<Int, TestError>, DetachedUpstream<Int, TestError>) -> AnyPublisher<
    Int, TestError
  >

  private struct Member {
    let name: String
    let make: Make
    let isDrop: Bool
  }

  private let members: [Member] = [
    Member(name: "DropUntilOutput", make: { $0.drop(untilOutputFrom: $1).eraseToAnyPublisher() }, isDrop: true),
    Member(name: "PrefixUntilOutput", make: { $0.prefix(untilOutputFrom: $1).eraseToAnyPublisher() }, isDrop: false),
  ]

  /// `member` over two detached upstreams, subscribed by a test subscriber.
  private func subscribed(_ member: Member, initialDemand: Subscribers.Demand = .unlimited) -> (
    upstream: DetachedUpstream<Int, TestError>, other: DetachedUpstream<Int, TestError>,
    subscriber: TestSubscriber<Int, TestError>
  ) {
    let upstream = DetachedUpstream<Int, TestError>()
    let other = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: initialDemand)
    member.make(upstream, other).subscribe(subscriber)
    return (upstream, other, subscriber)
  }

  func test_theOtherIsSubscribedFirst_askedForOneValue_thenUpstream() {
    for member in members {
      var order: [String] = []
      let upstream = DetachedUpstream<Int, TestError>()
      let other = DetachedUpstream<Int, TestError>()
      let deferredUpstream = Deferred { () -> DetachedUpstream<Int, TestError> in
        order.append("upstream")
        return upstream
      }
      let deferredOther = Deferred { () -> DetachedUpstream<Int, TestError> in
        order.append("other")
        return other
      }
      let publisher =
        member.isDrop
        ? deferredUpstream.drop(untilOutputFrom: deferredOther).eraseToAnyPublisher()
        : deferredUpstream.prefix(untilOutputFrom: deferredOther).eraseToAnyPublisher()
      publisher.subscribe(TestSubscriber<Int, TestError>())
      XCTAssertEqual(order, ["other", "upstream"], member.name)
      XCTAssertEqual(other.attach().events, [.requested(.max(1))], member.name)
    }
  }

  // drop: the downstream first, before either source is subscribed (its requests are kept
  // for upstream); prefix: only when upstream's subscription arrives.
  func test_whenTheDownstreamGetsItsSubscription_dropFirst_prefixWithUpstreams() {
    for member in members {
      let (upstream, other, subscriber) = subscribed(member, initialDemand: .none)
      XCTAssertEqual(subscriber.events.count, member.isDrop ? 1 : 0, member.name)
      subscriber.subscription?.request(.max(2))
      _ = other.attach()
      XCTAssertEqual(subscriber.events.count, member.isDrop ? 1 : 0, member.name)
      let subscription = upstream.attach()
      XCTAssertEqual(subscriber.events.count, 1, member.name)
      XCTAssertEqual(
        subscription.events, member.isDrop ? [.requested(.max(2))] : [], "\(member.name): the demand owed")
    }
  }

  func test_cancelBeforeUpstreamSubscription_isRemembered() {
    for member in members {
      let (upstream, other, subscriber) = subscribed(member)
      // prefix's downstream has no subscription yet: cancel through the operator itself.
      upstream.operatorSubscription?.cancel()
      XCTAssertEqual(upstream.attach().events, [.cancelled], member.name)
      XCTAssertEqual(other.attach().events, [.cancelled], member.name)
      XCTAssertEqual(subscriber.events.count, member.isDrop ? 1 : 0, member.name)
    }
  }

  // drop cancels the other's subscription; prefix never does.
  func test_cancel_cancelsUpstream_theOtherOnlyForDrop_andKeepsTheDownstream() {
    for member in members {
      let upstream = DetachedUpstream<Int, TestError>()
      let other = DetachedUpstream<Int, TestError>()
      var subscriber: TestSubscriber<Int, TestError>? = TestSubscriber()
      member.make(upstream, other).subscribe(subscriber!)
      let otherSubscription = other.attach()
      let subscription = upstream.attach()
      let operatorSubscription = subscriber?.subscription
      subscriber?.cancel()
      XCTAssertEqual(subscription.events.last, .cancelled, member.name)
      XCTAssertEqual(
        otherSubscription.events, member.isDrop ? [.requested(.max(1)), .cancelled] : [.requested(.max(1))],
        member.name)
      weak let released = subscriber
      subscriber = nil
      XCTAssertNotNil(released, "\(member.name): as Apple's, the subscription keeps its downstream")
      withExtendedLifetime(operatorSubscription) {}
    }
  }

  // drop: the other's completion before its value cancels upstream and completes the
  // downstream with it; prefix: nothing happens.
  func test_theOthersCompletionBeforeItsValue_completesDrop_changesNothingForPrefix() {
    for member in members {
      let (upstream, other, subscriber) = subscribed(member)
      let otherSubscription = other.attach()
      let subscription = upstream.attach()
      other.send(completion: .failure(TestError("other")))
      XCTAssertEqual(
        subscriber.completion, member.isDrop ? .failure(TestError("other")) : nil, member.name)
      XCTAssertEqual(
        subscription.events, member.isDrop ? [.requested(.unlimited), .cancelled] : [.requested(.unlimited)],
        member.name)
      XCTAssertEqual(otherSubscription.events, [.requested(.max(1))], member.name)
    }
  }

  // drop passes on what upstream sends before its subscription (a value uses up demand —
  // with none it traps, MisuseTrapTests —, a completion is passed on); prefix ignores both.
  func test_upstreamsEventsBeforeItsSubscription_countForDrop_areIgnoredByPrefix() {
    for member in members {
      let (upstream, _, subscriber) = subscribed(member)
      XCTAssertEqual(upstream.send(1), .none, member.name)
      upstream.send(completion: .finished)
      XCTAssertEqual(subscriber.completion, member.isDrop ? .finished : nil, member.name)
      XCTAssertTrue(subscriber.values.isEmpty, member.name)
    }
  }

  // drop passes on what the other sends before its subscription (its completion completes
  // the downstream); prefix ignores it.
  func test_theOthersEventsBeforeItsSubscription_countForDrop_areIgnoredByPrefix() {
    for member in members {
      let (upstream, other, subscriber) = subscribed(member)
      _ = upstream.attach()
      XCTAssertEqual(other.send(0), .none, member.name)
      XCTAssertEqual(upstream.send(1), .none, member.name)
      XCTAssertEqual(subscriber.values, [1], "\(member.name): drop triggered, prefix did not finish")
      other.send(completion: .finished)
      XCTAssertNil(subscriber.completion, "\(member.name): after drop's trigger, ignored")
    }
  }

  func test_aSecondSubscriptionFromEitherSource_isCancelled() {
    for member in members {
      let upstream = DetachedUpstream<Int, TestError>()
      let other = DetachedUpstream<Int, TestError>()
      member.make(upstream, other).subscribe(TestSubscriber<Int, TestError>())
      let otherSubscription = other.attach()
      let subscription = upstream.attach()
      XCTAssertEqual(other.attach().events, [.cancelled], member.name)
      XCTAssertEqual(upstream.attach().events, [.cancelled], member.name)
      XCTAssertEqual(otherSubscription.events, [.requested(.max(1))], member.name)
      XCTAssertEqual(subscription.events, [.requested(.unlimited)], member.name)
    }
  }

  // drop: both subscribers described by its name, empty mirrors; prefix: no custom
  // description or mirror. Both share one identity.
  func test_reflection_dropDescribed_prefixPlain_bothOneIdentity() throws {
    for member in members {
      let (upstream, other, subscriber) = subscribed(member)
      _ = upstream.attach()
      for object in [upstream.operatorSubscriber, other.operatorSubscriber, try XCTUnwrap(subscriber.subscription)] {
        if member.isDrop {
          XCTAssertEqual((object as? CustomStringConvertible)?.description, member.name)
          XCTAssertEqual((object as? CustomReflectable)?.customMirror.children.count, 0, member.name)
          XCTAssertEqual(
            (object as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, member.name)
        } else {
          XCTAssertFalse(object is CustomStringConvertible, member.name)
          XCTAssertFalse(object is CustomReflectable, member.name)
          XCTAssertFalse(object is CustomPlaygroundDisplayConvertible, member.name)
        }
      }
      XCTAssertEqual(
        (upstream.operatorSubscriber as? CustomCombineIdentifierConvertible)?.combineIdentifier,
        (other.operatorSubscriber as? CustomCombineIdentifierConvertible)?.combineIdentifier, member.name)
    }
  }

  func test_requestNone_isAcceptedWithoutATrap() {
    for member in members {
      let (upstream, _, subscriber) = subscribed(member, initialDemand: .none)
      let subscription = upstream.attach()
      subscriber.subscription?.request(.none)
      XCTAssertEqual(subscription.events, [.requested(.none)], member.name)
    }
  }
}
