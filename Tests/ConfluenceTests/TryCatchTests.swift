import Confluence
import ConfluenceTesting
import XCTest

final class TryCatchTests: XCTestCase {
  func test_replacesFailureWithPublisher() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryCatch { _ in Just(0) }.subscribe(subscriber)
    upstream.send(5)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryCatch)", "value(5)", "value(0)", "completion(finished)"])
  }

  func test_throwingHandler_failsWithThrownError() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryCatch { error -> Just<Int> in throw TestError("rethrown \(error)") }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError("constrained")))
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryCatch)", "completion(failure(rethrown constrained))"])
  }

  func test_alternateURLPattern_switchesOnlyForTheExpectedError() {
    // "Using Combine", "Requesting data from an alternate URL when the network is constrained".
    func adaptiveLoader(primaryFails: TestError?) -> TestSubscriber<String, any Error> {
      let primary = ScriptedPublisher<String, TestError>()
      primary.onSubscribe = { publisher, _ in
        if let primaryFails {
          publisher.send(completion: .failure(primaryFails))
        } else {
          publisher.send("primary")
          publisher.send(completion: .finished)
        }
      }
      let subscriber = TestSubscriber<String, any Error>()
      primary.tryCatch { error -> Just<String> in
        guard error == TestError("constrained") else { throw error }
        return Just("fallback")
      }.subscribe(subscriber)
      return subscriber
    }
    XCTAssertEqual(adaptiveLoader(primaryFails: nil).values, ["primary"])
    XCTAssertEqual(adaptiveLoader(primaryFails: TestError("constrained")).values, ["fallback"])
    XCTAssertEqual(
      adaptiveLoader(primaryFails: TestError("404")).eventDescriptions,
      ["subscription(TryCatch)", "completion(failure(404))"])
  }

  func test_replacementFailure_becomesAnyError() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let replacement = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryCatch { _ in replacement }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError("a")))
    replacement.send(completion: .failure(TestError("b")))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryCatch)", "completion(failure(b))"])
  }

  func test_carriesDemand_max2() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let replacement = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(2))
    upstream.tryCatch { _ in replacement }.subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(replacement.requests, [.max(1)])
  }

  func test_cancelBeforeFailure_cancelsUpstream() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryCatch { _ in Just(0) }.subscribe(subscriber)
    subscriber.cancel()
    XCTAssertEqual(upstream.cancelCount, 1)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryCatch)"])
  }

  func test_throwReleasesHandler() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryCatch { [probe = tracker.make()] error -> Just<Int> in
      _ = probe
      throw error
    }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(tracker.liveCount, 0)
  }
}
