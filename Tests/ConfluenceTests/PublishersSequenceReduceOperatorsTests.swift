import Confluence
import ConfluenceTesting
import XCTest

/// Apple's `Publishers.Sequence` overloads of the reducing, matching and sequence
/// operators: the explicit result types are the point (they must type-check as with Apple's
/// Combine, including which constraint picks `Just` over `Result.Publisher`), then the
/// values, computed when the operator is applied.
final class PublishersSequenceReduceOperatorsTests: XCTestCase {
  private typealias Failing = Publishers.Sequence<[Int], TestError>

  private func events<P: Publisher>(_ publisher: P) -> [String] {
    let subscriber = TestSubscriber<P.Output, P.Failure>()
    publisher.subscribe(subscriber)
    return subscriber.eventDescriptions
  }

  func test_count_isJustForRandomAccessNeverElseResult() {
    let justCount: Just<Int> = (0...10).publisher.count()
    let resultCount: Result<Int, TestError>.Publisher = Failing(sequence: [1, 2]).count()
    let setCount: Result<Int, Never>.Publisher = Set([1, 2, 3]).publisher.count()
    XCTAssertEqual(justCount.output, 11)
    XCTAssertEqual(resultCount.result, .success(2))
    XCTAssertEqual(setCount.result, .success(3))
    XCTAssertEqual([Int]().publisher.count().output, 0)
  }

  func test_reducingOperators_computeAtOnce() {
    let collected: Result<[Int], Never>.Publisher = (1...3).publisher.collect()
    let reduced: Result<Int, Never>.Publisher = (1...4).publisher.reduce(0, +)
    let tried: Result<Int, any Error>.Publisher = (1...4).publisher.tryReduce(1) { $0 * $1 }
    let thrown: Result<Int, any Error>.Publisher = (1...4).publisher.tryReduce(0) { _, next in
      if next == 3 { throw TestError() }
      return next
    }
    let ignored: Empty<Int, TestError> = Failing(sequence: [1]).ignoreOutput()
    XCTAssertEqual(collected.result, .success([1, 2, 3]))
    XCTAssertEqual(reduced.result, .success(10))
    XCTAssertEqual(events(tried), ["subscription(Once)", "value(24)", "completion(finished)"])
    XCTAssertEqual(events(thrown), ["subscription(Empty)", "completion(failure(oops))"])
    XCTAssertEqual(events(ignored), ["subscription(Empty)", "completion(finished)"])
    XCTAssertEqual([Int]().publisher.collect().result, .success([]))
    XCTAssertEqual([Int]().publisher.reduce(7, +).result, .success(7))
  }

  func test_mathematicalOperators_areOptionalPublishers() {
    let minimum: Optional<Int>.Publisher = [1, -50, 246, 0].publisher.min()
    let maximum: Optional<Int>.Publisher = [1, -50, 246, 0].publisher.max()
    let shortest: Optional<String>.Publisher = ["ccc", "a", "bb"].publisher.min { $0.count < $1.count }
    let longest: Optional<String>.Publisher = ["ccc", "a", "bb"].publisher.max { $0.count < $1.count }
    XCTAssertEqual(minimum.output, -50)
    XCTAssertEqual(maximum.output, 246)
    XCTAssertEqual(shortest.output, "a")
    XCTAssertEqual(longest.output, "ccc")
    XCTAssertNil([Int]().publisher.min().output)
    XCTAssertEqual(events([Int]().publisher.max()), ["subscription(Empty)", "completion(finished)"])
  }

  func test_matchingOperators_stopAtTheAnswer() {
    var tested: [Int] = []
    let contains: Result<Bool, Never>.Publisher = [1, 2, 3].publisher.contains(2)
    let containsWhere: Result<Bool, Never>.Publisher = [1, 5, 9].publisher.contains {
      tested.append($0)
      return $0 > 4
    }
    let tryContains: Result<Bool, any Error>.Publisher = [1, 2].publisher.tryContains { _ in throw TestError() }
    let all: Result<Bool, Never>.Publisher = [2, 3, 4].publisher.allSatisfy {
      tested.append($0)
      return $0.isMultiple(of: 2)
    }
    let tryAll: Result<Bool, any Error>.Publisher = [2, 4].publisher.tryAllSatisfy { $0.isMultiple(of: 2) }
    let failingContains: Result<Bool, TestError>.Publisher = Failing(sequence: [1]).contains(5)
    XCTAssertEqual(contains.result, .success(true))
    XCTAssertEqual(containsWhere.result, .success(true))
    XCTAssertEqual(events(tryContains), ["subscription(Empty)", "completion(failure(oops))"])
    XCTAssertEqual(all.result, .success(false))
    XCTAssertEqual(events(tryAll), ["subscription(Once)", "value(true)", "completion(finished)"])
    XCTAssertEqual(failingContains.result, .success(false))
    XCTAssertEqual(tested, [1, 5, 2, 3])
    XCTAssertEqual([Int]().publisher.allSatisfy { _ in false }.result, .success(true))
  }

  func test_sequenceOperators_areOptionalPublishers() {
    let first: Optional<String>.Publisher = ["A", "B", "C"].publisher.first()
    let last: Optional<String>.Publisher = ["A", "B", "C"].publisher.last()
    let firstWhere: Optional<Int>.Publisher = [1, 7, 9].publisher.first { $0 > 5 }
    let lastWhere: Optional<Int>.Publisher = [1, 7, 9, 2].publisher.last { $0 > 5 }
    XCTAssertEqual(first.output, "A")
    XCTAssertEqual(last.output, "C")
    XCTAssertEqual(firstWhere.output, 7)
    XCTAssertEqual(lastWhere.output, 9)
    XCTAssertNil([Int]().publisher.first().output)
    XCTAssertNil([1].publisher.last { $0 > 5 }.output)
    XCTAssertEqual(
      events(["A", "B"].publisher.last()), ["subscription(Optional)", "value(B)", "completion(finished)"])
  }

  func test_generalOperatorsStillApply_whereNoOverloadExists() {
    // `first()` on a failing sequence has no specialised overload: the generic one applies.
    let first: Publishers.First<Failing> = Failing(sequence: [4, 5]).first()
    XCTAssertEqual(events(first), ["subscription(First)", "value(4)", "completion(finished)"])
  }
}
