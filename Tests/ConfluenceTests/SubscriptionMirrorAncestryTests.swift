import Confluence
import ConfluenceTesting
import XCTest

/// The subscriptions whose state lives in a holder class (sequence, `flatMap`, the merge
/// publishers, `zip`, `combineLatest`, `switchToLatest`) show only their own children, as
/// Apple's do: `dump` and `Mirror.superclassMirror` reveal no ancestor (no `super`, no state).
final class SubscriptionMirrorAncestryTests: XCTestCase {
  private func subscription<P: Publisher>(of publisher: P) -> Subscription? where P.Output == Int, P.Failure == Never {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    var received: Subscription?
    subscriber.onSubscription = { received = $0 }
    publisher.subscribe(subscriber)
    return received
  }

  private func assertNoAncestor(_ subscription: Subscription?, _ name: String, line: UInt = #line) {
    guard let subscription else { return XCTFail("\(name): no subscription", line: line) }
    XCTAssertNil(Mirror(reflecting: subscription).superclassMirror, name, line: line)
    var dumped = ""
    dump(subscription, to: &dumped)
    XCTAssertFalse(dumped.contains("super"), "\(name): \(dumped)", line: line)
    XCTAssertFalse(dumped.contains("state"), "\(name): \(dumped)", line: line)
  }

  func test_holderSubscriptions_showNoAncestor() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    assertNoAncestor(subscription(of: [1, 2, 3].publisher), "Sequence")
    assertNoAncestor(subscription(of: a.flatMap { Just($0) }), "FlatMap")
    assertNoAncestor(subscription(of: a.merge(with: b)), "Merge")
    assertNoAncestor(subscription(of: a.zip(b).map { $0 + $1 }), "Zip")
    assertNoAncestor(subscription(of: a.combineLatest(b).map { $0 + $1 }), "CombineLatest")
    assertNoAncestor(subscription(of: a.map { Just($0) }.switchToLatest()), "SwitchToLatest")
  }
}
