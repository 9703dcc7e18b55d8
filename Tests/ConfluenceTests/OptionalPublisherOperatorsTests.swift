import Confluence
import ConfluenceTesting
import XCTest

/// Apple's specialised `map`/`filter` on `Optional.Publisher`.
final class OptionalPublisherOperatorsTests: XCTestCase {
  func test_map_returnsOptionalPublisher() {
    let mapped: Optional<String>.Publisher = Optional(2).publisher.map { "\($0)" }
    XCTAssertEqual(mapped.output, "2")
    let subscriber = TestSubscriber<String, Never>()
    mapped.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Optional"), .value("2"), .completion(.finished)])
  }

  func test_map_nil_skipsClosure() {
    var calls = 0
    let mapped: Optional<String>.Publisher = Int?.none.publisher.map { value -> String in
      calls += 1
      return "\(value)"
    }
    XCTAssertNil(mapped.output)
    XCTAssertEqual(calls, 0)
  }

  func test_filter_returnsOptionalPublisher() {
    let kept: Optional<Int>.Publisher = Optional(3).publisher.filter { $0 > 2 }
    let dropped: Optional<Int>.Publisher = Optional(1).publisher.filter { $0 > 2 }
    XCTAssertEqual(kept.output, 3)
    XCTAssertNil(dropped.output)
    let subscriber = TestSubscriber<Int, Never>()
    dropped.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.finished)])
  }

  func test_filter_nil_skipsClosure() {
    var calls = 0
    _ = Int?.none.publisher.filter { _ in
      calls += 1
      return true
    }
    XCTAssertEqual(calls, 0)
  }

  func test_genericOverloadStillAvailableByContext() {
    let generic: Publishers.Filter<Optional<Int>.Publisher> = Optional(1).publisher.filter { $0 > 0 }
    let subscriber = TestSubscriber<Int, Never>()
    generic.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1])
  }
}
