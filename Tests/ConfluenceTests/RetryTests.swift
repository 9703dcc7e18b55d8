import Confluence
import ConfluenceTesting
import XCTest

final class RetryTests: XCTestCase {
  enum TestFailureCondition: Error {
    case invalidServerResponse
  }

  /// An upstream that fails synchronously on every subscription, like `Fail`.
  private func alwaysFailing<Output>(_ error: TestError = TestError()) -> ScriptedPublisher<Output, TestError> {
    let publisher = ScriptedPublisher<Output, TestError>()
    publisher.onSubscribe = { publisher, _ in publisher.send(completion: .failure(error)) }
    return publisher
  }

  func test_passesValuesAndFinish() {
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2, 3].publisher.retry(2).subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription("Retry"), .value(1), .value(2), .value(3), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_bookExample_oneShotFailPublisher_failsAfterFourAttempts() {
    // "Using Combine", "Debugging pipelines with the print operator": testRetryWithOneShotFailPublisher.
    let upstream = ScriptedPublisher<String, any Error>()
    upstream.onSubscribe = { publisher, _ in
      publisher.send(completion: .failure(TestFailureCondition.invalidServerResponse))
    }
    var completions: [String] = []
    var values = 0
    let cancellable =
      upstream
      .retry(3)
      .sink(
        receiveCompletion: { fini in
          completions.append(".sink() received the completion: \(String(describing: fini))")
        },
        receiveValue: { _ in
          values += 1
        })
    XCTAssertEqual(upstream.subscriptionCount, 4, "the original attempt and 3 retries")
    XCTAssertEqual(values, 0)
    // The book prints "failure(UsingCombineTests.RetryPublisherTests.TestFailureCondition.invalidServerResponse)".
    XCTAssertEqual(
      completions,
      [
        ".sink() received the completion: failure(ConfluenceTests.RetryTests.TestFailureCondition.invalidServerResponse)"
      ])
    _ = cancellable
  }

  func test_retriesThenSucceeds_deliversValuesOnce() {
    let upstream = ScriptedPublisher<Int, TestError>()
    upstream.onSubscribe = { publisher, attempt in
      if attempt < 2 {
        publisher.send(completion: .failure(TestError("attempt \(attempt)")))
      } else {
        publisher.send(42)
        publisher.send(completion: .finished)
      }
    }
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.retry(3).subscribe(subscriber)
    XCTAssertEqual(upstream.subscriptionCount, 3)
    XCTAssertEqual(subscriber.events, [.subscription("Retry"), .value(42), .completion(.finished)])
  }

  func test_exhaustedRetries_forwardLastFailure() {
    let upstream = ScriptedPublisher<Int, TestError>()
    upstream.onSubscribe = { publisher, attempt in publisher.send(completion: .failure(TestError("attempt \(attempt)")))
    }
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.retry(2).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Retry"), .completion(.failure(TestError("attempt 2")))])
  }

  func test_retryZero_failsAtOnce() {
    let upstream: ScriptedPublisher<Int, TestError> = alwaysFailing()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.retry(0).subscribe(subscriber)
    XCTAssertEqual(upstream.subscriptionCount, 1)
    XCTAssertEqual(subscriber.completion, .failure(TestError()))
  }

  func test_unlimitedRetries_synchronousFailuresKeepTheStackFlat() {
    let upstream = ScriptedPublisher<Int, TestError>()
    upstream.onSubscribe = { publisher, attempt in
      if attempt < 20_000 {
        publisher.send(completion: .failure(TestError()))
      } else {
        publisher.send(completion: .finished)
      }
    }
    let subscriber = TestSubscriber<Int, TestError>()
    Publishers.Retry(upstream: upstream, retries: nil).subscribe(subscriber)
    XCTAssertEqual(upstream.subscriptionCount, 20_001)
    XCTAssertEqual(subscriber.events, [.subscription("Retry"), .completion(.finished)])
  }

  func test_asynchronousFailure_resubscribesWithOutstandingDemand_max3() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3))
    upstream.retry(1).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(upstream.subscriptionCount, 2)
    XCTAssertEqual(upstream.requests, [.max(3), .max(2)])
    upstream.send(2)
    upstream.send(3)
    upstream.send(completion: .finished)
    XCTAssertEqual(
      subscriber.events, [.subscription("Retry"), .value(1), .value(2), .value(3), .completion(.finished)])
  }

  func test_demandReturnedFromReceive_isCarried() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(1))
    upstream.retry(1).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError()))
    // As Apple's: the demand returned for value 1 is requested at once, then carried.
    XCTAssertEqual(upstream.requests, [.max(1), .max(1), .max(1)])
  }

  func test_noDemand_newAttemptWaitsForRequest() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.retry(1).subscribe(subscriber)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(upstream.subscriptionCount, 2)
    XCTAssertEqual(upstream.requests, [])
    subscriber.request(.max(2))
    XCTAssertEqual(upstream.requests, [.max(2)])
  }

  func test_unlimitedDemand_isCarriedAsUnlimited() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.retry(1).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(upstream.requests, [.unlimited, .unlimited])
  }

  func test_cancel_cancelsCurrentAttemptAndStopsRetrying() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.retry(5).subscribe(subscriber)
    upstream.send(completion: .failure(TestError()))
    subscriber.cancel()
    XCTAssertEqual(upstream.cancelCount, 1)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(upstream.subscriptionCount, 2)
    XCTAssertEqual(subscriber.events, [.subscription("Retry")])
  }

  func test_cancelInsideReceive_stopsValues() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel()
      return .none
    }
    [1, 2, 3].publisher.retry(1).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Retry"), .value(1)])
  }

  func test_completionAndCancel_releaseTheChain() {
    let upstream: ScriptedPublisher<Int, TestError> = alwaysFailing()
    var subscriber: TestSubscriber<Int, TestError>? = TestSubscriber()
    upstream.retry(2).subscribe(subscriber!)
    weak let subscription = subscriber?.subscription as AnyObject?
    subscriber = nil
    XCTAssertNil(subscription)

    let live = ScriptedPublisher<Int, TestError>()
    let cancelled = TestSubscriber<Int, TestError>()
    live.retry(2).subscribe(cancelled)
    weak let second = cancelled.subscription as AnyObject?
    cancelled.cancel()
    XCTAssertNil(second)
  }

  func test_properties_andEquatable() {
    XCTAssertEqual([1].publisher.retry(3).retries, 3)
    XCTAssertNil(Publishers.Retry(upstream: Just(1), retries: nil).retries)
    XCTAssertEqual(Publishers.Retry(upstream: Just(1), retries: 3), Publishers.Retry(upstream: Just(1), retries: 3))
    XCTAssertNotEqual(Publishers.Retry(upstream: Just(1), retries: 3), Publishers.Retry(upstream: Just(1), retries: 2))
  }
}

extension RetryTests {
  /// Collects `print` output lines.
  final class Lines: TextOutputStream, @unchecked Sendable {
    // @unchecked Sendable: written by one thread in these synchronous tests.
    var text = ""
    func write(_ string: String) { text += string }
    var lines: [String] { text.split(separator: "\n").map(String.init) }
  }

  func test_bookExample_printAroundRetry() {
    // "Using Combine", "Debugging pipelines with the print operator": print on either side of retry.
    let lines = Lines()
    let upstream = Fail<String, TestFailureCondition>(error: .invalidServerResponse)
    let cancellable =
      upstream
      .print("(1)>", to: lines)
      .retry(3)
      .print("(2)>", to: lines)
      .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
    let above = lines.lines.filter { $0.hasPrefix("(1)>") }
    let below = lines.lines.filter { $0.hasPrefix("(2)>") }
    XCTAssertEqual(above.filter { $0 == "(1)>: receive subscription: (Empty)" }.count, 4, lines.text)
    XCTAssertEqual(above.filter { $0 == "(1)>: receive error: (invalidServerResponse)" }.count, 4, lines.text)
    XCTAssertEqual(
      below,
      [
        "(2)>: receive subscription: (Retry)", "(2)>: request unlimited",
        "(2)>: receive error: (invalidServerResponse)",
      ])
    _ = cancellable
  }
}
