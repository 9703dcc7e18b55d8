import Confluence
import ConfluenceTesting
import XCTest

/// Apple's specialised mapping, filtering and sequence overloads on `Optional.Publisher`.
final class OptionalPublisherMapFilterOperatorsTests: XCTestCase {
  func test_compactMap() {
    let some: Optional<Int>.Publisher = Optional("4").publisher.compactMap { Int($0) }
    let none: Optional<Int>.Publisher = Optional("x").publisher.compactMap { Int($0) }
    let empty: Optional<Int>.Publisher = Optional<String>.none.publisher.compactMap { Int($0) }
    XCTAssertEqual(some.output, 4)
    XCTAssertNil(none.output)
    XCTAssertNil(empty.output)
  }

  func test_scan() {
    let total: Optional<Int>.Publisher = Optional(5).publisher.scan(10) { $0 + $1 }
    XCTAssertEqual(total.output, 15)
    XCTAssertNil(Optional<Int>.none.publisher.scan(10) { $0 + $1 }.output)
  }

  func test_removeDuplicates_returnsSelf() {
    let plain: Optional<Int>.Publisher = Optional(1).publisher.removeDuplicates()
    let byPredicate: Optional<Int>.Publisher = Optional(1).publisher.removeDuplicates { _, _ in true }
    XCTAssertEqual(plain.output, 1)
    XCTAssertEqual(byPredicate.output, 1)
  }

  func test_sequenceOperations() {
    let value = Optional(2).publisher
    XCTAssertNil(value.dropFirst().output)
    XCTAssertEqual(value.dropFirst(0).output, 2)
    XCTAssertNil(value.drop { $0 < 3 }.output)
    XCTAssertEqual(value.drop { $0 > 3 }.output, 2)
    XCTAssertEqual(value.prefix(1).output, 2)
    XCTAssertNil(value.prefix(0).output)
    XCTAssertEqual(value.prefix { $0 < 3 }.output, 2)
    XCTAssertNil(value.prefix { $0 > 3 }.output)
    XCTAssertEqual(value.output(at: 0).output, 2)
    XCTAssertNil(value.output(at: 3).output)
    XCTAssertEqual(value.output(in: 0...0).output, 2)
    XCTAssertNil(value.output(in: 1..<4).output)
    XCTAssertNil(value.output(in: 0..<0).output, "an empty range publishes nothing (Just's looks at the start only)")
    XCTAssertEqual(value.output(in: ...1).output, 2)
    XCTAssertEqual(value.output(in: 0..<(Int.max - 2)).output, 2)
    XCTAssertNil(Optional<Int>.none.publisher.output(in: 0..<2).output)
    XCTAssertNil(Optional<Int>.none.publisher.prefix(1).output)
  }

  func test_publishesResult() {
    let subscriber = TestSubscriber<Int, Never>()
    Optional(7).publisher.drop { $0 > 10 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [7])
    XCTAssertEqual(subscriber.completion, .finished)
  }
}
