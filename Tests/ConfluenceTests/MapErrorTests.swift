import Confluence
import ConfluenceTesting
import XCTest

/// Prints as Apple's documentation shows it.
private struct DivisionByZeroError: Error, CustomStringConvertible {
  var description: String { "DivisionByZeroError()" }
}

private struct MyGenericError: Error, CustomStringConvertible {
  var wrappedError: any Error
  var description: String { "MyGenericError(wrappedError: \(wrappedError))" }
}

private struct Wrapped: Error, Equatable {
  let inner: TestError
}

final class MapErrorTests: XCTestCase {
  func test_convertsFailure_upstreamFails() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, Wrapped>()
    upstream.mapError { Wrapped(inner: $0) }.subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(
      subscriber.events,
      [.subscription("ScriptedUpstream"), .value(1), .completion(.failure(Wrapped(inner: TestError("boom"))))])
  }

  func test_passesValuesAndFinish_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, Wrapped>()
    [1, 2].publisher.setFailureType(to: TestError.self).mapError { Wrapped(inner: $0) }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("[1, 2]"), .value(1), .value(2), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_passesDemandThrough_finiteDemand() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, Wrapped>(initialDemand: .none, demandPerValue: .max(3))
    upstream.mapError { Wrapped(inner: $0) }.subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [])
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requested, [.max(1)])
    XCTAssertEqual(upstream.send(1), .max(3))
  }

  func test_neverCallsTransform_noFailure() {
    var calls = 0
    let subscriber = TestSubscriber<Int, Wrapped>()
    let upstream = ScriptedUpstream<Int, TestError>()
    upstream.mapError { error -> Wrapped in
      calls += 1; return Wrapped(inner: error)
    }.subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .finished)
    XCTAssertEqual(calls, 0)
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, Wrapped>(initialDemand: .none)
    upstream.mapError { Wrapped(inner: $0) }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send(1)
    XCTAssertEqual(subscriber.events, [.subscription("ScriptedUpstream")])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, Wrapped>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    [1, 2, 3].publisher.setFailureType(to: TestError.self).mapError { Wrapped(inner: $0) }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1])
  }

  func test_unlabelledInitializer() {
    let subscriber = TestSubscriber<Int, Wrapped>()
    let upstream = ScriptedUpstream<Int, TestError>()
    Publishers.MapError(upstream: upstream, { Wrapped(inner: $0) }).subscribe(subscriber)
    upstream.send(completion: .failure(TestError("x")))
    XCTAssertEqual(subscriber.completion, .failure(Wrapped(inner: TestError("x"))))
  }

  func test_description() {
    let upstream = ScriptedUpstream<Int, TestError>()
    upstream.mapError { Wrapped(inner: $0) }.subscribe(TestSubscriber<Int, Wrapped>())
    XCTAssertEqual(upstream.subscriberDescription, "MapError")
  }

  func test_releasesClosure_onCancel() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, Wrapped>()
    do {
      let probe = tracker.make()
      upstream.mapError {
        _ = probe; return Wrapped(inner: $0)
      }.subscribe(subscriber)
    }
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_releasesClosure_onCompletion() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, Wrapped>()
    do {
      let probe = tracker.make()
      upstream.mapError {
        _ = probe; return Wrapped(inner: $0)
      }.subscribe(subscriber)
    }
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(tracker.liveCount, 0)
  }

  /// Apple's documentation example for `mapError(_:)`.
  func test_appleExample_wrapsDivisionByZero() {
    func myDivide(_ dividend: Double, _ divisor: Double) throws -> Double {
      guard divisor != 0 else { throw DivisionByZeroError() }
      return dividend / divisor
    }
    var printed = ""
    let cancellable = [5.0, 4, 3, 2, 1, 0].publisher
      .tryMap { try myDivide(1, $0) }
      .mapError { MyGenericError(wrappedError: $0) }
      .sink(
        receiveCompletion: { print("completion: \($0)", to: &printed) },
        receiveValue: { print("\($0)", terminator: " ", to: &printed) })
    XCTAssertEqual(
      printed,
      "0.2 0.25 0.3333333333333333 0.5 1.0 completion: failure(MyGenericError(wrappedError: DivisionByZeroError()))\n")
    cancellable.cancel()
  }

  /// The book's `tryMap` + `mapError` pattern: errors already of the API type pass
  /// through, others become `.unknown`.
  func test_bookExample_convertsToAPIError() {
    enum APIError: Error, Equatable {
      case unknown
      case apiError(reason: String)
    }
    let subscriber = TestSubscriber<Int, APIError>()
    [200, 404].publisher
      .tryMap { status -> Int in
        if status == 404 { throw APIError.apiError(reason: "Resource not found") }
        return status
      }
      .mapError { error -> APIError in
        if let error = error as? APIError {
          return error
        }
        return APIError.unknown
      }
      .subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events,
      [.subscription("TryMap"), .value(200), .completion(.failure(.apiError(reason: "Resource not found")))])
  }
}
