import Confluence
import ConfluenceTesting
import XCTest

/// Apple's specialised `map`/`filter` on `Just`: the static types are Apple's, and the
/// closures run at once.
final class JustOperatorsTests: XCTestCase {
  func test_map_returnsJust() {
    let mapped: Just<String> = Just(1).map { "\($0)" }
    XCTAssertEqual(mapped.output, "1")
    let subscriber = TestSubscriber<String, Never>()
    mapped.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Just"), .value("1"), .completion(.finished)])
  }

  func test_map_runsClosureAtOnce() {
    var calls = 0
    _ = Just(1).map { value -> Int in
      calls += 1
      return value
    }
    XCTAssertEqual(calls, 1)
  }

  func test_map_chainsAsJust() {
    let chained: Just<Int> = Just(1).map { $0 + 1 }.map { $0 * 10 }
    XCTAssertEqual(chained, Just(20))
  }

  func test_map_genericOverloadStillAvailableByContext() {
    let generic: Publishers.Map<Just<Int>, String> = Just(1).map { "\($0)" }
    let subscriber = TestSubscriber<String, Never>()
    generic.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, ["1"])
  }

  func test_filter_returnsOptionalPublisher_included() {
    let kept: Optional<Int>.Publisher = Just(2).filter { $0.isMultiple(of: 2) }
    XCTAssertEqual(kept.output, 2)
    let subscriber = TestSubscriber<Int, Never>()
    kept.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Optional"), .value(2), .completion(.finished)])
  }

  func test_filter_returnsOptionalPublisher_excluded() {
    let dropped: Optional<Int>.Publisher = Just(3).filter { $0.isMultiple(of: 2) }
    XCTAssertNil(dropped.output)
    let subscriber = TestSubscriber<Int, Never>()
    dropped.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.finished)])
  }

  func test_filterThenMap_staysOptionalPublisher() {
    let pipeline: Optional<String>.Publisher = Just(4).filter { $0 > 3 }.map { "#\($0)" }
    XCTAssertEqual(pipeline.output, "#4")
  }
}
