import Confluence
import ConfluenceTesting
import XCTest

/// Apple's rules shared by the operators that hop or time events (`receive(on:)`, `delay`,
/// `subscribe(on:)`, `measureInterval`), each checked against every member.
final class TimingFamilyRulesTests: XCTestCase {
  private typealias Make = (DetachedUpstream<Int, TestError>, VirtualTimeScheduler) -> AnyPublisher<Int, TestError>

  private let members: [(String, Make)] = [
    ("receive(on:)", { $0.receive(on: $1).eraseToAnyPublisher() }),
    ("delay", { $0.delay(for: 1, scheduler: $1).eraseToAnyPublisher() }),
    ("subscribe(on:)", { $0.subscribe(on: $1).eraseToAnyPublisher() }),
    ("measureInterval", { $0.measureInterval(using: $1).map { _ in 0 }.eraseToAnyPublisher() }),
  ]

  func test_requestNone_goesUpstreamUnchecked_noTrap() {
    for (member, make) in members {
      let scheduler = TestScheduler(initialClock: 0)
      let upstream = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
      make(upstream, scheduler).subscribe(subscriber)
      scheduler.advance(by: 1)
      let subscription = upstream.attach()
      scheduler.advance(by: 1)
      subscriber.subscription?.request(.max(2))
      subscriber.subscription?.request(.none)
      scheduler.advance(by: 1)
      XCTAssertEqual(subscription.events, [.requested(.max(2)), .requested(.none)], member)
    }
  }
}
