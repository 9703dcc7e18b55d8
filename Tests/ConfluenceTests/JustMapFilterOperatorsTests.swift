import Confluence
import ConfluenceTesting
import XCTest

/// Apple's specialised mapping, filtering and sequence overloads on `Just`.
final class JustMapFilterOperatorsTests: XCTestCase {
  private func events<P: Publisher>(_ publisher: P) -> [String] {
    let subscriber = TestSubscriber<P.Output, P.Failure>()
    publisher.subscribe(subscriber)
    return subscriber.eventDescriptions.filter { !$0.hasPrefix("subscription") }
  }

  func test_tryMap_returnsResultPublisher() {
    let mapped: Result<String, any Error>.Publisher = Just(1).tryMap { "#\($0)" }
    XCTAssertEqual(events(mapped), ["value(#1)", "completion(finished)"])
    let failed: Result<String, any Error>.Publisher = Just(1).tryMap { _ in throw TestError("no") }
    XCTAssertEqual(events(failed), ["completion(failure(no))"])
  }

  func test_mapError_neverCallsTransform() {
    func convert<E: Error>(_ error: E) -> TestError { TestError("\(error)") }
    let typed: Result<Int, TestError>.Publisher = Just(1).mapError(convert)
    XCTAssertEqual(typed.result, .success(1))
  }

  func test_scanAndTryScan_combineOnce() {
    let total: Result<Int, Never>.Publisher = Just(5).scan(10) { $0 + $1 }
    XCTAssertEqual(total.result, .success(15))
    let checked: Result<Int, any Error>.Publisher = Just(5).tryScan(10) { $0 + $1 }
    XCTAssertEqual(events(checked), ["value(15)", "completion(finished)"])
    let failed: Result<Int, any Error>.Publisher = Just(5).tryScan(10) { _, _ in throw TestError("scan") }
    XCTAssertEqual(events(failed), ["completion(failure(scan))"])
  }

  func test_setFailureType_returnsResultPublisher() {
    let typed: Result<Int, TestError>.Publisher = Just(1).setFailureType(to: TestError.self)
    XCTAssertEqual(typed.result, .success(1))
  }

  func test_compactMap_returnsOptionalPublisher() {
    let some: Optional<Int>.Publisher = Just("4").compactMap { Int($0) }
    let none: Optional<Int>.Publisher = Just("x").compactMap { Int($0) }
    XCTAssertEqual(some.output, 4)
    XCTAssertNil(none.output)
  }

  func test_removeDuplicates_returnsJust() {
    let plain: Just<Int> = Just(1).removeDuplicates()
    let byPredicate: Just<Int> = Just(1).removeDuplicates { _, _ in true }
    XCTAssertEqual(plain, Just(1))
    XCTAssertEqual(byPredicate, Just(1))
  }

  // Apple calls the comparing closure of `tryRemoveDuplicates` once, with the value twice,
  // so an error it throws becomes the failure (an earlier version never called it).
  func test_tryRemoveDuplicates_callsPredicateOnce_andFailsWithItsError() {
    var calls: [[Int]] = []
    let kept: Result<Int, any Error>.Publisher = Just(1).tryRemoveDuplicates {
      calls.append([$0, $1])
      return true
    }
    XCTAssertEqual(events(kept), ["value(1)", "completion(finished)"])
    XCTAssertEqual(calls, [[1, 1]])
    let thrown: Result<Int, any Error>.Publisher = Just(1).tryRemoveDuplicates { _, _ in throw TestError("no") }
    XCTAssertEqual(events(thrown), ["completion(failure(no))"])
  }

  // Apple's single-value `output(in:)` looks only at where the range starts.
  func test_outputIn_publishesExactlyWhenRangeStartsAtZero() {
    XCTAssertEqual(Just(12).output(in: 0..<0).output, 12)
    XCTAssertEqual(Just(12).output(in: 0...0).output, 12)
    XCTAssertEqual(Just(12).output(in: 0..<Int.max).output, 12)
    XCTAssertNil(Just(12).output(in: -10..<10).output)
    XCTAssertNil(Just(12).output(in: (-10)...).output)
    XCTAssertNil(Just(12).output(in: 1..<10).output)
  }

  func test_prepend_reservesOnceAndCopiesTheSequence() {
    let prepended: Publishers.Sequence<[Int], Never> = Just(5).prepend(AnySequence([1, 2, 3, 4]))
    XCTAssertEqual(prepended.sequence, [1, 2, 3, 4, 5])
  }

  func test_sequenceOperations_returnOptionalPublisher() {
    let dropped: Optional<Int>.Publisher = Just(1).dropFirst()
    let notDropped: Optional<Int>.Publisher = Just(1).dropFirst(0)
    XCTAssertNil(dropped.output)
    XCTAssertEqual(notDropped.output, 1)
    XCTAssertNil(Just(1).drop { $0 < 3 }.output)
    XCTAssertEqual(Just(5).drop { $0 < 3 }.output, 5)
    XCTAssertEqual(Just(1).prefix(1).output, 1)
    XCTAssertNil(Just(1).prefix(0).output)
    XCTAssertEqual(Just(1).prefix { $0 < 3 }.output, 1)
    XCTAssertNil(Just(5).prefix { $0 < 3 }.output)
    XCTAssertEqual(Just(1).output(at: 0).output, 1)
    XCTAssertNil(Just(1).output(at: 1).output)
    XCTAssertEqual(Just(1).output(in: 0..<2).output, 1)
    XCTAssertEqual(Just(1).output(in: ...0).output, 1)
    XCTAssertNil(Just(1).output(in: 1...3).output)
  }

  func test_genericOperatorsStillReachable_throughExplicitTypes() {
    let drop: Publishers.Drop<Just<Int>> = Just(1).dropFirst()
    let subscriber = TestSubscriber<Int, Never>()
    drop.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Drop"), .completion(.finished)])
  }
}
