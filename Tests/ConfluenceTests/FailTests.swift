import Confluence
import ConfluenceTesting
import XCTest

final class FailTests: XCTestCase {
  func test_failsAtOnce_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, TestError>()
    Fail<Int, TestError>(error: TestError("boom")).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.failure(TestError("boom")))])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_failsWithoutWaitingForDemand_noDemand() {
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    Fail<Int, TestError>(error: TestError("boom")).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.failure(TestError("boom")))])
    XCTAssertEqual(subscriber.demands, [])
  }

  func test_outputTypeInitializer_infersTypes() {
    let fail = Fail(outputType: String.self, failure: TestError("typed"))
    let subscriber = TestSubscriber<String, TestError>()
    fail.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.failure(TestError("typed")))])
    XCTAssertEqual(fail.error, TestError("typed"))
  }

  func test_replaysToEverySubscriber() {
    let fail = Fail<Int, TestError>(error: TestError())
    let first = TestSubscriber<Int, TestError>()
    let second = TestSubscriber<Int, TestError>()
    fail.subscribe(first)
    fail.subscribe(second)
    XCTAssertEqual(first.completion, .failure(TestError()))
    XCTAssertEqual(second.completion, .failure(TestError()))
  }

  func test_existentialError_describedInEvents() {
    let subscriber = TestSubscriber<Int, Error>()
    Fail<Int, Error>(error: TestError("any")).subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Empty)", "completion(failure(any))"])
  }

  func test_equatable_comparesErrors() {
    XCTAssertEqual(Fail<Int, TestError>(error: TestError("a")), Fail<Int, TestError>(error: TestError("a")))
    XCTAssertNotEqual(Fail<Int, TestError>(error: TestError("a")), Fail<Int, TestError>(error: TestError("b")))
  }
}
