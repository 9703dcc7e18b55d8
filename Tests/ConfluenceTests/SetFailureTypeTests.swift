import Confluence
import ConfluenceTesting
import XCTest

final class SetFailureTypeTests: XCTestCase {
  func test_passesValuesAndFinish_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, TestError>()
    [1, 2].publisher.setFailureType(to: TestError.self).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("[1, 2]"), .value(1), .value(2), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_passesDemandThrough_finiteDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none, demandPerValue: .max(2))
    upstream.setFailureType(to: TestError.self).subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [])
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requested, [.max(1)])
    XCTAssertEqual(upstream.send(1), .max(2))
    subscriber.request(.unlimited)
    XCTAssertEqual(upstream.requested, [.max(1), .unlimited])
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.setFailureType(to: TestError.self).subscribe(subscriber)
    subscriber.cancel()
    upstream.send(1)
    XCTAssertEqual(subscriber.events, [.subscription("ScriptedUpstream")])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, TestError>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    [1, 2, 3].publisher.setFailureType(to: TestError.self).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("[1, 2, 3]"), .value(1)])
  }

  func test_setFailureTypeTwice_keepsLastAndSameUpstream() {
    let twice: Publishers.SetFailureType<Just<Int>, any Error> =
      Just(1).setFailureType(to: TestError.self).setFailureType(to: (any Error).self)
    XCTAssertEqual(twice.upstream, Just(1))
    let subscriber = TestSubscriber<Int, any Error>()
    twice.subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Just)", "value(1)", "completion(finished)"])
  }

  func test_equatable() {
    typealias Typed = Publishers.SetFailureType<Just<Int>, TestError>
    XCTAssertEqual(Typed(upstream: Just(1)), Typed(upstream: Just(1)))
    XCTAssertNotEqual(Typed(upstream: Just(1)), Typed(upstream: Just(2)))
  }

  func test_description() {
    let upstream = ScriptedUpstream<Int, Never>()
    upstream.setFailureType(to: TestError.self).subscribe(TestSubscriber<Int, TestError>())
    XCTAssertEqual(upstream.subscriberDescription, "SetFailureType")
  }

  func test_releasesChain_onCancel() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.setFailureType(to: TestError.self).subscribe(subscriber)
    subscriber.cancel()
    XCTAssertFalse(upstream.hasSubscriber)
  }

  /// The book's use: make a never-failing publisher's failure type match an operator that
  /// expects one (here `mapError`, which needs a real `Failure` to convert). On `Just`,
  /// Apple's specialised overload returns a `Result.Publisher` (shown as `Once`).
  func test_bookExample_matchesErrorTypes() {
    let subscriber = TestSubscriber<String, TestError>()
    Just("value")
      .setFailureType(to: TestError.self)
      .mapError { _ in TestError("never") }
      .subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Once"), .value("value"), .completion(.finished)])
  }
}
