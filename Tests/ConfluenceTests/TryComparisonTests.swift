import Confluence
import ConfluenceTesting
import XCTest

final class TryComparisonTests: XCTestCase {
  struct IllegalValueError: Error {}

  func test_tryMin_appleExample_fails() {
    let subscriber = TestSubscriber<Int, any Error>()
    [0, 10, 6, 13, 22, 22].publisher
      .tryMin { first, second -> Bool in
        if first == 13 { throw IllegalValueError() }
        return first < second
      }
      .subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryComparison)", "completion(failure(IllegalValueError()))"])
  }

  func test_tryMax_appleExample_succeeds() {
    let subscriber = TestSubscriber<Int, any Error>()
    [0, 10, 6, 13, 22, 22].publisher
      .tryMax { first, second -> Bool in
        if second == 0 { throw IllegalValueError() }
        return first < second
      }
      .subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryComparison)", "value(22)", "completion(finished)"])
  }

  func test_throw_cancelsUpstream_noDemand() {
    let upstream = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryMax { _, _ in throw TestError() }.subscribe(subscriber)
    upstream.send(1)
    XCTAssertEqual(upstream.cancelCount, 0, "one element needs no comparison")
    upstream.send(2)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryComparison)", "completion(failure(oops))"])
  }

  func test_tryMin_max1_andUpstreamFailure() {
    let held = TestSubscriber<Int, any Error>(initialDemand: .max(1))
    [4, 2, 8].publisher.tryMin { $0 < $1 }.subscribe(held)
    XCTAssertEqual(held.eventDescriptions, ["subscription(TryComparison)", "value(2)", "completion(finished)"])

    let upstream = ScriptedPublisher<Int, TestError>()
    let failed = TestSubscriber<Int, any Error>()
    upstream.tryMax { $0 < $1 }.subscribe(failed)
    upstream.send(completion: .failure(TestError("up")))
    XCTAssertEqual(failed.eventDescriptions, ["subscription(TryComparison)", "completion(failure(up))"])
  }

  func test_cancelBeforeFinish() {
    let upstream = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryMax { $0 < $1 }.subscribe(subscriber)
    upstream.send(1)
    subscriber.cancel()
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryComparison)"])
  }
}
