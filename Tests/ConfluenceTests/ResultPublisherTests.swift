import Confluence
import ConfluenceTesting
import XCTest

final class ResultPublisherTests: XCTestCase {
  func test_success_deliversValueThenFinishes() {
    let subscriber = TestSubscriber<Int, TestError>()
    Result<Int, TestError>.success(5).publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Once"), .value(5), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_failure_failsWithoutWaitingForDemand() {
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    Result<Int, TestError>.failure(TestError("bad")).publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.failure(TestError("bad")))])
    XCTAssertEqual(subscriber.demands, [])
  }

  func test_success_waitsForDemand_noneThenMaxOneThenMore() {
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    Result<Int, TestError>.success(1).publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Once")])
    let subscription = subscriber.subscription
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("Once"), .value(1), .completion(.finished)])
    subscription?.request(.unlimited)
    XCTAssertEqual(subscriber.events, [.subscription("Once"), .value(1), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.max(1)])
  }

  func test_cancelBeforeDemand_sendsNothing() {
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    Result<Int, TestError>.success(1).publisher.subscribe(subscriber)
    subscriber.cancel()
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("Once")])
  }

  func test_initializers() {
    XCTAssertEqual(Result<Int, TestError>.Publisher(.success(1)).result, .success(1))
    XCTAssertEqual(Result<Int, TestError>.Publisher(2).result, .success(2))
    XCTAssertEqual(Result<Int, TestError>.Publisher(TestError("e")).result, .failure(TestError("e")))
    XCTAssertEqual(Result<Int, TestError>.success(3).publisher.result, .success(3))
  }

  func test_replaysToEverySubscriber() {
    let publisher = Result<Int, TestError>.success(7).publisher
    let first = TestSubscriber<Int, TestError>()
    let second = TestSubscriber<Int, TestError>()
    publisher.subscribe(first)
    publisher.subscribe(second)
    XCTAssertEqual(first.values, [7])
    XCTAssertEqual(second.values, [7])
  }

  func test_equatable() {
    XCTAssertEqual(Result<Int, TestError>.Publisher(1), Result<Int, TestError>.Publisher(1))
    XCTAssertNotEqual(Result<Int, TestError>.Publisher(1), Result<Int, TestError>.Publisher(TestError()))
  }

  func test_existentialFailure_describedInEvents() {
    let subscriber = TestSubscriber<Int, Error>()
    Result<Int, Error>.failure(TestError("x")).publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Empty)", "completion(failure(x))"])
  }

  func test_sink_printsValueThenCompletion() {
    var lines: [String] = []
    let cancellable = Result<String, TestError>.success("ok").publisher
      .sink(receiveCompletion: { lines.append("\($0)") }, receiveValue: { lines.append($0) })
    XCTAssertEqual(lines, ["ok", "finished"])
    cancellable.cancel()
  }
}
