import Confluence
import ConfluenceTesting
import XCTest

final class ReplaceEmptyTests: XCTestCase {
  func test_emptyStream_publishesReplacement_unlimitedDemand() {
    let subscriber = TestSubscriber<String, Never>()
    // "Using Combine", reference chapter: .replaceEmpty(with: "-replacement-")
    [String]().publisher.replaceEmpty(with: "-replacement-").subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("ReplaceEmpty"), .value("-replacement-"), .completion(.finished)])
  }

  func test_appleExample_nan() {
    var printed: [Double] = []
    _ = [Double]().publisher.replaceEmpty(with: Double.nan).sink { printed.append($0) }
    XCTAssertEqual(printed.count, 1)
    XCTAssertTrue(printed[0].isNaN)
  }

  func test_nonEmptyStream_passesThrough() {
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2].publisher.replaceEmpty(with: 0).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("ReplaceEmpty"), .value(1), .value(2), .completion(.finished)])
  }

  func test_failure_isNotReplaced() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.replaceEmpty(with: 0).subscribe(subscriber)
    upstream.send(completion: .failure(TestError("x")))
    XCTAssertEqual(subscriber.events, [.subscription("ReplaceEmpty"), .completion(.failure(TestError("x")))])
  }

  func test_passesDemandUpstream_andAsksForEverythingOnSubscription_max2() {
    // As Apple's: downstream's first request, then `.unlimited` once downstream has the
    // subscription, then every later request.
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2))
    upstream.replaceEmpty(with: 0).subscribe(subscriber)
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requests, [.max(2), .unlimited, .max(1)])
  }

  func test_noDemand_holdsReplacementUntilRequest() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    [Int]().publisher.replaceEmpty(with: 5).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("ReplaceEmpty")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("ReplaceEmpty"), .value(5), .completion(.finished)])
  }

  func test_cancel_beforeAndWhileHolding() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let first = TestSubscriber<Int, TestError>()
    upstream.replaceEmpty(with: 0).subscribe(first)
    first.cancel()
    XCTAssertEqual(upstream.cancelCount, 1)

    let second = TestSubscriber<Int, Never>(initialDemand: .none)
    [Int]().publisher.replaceEmpty(with: 5).subscribe(second)
    second.cancel()
    second.request(.max(1))
    XCTAssertEqual(second.events, [.subscription("ReplaceEmpty")])
  }

  func test_cancelInsideReceive_skipsFinished() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel()
      return .none
    }
    [Int]().publisher.replaceEmpty(with: 5).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("ReplaceEmpty"), .value(5)])
  }

  func test_equatable() {
    XCTAssertEqual(
      Publishers.ReplaceEmpty(upstream: Just(1), output: 2), Publishers.ReplaceEmpty(upstream: Just(1), output: 2))
    XCTAssertNotEqual(
      Publishers.ReplaceEmpty(upstream: Just(1), output: 2), Publishers.ReplaceEmpty(upstream: Just(1), output: 3))
  }
}
