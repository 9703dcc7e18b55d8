import Confluence
import ConfluenceTesting
import XCTest

/// Apple's `Optional.Publisher` overloads of the reducing, matching, sequence and error
/// operators: the explicit result types are the point (they must type-check as with Apple's
/// Combine), then the values, with and without an output.
final class OptionalPublisherReduceOperatorsTests: XCTestCase {
  private let none: Int? = nil

  private func events<P: Publisher>(_ publisher: P) -> [String] {
    let subscriber = TestSubscriber<P.Output, P.Failure>()
    publisher.subscribe(subscriber)
    return subscriber.eventDescriptions
  }

  func test_reducingOperators_withAndWithoutOutput() {
    let collected: Optional<[Int]>.Publisher = Optional(1).publisher.collect()
    let counted: Optional<Int>.Publisher = Optional("a").publisher.count()
    let reduced: Optional<Int>.Publisher = Optional(2).publisher.reduce(40, +)
    let ignored: Empty<Int, Never> = Optional(1).publisher.ignoreOutput()
    XCTAssertEqual(collected.output, [1])
    XCTAssertEqual(counted.output, 1)
    XCTAssertEqual(reduced.output, 42)
    XCTAssertEqual(events(ignored), ["subscription(Empty)", "completion(finished)"])

    var calls = 0
    XCTAssertEqual(none.publisher.collect().output, [], "as the generic collect(): an empty array")
    XCTAssertNil(none.publisher.count().output)
    XCTAssertNil(
      none.publisher.reduce(40) {
        calls += 1
        return $0 + $1
      }.output)
    XCTAssertEqual(events(none.publisher.ignoreOutput()), ["subscription(Empty)", "completion(finished)"])
    XCTAssertEqual(calls, 0)
  }

  func test_mathematicalOperators_returnTheSamePublisher() {
    var calls = 0
    let minimum: Optional<Int>.Publisher = Optional(3).publisher.min()
    let maximum: Optional<Int>.Publisher = Optional(3).publisher.max()
    let minimumBy: Optional<Int>.Publisher = Optional(3).publisher.min {
      calls += 1
      return $0 < $1
    }
    let maximumBy: Optional<Int>.Publisher = Optional(3).publisher.max {
      calls += 1
      return $0 < $1
    }
    XCTAssertEqual([minimum.output, maximum.output, minimumBy.output, maximumBy.output], [3, 3, 3, 3])
    XCTAssertNil(none.publisher.min().output)
    XCTAssertNil(none.publisher.max(by: <).output)
    XCTAssertEqual(calls, 0)
  }

  func test_matchingOperators_withAndWithoutOutput() {
    let contains: Optional<Bool>.Publisher = Optional(3).publisher.contains(3)
    let containsOther: Optional<Bool>.Publisher = Optional(3).publisher.contains(4)
    let containsWhere: Optional<Bool>.Publisher = Optional(3).publisher.contains { $0 > 5 }
    let all: Optional<Bool>.Publisher = Optional(4).publisher.allSatisfy { $0.isMultiple(of: 2) }
    XCTAssertEqual(contains.output, true)
    XCTAssertEqual(containsOther.output, false)
    XCTAssertEqual(containsWhere.output, false)
    XCTAssertEqual(all.output, true)
    XCTAssertEqual(events(all), ["subscription(Optional)", "value(true)", "completion(finished)"])

    var calls = 0
    XCTAssertNil(none.publisher.contains(3).output)
    XCTAssertNil(
      none.publisher.contains { _ in
        calls += 1
        return true
      }.output)
    XCTAssertNil(
      none.publisher.allSatisfy { _ in
        calls += 1
        return true
      }.output)
    XCTAssertEqual(events(none.publisher.allSatisfy { $0 > 0 }), ["subscription(Empty)", "completion(finished)"])
    XCTAssertEqual(calls, 0)
  }

  func test_sequenceOperators_filterTheOutput() {
    let first: Optional<Int>.Publisher = Optional(1).publisher.first()
    let last: Optional<Int>.Publisher = Optional(1).publisher.last()
    let firstWhere: Optional<Int>.Publisher = Optional(1).publisher.first { $0 > 5 }
    let lastWhere: Optional<Int>.Publisher = Optional(7).publisher.last { $0 > 5 }
    XCTAssertEqual(first.output, 1)
    XCTAssertEqual(last.output, 1)
    XCTAssertNil(firstWhere.output)
    XCTAssertEqual(lastWhere.output, 7)
    XCTAssertEqual(Optional(7).publisher.first { $0 > 5 }.output, 7)
    XCTAssertNil(Optional(1).publisher.last { $0 > 5 }.output)
    XCTAssertNil(none.publisher.first().output)
    XCTAssertNil(none.publisher.last { _ in true }.output)
  }

  func test_errorOperators() {
    let replacedEmpty: Just<Int> = none.publisher.replaceEmpty(with: 0)
    let keptOutput: Just<Int> = Optional(5).publisher.replaceEmpty(with: 0)
    let replacedError: Optional<Int>.Publisher = Optional(1).publisher.replaceError(with: 0)
    let retried: Optional<Int>.Publisher = Optional(1).publisher.retry(3)
    XCTAssertEqual(replacedEmpty.output, 0)
    XCTAssertEqual(keptOutput.output, 5)
    XCTAssertEqual(replacedError.output, 1)
    XCTAssertNil(none.publisher.replaceError(with: 0).output)
    XCTAssertEqual(retried.output, 1)
    XCTAssertEqual(
      events(replacedEmpty), ["subscription(Just)", "value(0)", "completion(finished)"])
  }
}
