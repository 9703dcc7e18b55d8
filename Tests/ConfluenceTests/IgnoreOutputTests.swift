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
    // "Using Combine", reference chapter, "ignoreOutput".
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

  // MARK: Apple's rules for ignoreOutput (it differs from the other reducers)

  func test_downstreamReceivesUpstreamsSubscription_andIsAskedForUnlimitedEachTime() {
    let upstream = DetachedUpstream<Int, TestError>()
    var received: [String] = []
    upstream.ignoreOutput().subscribe(
      AnySubscriber<Never, TestError>(
        receiveSubscription: { received.append("\($0)") }, receiveValue: { (_: Never) -> Subscribers.Demand in },
        receiveCompletion: { _ in }))
    let first = upstream.attach()
    XCTAssertEqual(received, ["Recording"], "downstream holds upstream's own subscription")
    XCTAssertEqual(first.events, [.requested(.unlimited)])
    let second = upstream.attach()
    XCTAssertEqual(received, ["Recording", "Recording"], "a second subscription goes downstream too")
    XCTAssertEqual(second.events, [.requested(.unlimited)], "and is asked, not cancelled")
  }

  func test_completionBeforeSubscription_andEveryCompletion_passThrough() {
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Never, TestError>()
    subscriber.onViolation = { _ in }  // the events below break the contract on purpose
    upstream.ignoreOutput().subscribe(subscriber)
    upstream.send(completion: .finished)
    upstream.attach()
    XCTAssertEqual(upstream.send(1), .none)
    upstream.send(completion: .failure(TestError("x")))
    XCTAssertEqual(
      subscriber.eventDescriptions, ["completion(finished)", "subscription(Recording)", "completion(failure(x))"])
  }

  func test_reflection_namesTheOperator_withAnEmptyMirror_andIsNoSubscription() {
    let upstream = DetachedUpstream<Int, TestError>()
    upstream.ignoreOutput().subscribe(TestSubscriber<Never, TestError>())
    let inner = upstream.operatorSubscriber
    XCTAssertEqual((inner as? CustomStringConvertible)?.description, "IgnoreOutput")
    XCTAssertEqual((inner as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, "IgnoreOutput")
    XCTAssertEqual((inner as? CustomReflectable)?.customMirror.children.count, 0)
    XCTAssertFalse(inner is CustomDebugStringConvertible)
    XCTAssertFalse(inner is Subscription)
  }

  func test_equatable() {
    XCTAssertEqual(Publishers.IgnoreOutput(upstream: Just(1)), Publishers.IgnoreOutput(upstream: Just(1)))
  }
}
