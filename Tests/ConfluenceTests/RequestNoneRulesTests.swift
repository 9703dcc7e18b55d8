import Confluence
import ConfluenceTesting
import XCTest

/// Where Apple's Combine accepts `request(.none)` without trapping (the conformance suite
/// records each): the operators below either pass it upstream untouched or add nothing.
/// (Where Apple traps — a subject, `dataTaskPublisher` — MisuseTrapTests checks the trap.)
final class RequestNoneRulesTests: XCTestCase {
  private typealias Make = (DetachedUpstream<Int, TestError>) -> AnyPublisher<Int, TestError>

  /// Operators that hand `.none` upstream as it is.
  private let forwarding: [(String, Make)] = [
    ("handleEvents", { $0.handleEvents().eraseToAnyPublisher() }),
    ("append (concatenate)", { $0.append(Empty()).eraseToAnyPublisher() }),
  ]

  /// Operators that accept `.none` and add nothing to what they ask upstream.
  private let absorbing: [(String, Make)] = [
    ("buffer", { $0.buffer(size: 4, prefetch: .byRequest, whenFull: .dropOldest).eraseToAnyPublisher() }),
    (
      "drop(untilOutputFrom:)",
      { $0.drop(untilOutputFrom: Just(0).setFailureType(to: TestError.self)).eraseToAnyPublisher() }
    ),
    ("catch", { $0.catch { _ in Empty<Int, TestError>() }.eraseToAnyPublisher() }),
  ]

  func test_forwardingOperators_passNoneUpstream() {
    for (member, make) in forwarding {
      let upstream = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
      make(upstream).subscribe(subscriber)
      let subscription = upstream.attach()
      subscriber.request(.max(2))
      subscriber.subscription?.request(.none)
      XCTAssertEqual(subscription.events, [.requested(.max(2)), .requested(.none)], member)
    }
  }

  func test_absorbingOperators_acceptNone_withoutTrapping() {
    for (member, make) in absorbing {
      let upstream = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
      make(upstream).subscribe(subscriber)
      upstream.attach()
      subscriber.request(.max(1))
      subscriber.subscription?.request(.none)
      upstream.send(1)
      XCTAssertEqual(subscriber.values, [1], member)
    }
  }
}
