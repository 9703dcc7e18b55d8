import Confluence
import ConfluenceTesting
import XCTest

final class IgnoreOutputTests: XCTestCase {
  func test_dropsValuesAndPassesFinish() {
    let subscriber = TestSubscriber<Never, Never>()
    [1, 2, 3].publisher.ignoreOutput().subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(IgnoreOutput)", "completion(finished)"])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_bookExample_onlyCompletionReachesTheSink() {
    // seeds/002, reference chapter, "ignoreOutput".
    var finishReceived = false
    var failureReceived = false
    let upstream = ScriptedPublisher<String, TestError>()
    let cancellable =
      upstream
      .ignoreOutput()
      .sink(
        receiveCompletion: { completion in
          switch completion {
          case .finished:
            finishReceived = true
          case .failure:
            failureReceived = true
          }
        }, receiveValue: { _ in })  // Output is Never: the book's receiveValue can never run
    upstream.send("one")
    upstream.send("two")
    upstream.send(completion: .finished)
    XCTAssertTrue(finishReceived)
    XCTAssertFalse(failureReceived)
    _ = cancellable
  }

  func test_firstRequestAsksUpstreamForEverything() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Never, TestError>(initialDemand: .none)
    upstream.ignoreOutput().subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [])
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requests, [.unlimited])
    XCTAssertEqual(upstream.send(1), .none)
    upstream.send(completion: .failure(TestError("x")))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(IgnoreOutput)", "completion(failure(x))"])
  }

  func test_completionNeedsNoDemand() {
    let subscriber = TestSubscriber<Never, Never>(initialDemand: .none)
    [Int]().publisher.ignoreOutput().subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(IgnoreOutput)", "completion(finished)"])
  }

  func test_finiteDemand_max1_finishes() {
    let subscriber = TestSubscriber<Never, Never>(initialDemand: .max(1))
    [1, 2].publisher.ignoreOutput().subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(IgnoreOutput)", "completion(finished)"])
  }

  func test_cancel_cancelsUpstream() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Never, TestError>()
    upstream.ignoreOutput().subscribe(subscriber)
    subscriber.cancel()
    upstream.send(completion: .finished)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(IgnoreOutput)"])
  }

  func test_equatable() {
    XCTAssertEqual(Publishers.IgnoreOutput(upstream: Just(1)), Publishers.IgnoreOutput(upstream: Just(1)))
  }
}
