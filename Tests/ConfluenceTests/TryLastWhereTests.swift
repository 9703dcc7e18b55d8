import Confluence
import ConfluenceTesting
import XCTest

final class TryLastWhereTests: XCTestCase {
  enum TestExampleError: Error {
    case invalidValue
  }

  private func bookPipeline(_ values: [String]) -> TestSubscriber<String, any Error> {
    // "Using Combine", reference chapter, "tryLastWhere".
    let subscriber = TestSubscriber<String, any Error>()
    values.publisher
      .tryLast { (incomingobject) -> Bool in
        if incomingobject == "boom" {
          throw TestExampleError.invalidValue
        }
        return incomingobject.count > 3
      }
      .subscribe(subscriber)
    return subscriber
  }

  func test_bookExample_lastLongerThanThree() {
    XCTAssertEqual(
      bookPipeline(["a", "cccc", "ddddd", "bb"]).eventDescriptions,
      ["subscription(TryLastWhere)", "value(ddddd)", "completion(finished)"])
  }

  func test_bookExample_boomTerminatesThePipeline() {
    XCTAssertEqual(
      bookPipeline(["cccc", "boom", "ddddd"]).eventDescriptions,
      ["subscription(TryLastWhere)", "completion(failure(invalidValue))"])
  }

  func test_throw_cancelsUpstream() {
    let upstream = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(1))
    upstream.tryLast { _ in throw TestError() }.subscribe(subscriber)
    upstream.send(1)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryLastWhere)", "completion(failure(oops))"])
  }

  func test_noDemand_holdsValue_andUpstreamFailure() {
    let held = TestSubscriber<Int, any Error>(initialDemand: .none)
    [1, 2].publisher.tryLast { $0 > 0 }.subscribe(held)
    XCTAssertEqual(held.eventDescriptions, ["subscription(TryLastWhere)"])
    held.request(.max(1))
    XCTAssertEqual(held.eventDescriptions, ["subscription(TryLastWhere)", "value(2)", "completion(finished)"])

    let upstream = ScriptedPublisher<Int, TestError>()
    let failed = TestSubscriber<Int, any Error>()
    upstream.tryLast { _ in true }.subscribe(failed)
    upstream.send(completion: .failure(TestError("up")))
    XCTAssertEqual(failed.eventDescriptions, ["subscription(TryLastWhere)", "completion(failure(up))"])
  }

  func test_cancelBeforeFinish() {
    let upstream = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryLast { _ in true }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send(completion: .finished)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryLastWhere)"])
  }
}
