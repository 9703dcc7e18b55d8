import Confluence
import ConfluenceTesting
import XCTest

/// Apple's `Just` overloads of the reducing, matching, sequence and error operators: the
/// explicit result types are the point (they must type-check as with Apple's Combine).
final class JustReduceOperatorsTests: XCTestCase {
  private func values<P: Publisher>(_ publisher: P) -> [String] {
    let subscriber = TestSubscriber<P.Output, P.Failure>()
    publisher.subscribe(subscriber)
    return subscriber.eventDescriptions
  }

  func test_reducingOperators() {
    let collected: Just<[Int]> = Just(1).collect()
    let counted: Just<Int> = Just("a").count()
    let ignored: Empty<Int, Never> = Just(1).ignoreOutput()
    let reduced: Result<Int, Never>.Publisher = Just(2).reduce(40, +)
    let tried: Result<Int, any Error>.Publisher = Just(2).tryReduce(21) { $0 * $1 }
    let failed: Result<Int, any Error>.Publisher = Just(2).tryReduce(0) { _, _ in throw TestError() }
    XCTAssertEqual(collected.output, [1])
    XCTAssertEqual(counted.output, 1)
    XCTAssertEqual(values(ignored), ["subscription(Empty)", "completion(finished)"])
    XCTAssertEqual(values(reduced).dropFirst(), ["value(42)", "completion(finished)"])
    XCTAssertEqual(values(tried).dropFirst(), ["value(42)", "completion(finished)"])
    XCTAssertEqual(values(failed).dropFirst(), ["completion(failure(oops))"])
  }

  func test_mathematicalAndMatchingOperators() {
    let minimum: Just<Int> = Just(3).min()
    let maximum: Just<Int> = Just(3).max(by: <)
    let contains: Just<Bool> = Just(3).contains(3)
    let containsWhere: Just<Bool> = Just(3).contains { $0 > 5 }
    let tryContains: Result<Bool, any Error>.Publisher = Just(3).tryContains { $0 == 3 }
    let all: Just<Bool> = Just(4).allSatisfy { $0.isMultiple(of: 2) }
    let tryAll: Result<Bool, any Error>.Publisher = Just(4).tryAllSatisfy { _ in throw TestError() }
    XCTAssertEqual(minimum.output, 3)
    XCTAssertEqual(maximum.output, 3)
    XCTAssertEqual(Just(3).min(by: >).output, 3)
    XCTAssertEqual(Just(3).max().output, 3)
    XCTAssertTrue(contains.output)
    XCTAssertFalse(containsWhere.output)
    XCTAssertEqual(values(tryContains).dropFirst(), ["value(true)", "completion(finished)"])
    XCTAssertTrue(all.output)
    XCTAssertEqual(values(tryAll).dropFirst(), ["completion(failure(oops))"])
  }

  func test_sequenceOperators() {
    let first: Just<Int> = Just(1).first()
    let last: Just<Int> = Just(1).last()
    let firstWhere: Optional<Int>.Publisher = Just(1).first { $0 > 5 }
    let lastWhere: Optional<Int>.Publisher = Just(7).last { $0 > 5 }
    let appended: Publishers.Sequence<[Int], Never> = Just(1).append(2, 3)
    let appendedSequence: Publishers.Sequence<[Int], Never> = Just(1).append(2...3)
    let prepended: Publishers.Sequence<[Int], Never> = Just(3).prepend(1, 2)
    let prependedSequence: Publishers.Sequence<[Int], Never> = Just(3).prepend(1...2)
    XCTAssertEqual(first.output, 1)
    XCTAssertEqual(last.output, 1)
    XCTAssertNil(firstWhere.output)
    XCTAssertEqual(lastWhere.output, 7)
    XCTAssertEqual(appended.sequence, [1, 2, 3])
    XCTAssertEqual(appendedSequence.sequence, [1, 2, 3])
    XCTAssertEqual(prepended.sequence, [1, 2, 3])
    XCTAssertEqual(prependedSequence.sequence, [1, 2, 3])
  }

  func test_errorOperators() {
    let replacedEmpty: Just<Int> = Just(1).replaceEmpty(with: 0)
    let replacedError: Just<Int> = Just(1).replaceError(with: 0)
    let retried: Just<Int> = Just(1).retry(3)
    XCTAssertEqual(replacedEmpty.output, 1)
    XCTAssertEqual(replacedError.output, 1)
    XCTAssertEqual(retried.output, 1)
  }
}
