import Confluence
import ConfluenceTesting
import XCTest

final class TryFirstWhereTests: XCTestCase {
  enum TestExampleError: Error {
    case invalidValue
  }

  private func bookPipeline(_ values: [String]) -> TestSubscriber<String, any Error> {
    // "Using Combine", reference chapter, "tryFirstWhere".
    let subscriber = TestSubscriber<String, any Error>()
    values.publisher
      .tryFirst { (incomingobject) -> Bool in
        if incomingobject == "boom" {
          throw TestExampleError.invalidValue
        }
        return incomingobject.count > 3
      }
      .subscribe(subscriber)
    return subscriber
  }

  func test_bookExample_matchBeforeBoom() {
    XCTAssertEqual(
      bookPipeline(["a", "cccc", "boom"]).eventDescriptions,
      ["subscription(TryFirstWhere)", "value(cccc)", "completion(finished)"])
  }

  func test_bookExample_boomFailsThePipeline() {
    XCTAssertEqual(
      bookPipeline(["a", "boom", "cccc"]).eventDescriptions,
      ["subscription(TryFirstWhere)", "completion(failure(invalidValue))"])
  }

  func test_appleExample() {
    let subscriber = TestSubscriber<Int, any Error>()
    (-1...50).publisher.tryFirst {
      guard $0 < 99 else { throw TestError() }
      return true
    }.subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryFirstWhere)", "value(-1)", "completion(finished)"])
  }

  func test_throw_cancelsUpstreamWithoutDemand() {
    let upstream = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryFirst { _ in throw TestError() }.subscribe(subscriber)
    upstream.send(1)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryFirstWhere)", "completion(failure(oops))"])
  }

  func test_finiteDemand_andUpstreamFailure() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(1))
    upstream.tryFirst { $0 > 0 }.subscribe(subscriber)
    upstream.send(0)
    upstream.send(completion: .failure(TestError("up")))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryFirstWhere)", "completion(failure(up))"])
  }

  func test_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, any Error>()
    subscriber.onValue = { _ in
      subscriber.cancel()
      return .none
    }
    [1].publisher.tryFirst { _ in true }.subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryFirstWhere)", "value(1)"])
  }
}
