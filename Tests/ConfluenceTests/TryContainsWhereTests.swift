import Confluence
import ConfluenceTesting
import XCTest

final class TryContainsWhereTests: XCTestCase {
  struct IllegalValueError: Error {}

  func test_appleExample_matchBeforeIllegalValue() {
    let subscriber = TestSubscriber<Bool, any Error>()
    [3, 2, 10, 5, 0, 9].genericPublisher
      .tryContains(where: {
        if $0 == 0 { throw IllegalValueError() }
        return $0 > 7
      })
      .subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryContainsWhere)", "value(true)", "completion(finished)"])
  }

  func test_throw_cancelsUpstreamAndFails() {
    let upstream = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<Bool, any Error>(initialDemand: .none)
    upstream.tryContains {
      if $0 == 0 { throw TestError("zero") }
      return false
    }.subscribe(subscriber)
    upstream.send(1)
    upstream.send(0)
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryContainsWhere)", "completion(failure(zero))"])
  }

  func test_noMatch_false_max1() {
    let subscriber = TestSubscriber<Bool, any Error>(initialDemand: .max(1))
    [1].genericPublisher.tryContains { $0 > 1 }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryContainsWhere)", "value(false)", "completion(finished)"])
  }

  func test_upstreamFailure_andCancel() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let failed = TestSubscriber<Bool, any Error>()
    upstream.tryContains { _ in false }.subscribe(failed)
    upstream.send(completion: .failure(TestError("up")))
    XCTAssertEqual(failed.eventDescriptions, ["subscription(TryContainsWhere)", "completion(failure(up))"])

    let cancelled = TestSubscriber<Bool, any Error>()
    upstream.tryContains { _ in true }.subscribe(cancelled)
    cancelled.cancel()
    upstream.send(1)
    XCTAssertEqual(cancelled.eventDescriptions, ["subscription(TryContainsWhere)"])
  }
}
