import Confluence
import ConfluenceTesting
import XCTest

final class TryAllSatisfyTests: XCTestCase {
  struct RangeError: Error {}

  func test_appleExample_throwFailsThePipeline() {
    let targetRange = (-1...100)
    let subscriber = TestSubscriber<Bool, any Error>()
    [-1, 10, 101, 5].genericPublisher
      .tryAllSatisfy {
        guard targetRange.contains($0) else { throw RangeError() }
        return true
      }
      .subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryAllSatisfy)", "completion(failure(RangeError()))"])
  }

  func test_allPass_true_max1() {
    let subscriber = TestSubscriber<Bool, any Error>(initialDemand: .max(1))
    [1, 2].genericPublisher.tryAllSatisfy { $0 > 0 }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryAllSatisfy)", "value(true)", "completion(finished)"])
  }

  func test_failingElement_false_cancelsUpstream() {
    let upstream = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Bool, any Error>(initialDemand: .none)
    upstream.tryAllSatisfy { $0 > 0 }.subscribe(subscriber)
    upstream.send(0)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryAllSatisfy)"])
    subscriber.request(.max(1))
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryAllSatisfy)", "value(false)", "completion(finished)"])
  }

  func test_throw_cancelsUpstream_andUpstreamFailure() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let thrown = TestSubscriber<Bool, any Error>()
    upstream.tryAllSatisfy { _ in throw TestError("thrown") }.subscribe(thrown)
    upstream.send(1)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(thrown.eventDescriptions, ["subscription(TryAllSatisfy)", "completion(failure(thrown))"])

    let failed = TestSubscriber<Bool, any Error>()
    upstream.tryAllSatisfy { _ in true }.subscribe(failed)
    upstream.send(completion: .failure(TestError("up")))
    XCTAssertEqual(failed.eventDescriptions, ["subscription(TryAllSatisfy)", "completion(failure(up))"])
  }

  func test_cancelBeforeFinish() {
    let upstream = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Bool, any Error>()
    upstream.tryAllSatisfy { _ in true }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryAllSatisfy)"])
  }
}
