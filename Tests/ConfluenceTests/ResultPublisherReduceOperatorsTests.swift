import Confluence
import ConfluenceTesting
import XCTest

/// Apple's `Result.Publisher` overloads of the reducing, matching, sequence and error
/// operators: the explicit result types are the point (they must type-check as with Apple's
/// Combine), then the values for a success, a failure and a throwing closure.
final class ResultPublisherReduceOperatorsTests: XCTestCase {
  private typealias Source = Result<Int, TestError>.Publisher
  private let success = Source(2)
  private let failure = Source(TestError("down"))

  private func events<P: Publisher>(_ publisher: P) -> [String] {
    let subscriber = TestSubscriber<P.Output, P.Failure>()
    publisher.subscribe(subscriber)
    return subscriber.eventDescriptions
  }

  func test_reducingOperators_onSuccessAndFailure() {
    let collected: Result<[Int], TestError>.Publisher = success.collect()
    let counted: Result<Int, TestError>.Publisher = success.count()
    let reduced: Result<Int, TestError>.Publisher = success.reduce(40, +)
    let tried: Result<Int, any Error>.Publisher = success.tryReduce(21) { $0 * $1 }
    let thrown: Result<Int, any Error>.Publisher = success.tryReduce(0) { _, _ in throw TestError() }
    let ignored: Empty<Int, TestError> = success.ignoreOutput()
    XCTAssertEqual(collected.result, .success([2]))
    XCTAssertEqual(counted.result, .success(1))
    XCTAssertEqual(reduced.result, .success(42))
    XCTAssertEqual(events(tried), ["subscription(Once)", "value(42)", "completion(finished)"])
    XCTAssertEqual(events(thrown), ["subscription(Empty)", "completion(failure(oops))"])
    XCTAssertEqual(events(ignored), ["subscription(Empty)", "completion(finished)"])

    var calls = 0
    XCTAssertEqual(failure.collect().result, .failure(TestError("down")))
    XCTAssertEqual(failure.count().result, .failure(TestError("down")))
    XCTAssertEqual(
      failure.reduce(0) {
        calls += 1
        return $0 + $1
      }.result, .failure(TestError("down")))
    XCTAssertEqual(
      events(
        failure.tryReduce(0) {
          calls += 1
          return $0 + $1
        }),
      ["subscription(Empty)", "completion(failure(down))"])
    XCTAssertEqual(calls, 0)
  }

  func test_mathematicalOperators_keepTheResult() {
    var calls = 0
    let minimum: Result<Int, TestError>.Publisher = success.min()
    let maximum: Result<Int, TestError>.Publisher = success.max()
    let minimumBy: Result<Int, TestError>.Publisher = success.min {
      calls += 1
      return $0 < $1
    }
    let maximumBy: Result<Int, TestError>.Publisher = success.max {
      calls += 1
      return $0 < $1
    }
    let tryMinimum: Result<Int, any Error>.Publisher = success.tryMin { _, _ in
      calls += 1
      throw TestError()
    }
    let tryMaximum: Result<Int, any Error>.Publisher = failure.tryMax { _, _ in
      calls += 1
      return true
    }
    XCTAssertEqual(
      [minimum.result, maximum.result, minimumBy.result, maximumBy.result], Array(repeating: .success(2), count: 4))
    // Apple calls a `try` comparator once on success (value twice): its error is the
    // failure. On failure it is not called.
    XCTAssertEqual(events(tryMinimum), ["subscription(Empty)", "completion(failure(oops))"])
    XCTAssertEqual(events(tryMaximum), ["subscription(Empty)", "completion(failure(down))"])
    XCTAssertEqual(failure.min().result, .failure(TestError("down")))
    XCTAssertEqual(calls, 1)
    let tryMaximumOfSuccess: Result<Int, any Error>.Publisher = success.tryMax { $0 < $1 }
    XCTAssertEqual(events(tryMaximumOfSuccess), ["subscription(Once)", "value(2)", "completion(finished)"])
  }

  func test_matchingOperators_onSuccessFailureAndThrow() {
    let contains: Result<Bool, TestError>.Publisher = success.contains(2)
    let containsWhere: Result<Bool, TestError>.Publisher = success.contains { $0 > 5 }
    let tryContains: Result<Bool, any Error>.Publisher = success.tryContains { $0 == 2 }
    let all: Result<Bool, TestError>.Publisher = success.allSatisfy { $0.isMultiple(of: 2) }
    let tryAll: Result<Bool, any Error>.Publisher = success.tryAllSatisfy { _ in throw TestError() }
    XCTAssertEqual(contains.result, .success(true))
    XCTAssertEqual(success.contains(3).result, .success(false))
    XCTAssertEqual(containsWhere.result, .success(false))
    XCTAssertEqual(events(tryContains), ["subscription(Once)", "value(true)", "completion(finished)"])
    XCTAssertEqual(all.result, .success(true))
    XCTAssertEqual(events(tryAll), ["subscription(Empty)", "completion(failure(oops))"])

    var calls = 0
    XCTAssertEqual(failure.contains(2).result, .failure(TestError("down")))
    XCTAssertEqual(
      failure.contains { _ in
        calls += 1
        return true
      }.result, .failure(TestError("down")))
    XCTAssertEqual(
      failure.allSatisfy { _ in
        calls += 1
        return true
      }.result, .failure(TestError("down")))
    XCTAssertEqual(
      events(
        failure.tryAllSatisfy { _ in
          calls += 1
          return true
        }),
      ["subscription(Empty)", "completion(failure(down))"])
    XCTAssertEqual(
      events(
        failure.tryContains { _ in
          calls += 1
          return true
        }),
      ["subscription(Empty)", "completion(failure(down))"])
    XCTAssertEqual(calls, 0)
  }

  func test_sequenceOperators_keepTheResult() {
    let first: Result<Int, TestError>.Publisher = success.first()
    let last: Result<Int, TestError>.Publisher = failure.last()
    XCTAssertEqual(first.result, .success(2))
    XCTAssertEqual(last.result, .failure(TestError("down")))
  }

  func test_errorOperators() {
    let replacedEmpty: Result<Int, TestError>.Publisher = success.replaceEmpty(with: 0)
    let replacedError: Result<Int, Never>.Publisher = failure.replaceError(with: 0)
    let keptSuccess: Result<Int, Never>.Publisher = success.replaceError(with: 0)
    let retried: Result<Int, TestError>.Publisher = failure.retry(3)
    XCTAssertEqual(replacedEmpty.result, .success(2))
    XCTAssertEqual(replacedError.result, .success(0))
    XCTAssertEqual(keptSuccess.result, .success(2))
    XCTAssertEqual(retried.result, .failure(TestError("down")))
    XCTAssertEqual(events(replacedError), ["subscription(Once)", "value(0)", "completion(finished)"])
  }
}
