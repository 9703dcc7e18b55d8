import Confluence
import ConfluenceTesting
import XCTest

final class IgnoreOutputTests: XCTestCase {
  func test_dropsValuesAndPassesFinish() {
    let upstream = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Never, Never>()
    upstream.ignoreOutput().subscribe(subscriber)
    XCTAssertEqual(upstream.send(1), .none)
    XCTAssertEqual(upstream.send(2), .none)
    upstream.send(completion: .finished)
    // As Apple's, downstream gets the upstream's own subscription.
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Scripted)", "completion(finished)"])
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

  func test_asksUpstreamForEverything_onSubscription() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Never, TestError>(initialDemand: .none)
    upstream.ignoreOutput().subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [.unlimited])
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requests, [.unlimited, .max(1)], "downstream's requests go straight to upstream")
    XCTAssertEqual(upstream.send(1), .none)
    upstream.send(completion: .failure(TestError("x")))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Scripted)", "completion(failure(x))"])
  }

  func test_downstreamRequestsFirst_thenUnlimited() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Never, TestError>(initialDemand: .max(3))
    upstream.ignoreOutput().subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [.max(3), .unlimited])
  }

  func test_completionNeedsNoDemand() {
    let subscriber = TestSubscriber<Never, Never>(initialDemand: .none)
    [Int]().publisher.ignoreOutput().subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Empty)", "completion(finished)"])
  }

  func test_finiteDemand_max1_finishes() {
    let subscriber = TestSubscriber<Never, Never>(initialDemand: .max(1))
    [1, 2].publisher.ignoreOutput().subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription([1, 2])", "completion(finished)"])
  }

  func test_cancel_cancelsUpstream() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Never, TestError>()
    upstream.ignoreOutput().subscribe(subscriber)
    subscriber.cancel()
    upstream.send(completion: .finished)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Scripted)"])
  }

  func test_equatable() {
    XCTAssertEqual(Publishers.IgnoreOutput(upstream: Just(1)), Publishers.IgnoreOutput(upstream: Just(1)))
  }
}
