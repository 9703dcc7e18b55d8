import Confluence
import ConfluenceTesting
import XCTest

/// Lifetime rules found by the lifetime matrix with third-party-style upstreams, one
/// focused test per rule (the matrix rows pin the same cells).
final class ThirdPartyLifetimeRulesTests: XCTestCase {
  /// `drop(untilOutputFrom:)` keeps the other's subscription after its first value (to
  /// cancel it when upstream completes). A cancel lets go of it — uncancelled, as Apple's
  /// operator leaves it — so that an other publisher that has finished and forgotten its
  /// subscription, which keeps its subscriber until cancelled, does not keep the chain.
  func test_dropUntilOutput_cancelAfterTheOtherFiredAndFinished_freesTheChain() {
    let tracker = LifetimeTracker()
    let upstream = PassthroughSubject<Int, TestError>()
    let other = ThirdPartyPublisher<Int, TestError>(token: { tracker.make() })
    var received: [Int] = []
    var token: AnyCancellable? = upstream.drop(untilOutputFrom: other)
      .sink(receiveCompletion: { [probe = tracker.make()] _ in _ = probe }, receiveValue: { received.append($0) })
    other.send(0)
    other.send(completion: .finished)  // ignored after the first value; the other forgets its subscription
    upstream.send(1)
    XCTAssertEqual(received, [1])
    XCTAssertEqual(tracker.liveCount, 2, "the sink's closure and the other's subscription")
    token?.cancel()
    token = nil
    XCTAssertEqual(tracker.liveCount, 0)
  }
}
