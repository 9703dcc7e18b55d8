import Confluence
import ConfluenceTesting
import XCTest

/// Apple's specialised mapping and filtering overloads on `Result.Publisher`.
final class ResultPublisherMapFilterOperatorsTests: XCTestCase {
  private let success = Result<Int, TestError>.Publisher(5)
  private let failure = Result<Int, TestError>.Publisher(TestError("upstream"))

  private func describe<T>(_ publisher: Result<T, any Error>.Publisher) -> String {
    switch publisher.result {
    case .success(let value): return "success(\(value))"
    case .failure(let error): return "failure(\(error))"
    }
  }

  func test_tryMap() {
    let mapped: Result<String, any Error>.Publisher = success.tryMap { "#\($0)" }
    XCTAssertEqual(describe(mapped), "success(#5)")
    XCTAssertEqual(describe(success.tryMap { _ -> Int in throw TestError("thrown") }), "failure(thrown)")
    XCTAssertEqual(describe(failure.tryMap { $0 }), "failure(upstream)")
  }

  func test_mapError() {
    struct Wrapped: Error, Equatable { let inner: TestError }
    let wrapped: Result<Int, Wrapped>.Publisher = failure.mapError { Wrapped(inner: $0) }
    XCTAssertEqual(wrapped.result, .failure(Wrapped(inner: TestError("upstream"))))
    XCTAssertEqual(success.mapError { Wrapped(inner: $0) }.result, .success(5))
  }

  func test_scanAndTryScan() {
    let total: Result<Int, TestError>.Publisher = success.scan(10) { $0 + $1 }
    XCTAssertEqual(total.result, .success(15))
    XCTAssertEqual(failure.scan(10) { $0 + $1 }.result, .failure(TestError("upstream")))
    let tried: Result<Int, any Error>.Publisher = success.tryScan(10) { $0 + $1 }
    XCTAssertEqual(describe(tried), "success(15)")
    XCTAssertEqual(describe(success.tryScan(10) { _, _ in throw TestError("thrown") }), "failure(thrown)")
  }

  func test_removeDuplicates() {
    let plain: Result<Int, TestError>.Publisher = success.removeDuplicates()
    let byPredicate: Result<Int, TestError>.Publisher = failure.removeDuplicates { _, _ in true }
    XCTAssertEqual(plain, success)
    XCTAssertEqual(byPredicate, failure)
    // Apple calls the closure once with the value twice; what it throws is the failure.
    let tried: Result<Int, any Error>.Publisher = success.tryRemoveDuplicates { _, _ in throw TestError("dup") }
    XCTAssertEqual(describe(tried), "failure(dup)")
    XCTAssertEqual(describe(success.tryRemoveDuplicates { $0 == $1 }), "success(5)")
    XCTAssertEqual(describe(failure.tryRemoveDuplicates { $0 == $1 }), "failure(upstream)")
  }

  func test_setFailureType() {
    let typed: Result<Int, TestError>.Publisher = Result<Int, Never>.Publisher(3).setFailureType(to: TestError.self)
    XCTAssertEqual(typed.result, .success(3))
  }
}
