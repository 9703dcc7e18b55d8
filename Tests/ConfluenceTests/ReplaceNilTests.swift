import Confluence
import ConfluenceTesting
import XCTest

final class ReplaceNilTests: XCTestCase {
  func test_replacesNil_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, Never>()
    let publisher: Publishers.Map<Publishers.Sequence<[Int?], Never>, Int> = [1, nil, 3].publisher.replaceNil(with: 0)
    publisher.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events,
      [.subscription("[Optional(1), nil, Optional(3)]"), .value(1), .value(0), .value(3), .completion(.finished)])
  }

  func test_passesDemandThrough_finiteDemand() {
    let upstream = ScriptedUpstream<String?, Never>()
    let subscriber = TestSubscriber<String, Never>(initialDemand: .none, demandPerValue: .max(1))
    upstream.replaceNil(with: "-").subscribe(subscriber)
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requested, [.max(1)])
    XCTAssertEqual(upstream.send(nil), .max(1))
    XCTAssertEqual(subscriber.values, ["-"])
  }

  func test_forwardsFailure_upstreamFails() {
    let upstream = ScriptedUpstream<Int?, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.replaceNil(with: 0).subscribe(subscriber)
    upstream.send(nil)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(
      subscriber.events, [.subscription("ScriptedUpstream"), .value(0), .completion(.failure(TestError("boom")))])
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Int?, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.replaceNil(with: 0).subscribe(subscriber)
    subscriber.cancel()
    upstream.send(nil)
    XCTAssertEqual(subscriber.events, [.subscription("ScriptedUpstream")])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    [nil, 2].publisher.replaceNil(with: 0).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [0])
  }

  func test_description_isMap() {
    let upstream = ScriptedUpstream<Int?, Never>()
    upstream.replaceNil(with: 0).subscribe(TestSubscriber<Int, Never>())
    XCTAssertEqual(upstream.subscriberDescription, "Map")
  }

  /// Apple's documentation example for `replaceNil(with:)`. The replacement is a plain
  /// `Double`, so the elements are `Double`s and print without `Optional(…)`.
  func test_appleExample_replacesWithZero() {
    let numbers: [Double?] = [1.0, 2.0, nil, 3.0]
    var printed = ""
    let cancellable = numbers.publisher
      .replaceNil(with: 0.0)
      .sink { print("\($0)", terminator: " ", to: &printed) }
    XCTAssertEqual(printed, "1.0 2.0 0.0 3.0 ")
    cancellable.cancel()
  }

  /// The book's `replaceNil(with: "-replacement-")`.
  func test_bookExample_replacementString() {
    let subscriber = TestSubscriber<String, Never>()
    ["one", nil, "three"].publisher.replaceNil(with: "-replacement-").subscribe(subscriber)
    XCTAssertEqual(subscriber.values, ["one", "-replacement-", "three"])
  }
}
