import Confluence
import ConfluenceTesting
import XCTest

/// Apple's specialised `map` on `Result.Publisher`.
final class ResultPublisherOperatorsTests: XCTestCase {
  func test_map_returnsResultPublisher_success() {
    let mapped: Result<String, TestError>.Publisher = Result<Int, TestError>.success(2).publisher.map { "\($0 * 2)" }
    XCTAssertEqual(mapped.result, .success("4"))
    let subscriber = TestSubscriber<String, TestError>()
    mapped.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Once"), .value("4"), .completion(.finished)])
  }

  func test_map_failurePassesThrough_closureNotCalled() {
    var calls = 0
    let mapped: Result<String, TestError>.Publisher = Result<Int, TestError>.failure(TestError("no")).publisher
      .map { value -> String in
        calls += 1
        return "\(value)"
      }
    XCTAssertEqual(mapped.result, .failure(TestError("no")))
    XCTAssertEqual(calls, 0)
  }

  func test_filter_usesGenericOperator() {
    let filtered: Publishers.Filter<Result<Int, TestError>.Publisher> = Result<Int, TestError>.success(1).publisher
      .filter { $0 > 5 }
    let subscriber = TestSubscriber<Int, TestError>()
    filtered.subscribe(subscriber)
    // The generic operator is a relay: the subscription is the Result publisher's own.
    XCTAssertEqual(subscriber.events, [.subscription("Once"), .completion(.finished)])
  }
}
