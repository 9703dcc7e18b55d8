import Confluence
import ConfluenceTesting
import XCTest

final class CompactMapTests: XCTestCase {
  func test_republishesNonNilResults_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, Never>()
    ["1", "x", "3"].genericPublisher.compactMap { Int($0) }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription(#"["1", "x", "3"]"#), .value(1), .value(3), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_requestsOneMoreForEachNil_finiteDemand() {
    let upstream = ScriptedUpstream<String, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.compactMap { Int($0) }.subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [])
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requested, [.max(1)])
    XCTAssertEqual(upstream.send("a"), .max(1))
    XCTAssertEqual(upstream.send("2"), .none)
    subscriber.request(.max(3))
    XCTAssertEqual(upstream.requested, [.max(1), .max(3)])
    XCTAssertEqual(subscriber.values, [2])
  }

  func test_forwardsFailure_upstreamFails() {
    let upstream = ScriptedUpstream<String, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.compactMap { Int($0) }.subscribe(subscriber)
    upstream.send("4")
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(
      subscriber.events, [.subscription("ScriptedUpstream"), .value(4), .completion(.failure(TestError("boom")))])
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<String, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.compactMap { Int($0) }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send("1")
    XCTAssertEqual(subscriber.events, [.subscription("ScriptedUpstream")])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    ["x", "1", "2"].genericPublisher.compactMap { Int($0) }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription(#"["x", "1", "2"]"#), .value(1)])
  }

  func test_description_theRelayIsCompactMap_theSubscriptionIsUpstreams() {
    let upstream = DetachedUpstream<String, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.compactMap { Int($0) }.subscribe(subscriber)
    XCTAssertEqual(String(describing: upstream.operatorSubscriber), "CompactMap")
    XCTAssertTrue(Mirror(reflecting: upstream.operatorSubscriber).children.isEmpty)
    upstream.attach()
    XCTAssertEqual(subscriber.subscriptionDescription, "Recording")
  }

  func test_fusion_compactMapAndMap() {
    let fused: Publishers.CompactMap<Publishers.Sequence<[String], Never>, String> =
      ["1", "x", "12", "3"].publisher.compactMap { Int($0) }.compactMap { $0 < 10 ? $0 : nil }.map { "#\($0)" }
    let subscriber = TestSubscriber<String, Never>()
    fused.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription(#"["1", "x", "12", "3"]"#), .value("#1"), .value("#3"), .completion(.finished)])
  }

  /// Built by generic code the compiler does not specialise: the relay and the fused
  /// closures then run as code generic over the optional type (`OptionalValue`), and must
  /// publish, drop and ask for more as the specialised ones do.
  @_semantics("optimize.sil.specialize.generic.never")
  private func fusedInGenericCode<P: Publisher>(_ upstream: P) -> Publishers.CompactMap<P, String>
  where P.Output == String {
    upstream.compactMap { Int($0) }.compactMap { $0 < 10 ? $0 : nil }.map { "#\($0)" }
  }

  func test_fusion_builtByUnspecialisedGenericCode_sameValuesAndDemand() {
    let upstream = ScriptedUpstream<String, Never>()
    let subscriber = TestSubscriber<String, Never>(initialDemand: .max(2))
    fusedInGenericCode(upstream).subscribe(subscriber)
    XCTAssertEqual(upstream.send("x"), .max(1), "not a number: dropped, one more asked for")
    XCTAssertEqual(upstream.send("12"), .max(1), "ten or more: dropped by the second closure")
    XCTAssertEqual(upstream.send("1"), .none)
    subscriber.onValue = { _ in .max(3) }
    XCTAssertEqual(upstream.send("3"), .max(3), "the downstream's demand comes back")
    upstream.send(completion: .finished)
    XCTAssertEqual(
      subscriber.events,
      [.subscription("ScriptedUpstream"), .value("#1"), .value("#3"), .completion(.finished)])
  }

  func test_releasesClosure_onCancel() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<String, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    do {
      let probe = tracker.make()
      upstream.compactMap { Int($0).map { $0 + probe.id } }.subscribe(subscriber)
    }
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_releasesClosure_onCompletion() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<String, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    do {
      let probe = tracker.make()
      upstream.compactMap { Int($0).map { $0 + probe.id } }.subscribe(subscriber)
    }
    upstream.send(completion: .finished)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  /// Apple's documentation example for `compactMap(_:)`: "I II III V".
  func test_appleExample_romanNumerals() {
    let romanNumeralDict: [Int: String] = [1: "I", 2: "II", 3: "III", 5: "V"]
    var printed = ""
    let cancellable = (0...5).publisher
      .compactMap { romanNumeralDict[$0] }
      .sink { print("\($0)", terminator: " ", to: &printed) }
    XCTAssertEqual(printed, "I II III V ")
    cancellable.cancel()
  }

  /// The book's simplest `compactMap`: returning the incoming optional drops the `nil`s.
  func test_bookExample_unwrapsOptionals() {
    let subscriber = TestSubscriber<String, Never>()
    ["a", nil, "b", nil].publisher
      .compactMap {
        return $0
      }
      .subscribe(subscriber)
    XCTAssertEqual(subscriber.values, ["a", "b"])
  }
}
