import Confluence
import ConfluenceTesting
import XCTest

final class CatchTests: XCTestCase {
  enum TestFailureCondition: Error {
    case invalidServerResponse
  }

  func test_bookExample_replacesFailureWithJust() {
    // "Using Combine", reference chapter, "catch".
    let simplePublisher = ScriptedPublisher<String, any Error>()
    var printed: [String] = []
    let cancellable =
      simplePublisher
      .catch { err in
        // must return a Publisher
        return Just("replacement value")
      }
      .sink(
        receiveCompletion: { fini in
          printed.append(".sink() received the completion: \(String(describing: fini))")
        },
        receiveValue: { stringValue in
          printed.append(".sink() received \(stringValue)")
        })
    simplePublisher.send("oneValue")
    simplePublisher.send("twoValue")
    simplePublisher.send(completion: Subscribers.Completion.failure(TestFailureCondition.invalidServerResponse))
    simplePublisher.send("redValue")
    simplePublisher.send("blueValue")
    simplePublisher.send(completion: .finished)
    XCTAssertEqual(
      printed,
      [
        ".sink() received oneValue",
        ".sink() received twoValue",
        ".sink() received replacement value",
        ".sink() received the completion: finished",
      ])
    _ = cancellable
  }

  func test_oneShotPattern_placeholderOnFailure() {
    // "Using Combine", "Using catch to handle errors in a one-shot pipeline".
    struct IPInfo: Equatable { var ip: String }
    let remote = ScriptedPublisher<IPInfo, any Error>()
    remote.onSubscribe = { publisher, _ in publisher.send(completion: .failure(TestError("offline"))) }
    let subscriber = TestSubscriber<IPInfo, Never>()
    remote.catch { _ in Just(IPInfo(ip: "8.8.8.8")) }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Catch"), .value(IPInfo(ip: "8.8.8.8")), .completion(.finished)])
  }

  func test_passesValuesAndFinish_handlerUnused() {
    var handlerCalls = 0
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2].publisher.setFailureTypeForTest(TestError.self)
      .catch { _ -> Just<Int> in
        handlerCalls += 1
        return Just(0)
      }
      .subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Catch"), .value(1), .value(2), .completion(.finished)])
    XCTAssertEqual(handlerCalls, 0)
  }

  func test_carriesOutstandingDemandToReplacement_max3() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
    upstream.catch { _ in [10, 20, 30].publisher }.subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [.max(3)])
    upstream.send(1)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(subscriber.values, [1, 10, 20])
    subscriber.request(.max(1))
    XCTAssertEqual(
      subscriber.events,
      [.subscription("Catch"), .value(1), .value(10), .value(20), .value(30), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.max(3), .max(1)])
  }

  func test_countsDemandReturnedFromReceive() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let replacement = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
    upstream.catch { _ in replacement }.subscribe(subscriber)
    XCTAssertEqual(upstream.send(1), .max(2))
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(replacement.requests, [.max(2)])
  }

  func test_noDemand_replacementGetsNothingUntilRequested() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let replacement = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.catch { _ in replacement }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(replacement.subscriptionCount, 1)
    XCTAssertEqual(replacement.requests, [])
    subscriber.request(.max(2))
    XCTAssertEqual(replacement.requests, [.max(2)])
    XCTAssertEqual(upstream.requests, [])
  }

  func test_unlimitedDemand_staysUnlimited() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let replacement = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.catch { _ in replacement }.subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(replacement.requests, [.unlimited])
  }

  func test_replacementFailure_isForwarded() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    let replacement = ScriptedPublisher<Int, TestError>()
    upstream.catch { _ in replacement }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError("first")))
    replacement.send(completion: .failure(TestError("second")))
    XCTAssertEqual(subscriber.events, [.subscription("Catch"), .completion(.failure(TestError("second")))])
  }

  func test_handlerReceivesTheError() {
    let upstream = ScriptedPublisher<Int, TestError>()
    var seen: [TestError] = []
    let subscriber = TestSubscriber<Int, Never>()
    upstream.catch { error -> Just<Int> in
      seen.append(error)
      return Just(0)
    }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError("why")))
    XCTAssertEqual(seen, [TestError("why")])
  }

  func test_cancelBeforeFailure_cancelsUpstreamAndNeverCallsHandler() {
    let upstream = ScriptedPublisher<Int, TestError>()
    var handlerCalls = 0
    let subscriber = TestSubscriber<Int, Never>()
    upstream.catch { _ -> Just<Int> in
      handlerCalls += 1
      return Just(0)
    }.subscribe(subscriber)
    subscriber.cancel()
    XCTAssertEqual(upstream.cancelCount, 1)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(handlerCalls, 0)
    XCTAssertEqual(subscriber.events, [.subscription("Catch")])
  }

  func test_cancelAfterSwitch_cancelsReplacement() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let replacement = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.catch { _ in replacement }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError()))
    replacement.send(5)
    subscriber.cancel()
    XCTAssertEqual(replacement.cancelCount, 1)
    XCTAssertEqual(upstream.cancelCount, 0)
    XCTAssertEqual(subscriber.events, [.subscription("Catch"), .value(5)])
  }

  func test_cancelInsideReceive_fromReplacement() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel()
      return .none
    }
    upstream.catch { _ in [1, 2, 3].publisher }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(subscriber.events, [.subscription("Catch"), .value(1)])
  }

  func test_completionAndCancel_releaseHandlerAndReplacement() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedPublisher<Int, TestError>()
    let finished = TestSubscriber<Int, Never>()
    upstream.catch { [probe = tracker.make()] _ in Just(probe.id) }.subscribe(finished)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(finished.values.count, 1)
    XCTAssertEqual(tracker.liveCount, 0)

    let replacement = ScriptedPublisher<Int, Never>()
    let cancelled = TestSubscriber<Int, Never>()
    upstream.catch { [probe = tracker.make()] _ in
      _ = probe
      return replacement
    }.subscribe(cancelled)
    upstream.send(completion: .failure(TestError()))
    cancelled.cancel()
    XCTAssertFalse(replacement.holdsSubscriber)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_description_isCatch() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.catch { _ in Just(1) }.subscribe(subscriber)
    XCTAssertEqual(subscriber.subscriptionDescription, "Catch")
    XCTAssertEqual(
      (subscriber.subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, "Catch")
  }
}

extension Publishers.Sequence where Failure == Never {
  /// `setFailureType(to:)` belongs to another branch; the tests need only this.
  func setFailureTypeForTest<E: Error>(_: E.Type) -> Publishers.Sequence<Elements, E> {
    Publishers.Sequence(sequence: sequence)
  }
}
