import Confluence
import ConfluenceTesting
import XCTest

final class EmptyTests: XCTestCase {
  func test_finishesAtOnce_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, Never>()
    Empty<Int, Never>().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_finishesWithoutWaitingForDemand_noDemand() {
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    Empty<Int, TestError>().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [])
  }

  func test_neverCompletes_completeImmediatelyFalse() {
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    let never = Empty<Int, TestError>(completeImmediately: false)
    never.subscribe(subscriber)
    subscriber.request(.max(1))
    subscriber.request(.unlimited)
    XCTAssertEqual(subscriber.events, [.subscription("Empty")])
    subscriber.cancel()
    XCTAssertEqual(subscriber.events, [.subscription("Empty")])
  }

  func test_typedInitializer_infersTypes() {
    let empty = Empty(outputType: String.self, failureType: TestError.self)
    let subscriber = TestSubscriber<String, TestError>()
    empty.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.finished)])
    XCTAssertTrue(empty.completeImmediately)
    XCTAssertFalse(
      Empty(completeImmediately: false, outputType: String.self, failureType: TestError.self).completeImmediately)
  }

  func test_defaultsToCompleteImmediately() {
    XCTAssertTrue(Empty<Int, Never>().completeImmediately)
  }

  func test_replaysToEverySubscriber() {
    let empty = Empty<Int, Never>()
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    empty.subscribe(first)
    empty.subscribe(second)
    XCTAssertEqual(first.events, [.subscription("Empty"), .completion(.finished)])
    XCTAssertEqual(second.events, [.subscription("Empty"), .completion(.finished)])
  }

  func test_equatable_comparesCompleteImmediately() {
    XCTAssertEqual(Empty<Int, Never>(), Empty<Int, Never>())
    XCTAssertEqual(Empty<Int, Never>(completeImmediately: false), Empty<Int, Never>(completeImmediately: false))
    XCTAssertNotEqual(Empty<Int, Never>(), Empty<Int, Never>(completeImmediately: false))
  }

  func test_sinkGetsOnlyCompletion() {
    var completions: [String] = []
    var values: [Int] = []
    let cancellable = Empty<Int, Never>()
      .sink(receiveCompletion: { completions.append("\($0)") }, receiveValue: { values.append($0) })
    XCTAssertEqual(values, [])
    XCTAssertEqual(completions, ["finished"])
    cancellable.cancel()
  }
}
