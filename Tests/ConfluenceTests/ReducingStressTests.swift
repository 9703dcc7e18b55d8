import Confluence
import ConfluenceTesting
import Dispatch
import XCTest

/// Upstream events on one thread while downstream requests and cancels on another; run
/// under the thread sanitizer by CI. Each round must end with at most one value and at
/// most one completion, and never break the contract (the TestSubscriber checks).
final class ReducingStressTests: XCTestCase {
  private let rounds = 300

  func test_collect_requestAndCancelRaceUpstream() {
    for _ in 0..<rounds {
      let upstream = ScriptedPublisher<Int, TestError>()
      let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .none, strictCancellation: false)
      upstream.collect().subscribe(subscriber)
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          for value in 0..<20 { upstream.send(value) }
          upstream.send(completion: .finished)
        } else {
          subscriber.request(.max(1))
          subscriber.cancel()
        }
      }
      XCTAssertLessThanOrEqual(subscriber.values.count, 1)
      XCTAssertTrue(subscriber.violations.isEmpty, "\(subscriber.violations)")
    }
  }

  func test_firstWhere_earlyExitRacesCancel() {
    for _ in 0..<rounds {
      let upstream = ScriptedPublisher<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none, strictCancellation: false)
      upstream.first { $0 == 5 }.subscribe(subscriber)
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          for value in 0..<10 { upstream.send(value) }
        } else {
          subscriber.request(.max(1))
          subscriber.cancel()
        }
      }
      XCTAssertTrue(subscriber.violations.isEmpty, "\(subscriber.violations)")
    }
  }

  func test_replaceError_fallbackRacesRequestAndCancel() {
    for _ in 0..<rounds {
      let upstream = ScriptedPublisher<Int, TestError>()
      let subscriber = TestSubscriber<Int, Never>(initialDemand: .none, strictCancellation: false)
      upstream.replaceError(with: -1).subscribe(subscriber)
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          upstream.send(completion: .failure(TestError()))
        } else {
          subscriber.request(.max(1))
          subscriber.cancel()
        }
      }
      XCTAssertLessThanOrEqual(subscriber.values.count, 1)
      XCTAssertTrue(subscriber.violations.isEmpty, "\(subscriber.violations)")
    }
  }

  func test_replaceEmpty_emptyFinishRacesRequests() {
    for _ in 0..<rounds {
      let upstream = ScriptedPublisher<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
      upstream.replaceEmpty(with: -1).subscribe(subscriber)
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          upstream.send(completion: .finished)
        } else {
          subscriber.request(.max(1))
          subscriber.request(.max(1))
        }
      }
      XCTAssertEqual(subscriber.values, [-1])
      XCTAssertEqual(subscriber.completion, .finished)
      XCTAssertTrue(subscriber.violations.isEmpty, "\(subscriber.violations)")
    }
  }

  func test_catch_switchRacesRequests() {
    for _ in 0..<rounds {
      let upstream = ScriptedPublisher<Int, TestError>()
      let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), strictCancellation: false)
      upstream.catch { _ in [1, 2, 3].publisher }.subscribe(subscriber)
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          upstream.send(completion: .failure(TestError()))
        } else {
          subscriber.request(.max(1))
          subscriber.request(.max(1))
        }
      }
      XCTAssertEqual(subscriber.values, [1, 2, 3])
      XCTAssertEqual(subscriber.completion, .finished)
      XCTAssertTrue(subscriber.violations.isEmpty, "\(subscriber.violations)")
    }
  }

  func test_retry_resubscribeRacesRequests() {
    for _ in 0..<rounds {
      let upstream = ScriptedPublisher<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), strictCancellation: false)
      upstream.retry(1).subscribe(subscriber)
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          upstream.send(completion: .failure(TestError()))
        } else {
          subscriber.request(.max(2))
        }
      }
      XCTAssertEqual(upstream.subscriptionCount, 2)
      let total = upstream.requests.reduce(0) { $0 + ($1.max ?? 0) }
      XCTAssertGreaterThanOrEqual(total, 3, "\(upstream.requests)")
      XCTAssertTrue(subscriber.violations.isEmpty, "\(subscriber.violations)")
    }
  }
}
