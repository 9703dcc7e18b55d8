import Confluence
import ConfluenceTesting
import XCTest

/// Rules Apple gives every publisher of one value — `Just`, `Result.Publisher` with a
/// success and `Optional.Publisher` with a value: what their subscription shows.
final class SingleValuePublisherRulesTests: XCTestCase {
  private func subscription<P: Publisher>(of publisher: P) -> Subscription? {
    let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: .none)
    publisher.subscribe(subscriber)
    return subscriber.subscription
  }

  private func assertShowsOneUnlabeledValue(
    _ subscription: Subscription?, described description: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    guard let subscription else { return XCTFail("no subscription", file: file, line: line) }
    XCTAssertEqual(String(describing: subscription), description, file: file, line: line)
    XCTAssertEqual(
      (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, description,
      file: file, line: line)
    XCTAssertFalse(subscription is CustomDebugStringConvertible, file: file, line: line)
    let children = Array(Mirror(reflecting: subscription).children)
    XCTAssertEqual(children.count, 1, file: file, line: line)
    XCTAssertNil(children.first?.label, file: file, line: line)
    XCTAssertEqual(children.first?.value as? Int, 42, file: file, line: line)
    var dumped = ""
    dump(subscription, to: &dumped)
    XCTAssertEqual(dumped, "▿ \(description) #0\n  - 42\n", file: file, line: line)
  }

  func test_mirror_isTheValueUnlabeled_just() {
    assertShowsOneUnlabeledValue(subscription(of: Just(42)), described: "Just")
  }

  func test_mirror_isTheValueUnlabeled_resultPublisher() {
    assertShowsOneUnlabeledValue(subscription(of: Result<Int, TestError>.Publisher(42)), described: "Once")
  }

  func test_mirror_isTheValueUnlabeled_optionalPublisher() {
    assertShowsOneUnlabeledValue(subscription(of: Optional(42).publisher), described: "Optional")
  }
}
