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

  /// Built by unspecialised code, a fused `CompactMap` subscribes a relay per closure; the
  /// upstream still sees one subscriber shown as "CompactMap", and the downstream the
  /// upstream's own subscription.
  func test_fusion_builtByUnspecialisedGenericCode_upstreamSeesOneCompactMap() {
    let upstream = DetachedUpstream<String, Never>()
    let subscriber = TestSubscriber<String, Never>(initialDemand: .none)
    fusedInGenericCode(upstream).subscribe(subscriber)
    XCTAssertEqual(String(describing: upstream.operatorSubscriber), "CompactMap")
    XCTAssertTrue(Mirror(reflecting: upstream.operatorSubscriber).children.isEmpty)
    upstream.attach()
    XCTAssertEqual(subscriber.subscriptionDescription, "Recording")
  }

  func test_fusion_builtByUnspecialisedGenericCode_failurePassesOn() {
    let upstream = ScriptedUpstream<String, TestError>()
    let subscriber = TestSubscriber<String, TestError>()
    fusedInGenericCode(upstream).subscribe(subscriber)
    upstream.send("7")
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(
      subscriber.events,
      [.subscription("ScriptedUpstream"), .value("#7"), .completion(.failure(TestError("boom")))])
  }

  /// The fused publisher's `transform` is every closure composed, whoever built it.
  func test_fusion_builtByUnspecialisedGenericCode_transformComposesEveryClosure() {
    let fused = fusedInGenericCode(ScriptedUpstream<String, Never>())
    XCTAssertEqual(fused.transform("3"), "#3")
    XCTAssertNil(fused.transform("12"))
    XCTAssertNil(fused.transform("x"))
  }

  /// A closure that captures `probe` at each stage of a fused `CompactMap` built by
  /// unspecialised code: `compactMap`, then `map`, then `compactMap`.
  @_semantics("optimize.sil.specialize.generic.never")
  private func fusedCapturing<P: Publisher>(_ upstream: P, _ probes: [LifetimeTracker.Tracked])
    -> Publishers.CompactMap<P, Int>
  where P.Output == String {
    let (first, second, third) = (probes[0], probes[1], probes[2])
    return upstream.compactMap { Int($0).map { $0 + first.id } }.map { $0 + second.id }
      .compactMap { $0 > third.id + 1_000 ? nil : $0 }
  }

  func test_fusion_builtByUnspecialisedGenericCode_releasesEveryClosure_onCancel() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<String, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    do {
      fusedCapturing(upstream, [tracker.make(), tracker.make(), tracker.make()]).subscribe(subscriber)
    }
    upstream.send("1")
    XCTAssertEqual(tracker.liveCount, 3)
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
    XCTAssertEqual(subscriber.values.count, 1)
  }

  func test_fusion_builtByUnspecialisedGenericCode_releasesEveryClosure_onCompletion() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<String, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    do {
      fusedCapturing(upstream, [tracker.make(), tracker.make(), tracker.make()]).subscribe(subscriber)
    }
    XCTAssertEqual(tracker.liveCount, 3)
    upstream.send(completion: .finished)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  /// `compactMap`, `map` and `compactMap` alternating, built by unspecialised code: the
  /// `map` and the `compactMap` after it run in one relay. Values sent one by one and as a
  /// sequence's run, with demand for some of them.
  @_semantics("optimize.sil.specialize.generic.never")
  private func alternating<P: Publisher>(_ upstream: P) -> Publishers.CompactMap<P, String>
  where P.Output == String {
    upstream.compactMap { Int($0) }.map { $0 * 2 }.compactMap { $0 < 20 ? $0 : nil }
      .map { $0 + 1 }.compactMap { $0 == 5 ? nil : "#\($0)" }
  }

  func test_fusion_alternatingStages_builtByUnspecialisedGenericCode_sameValuesAndDemand() {
    let upstream = ScriptedUpstream<String, Never>()
    let subscriber = TestSubscriber<String, Never>(initialDemand: .max(2))
    alternating(upstream).subscribe(subscriber)
    XCTAssertEqual(upstream.send("x"), .max(1), "dropped by the first compactMap")
    XCTAssertEqual(upstream.send("12"), .max(1), "dropped by the second")
    XCTAssertEqual(upstream.send("2"), .max(1), "dropped by the third")
    XCTAssertEqual(upstream.send("1"), .none)
    subscriber.onValue = { _ in .max(4) }
    XCTAssertEqual(upstream.send("3"), .max(4))
    XCTAssertEqual(subscriber.values, ["#3", "#7"])
  }

  func test_fusion_alternatingStages_sequenceRun_limitedDemand() {
    let subscriber = TestSubscriber<String, Never>(initialDemand: .max(2))
    alternating(["1", "x", "12", "2", "3", "4"].publisher).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, ["#3", "#7"])
    XCTAssertNil(subscriber.completion)
    subscriber.request(.max(5))
    XCTAssertEqual(subscriber.values, ["#3", "#7", "#9"])
    XCTAssertEqual(subscriber.completion, .finished)
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
  /// The publisher's mirror shows `upstream` and `transform`, as Apple's does, whether or not
  /// it keeps its closures one by one.
  func test_mirror_upstreamAndTransform_fusedByUnspecialisedCodeToo() {
    let subject = PassthroughSubject<String, Never>()
    let plain = subject.compactMap { $0.isEmpty ? nil : $0 }
    let fused = fusedInGenericCode(subject)
    for publisher in [plain as Any, fused] {
      XCTAssertEqual(Mirror(reflecting: publisher).children.map(\.label), ["upstream", "transform"])
      XCTAssertEqual(Mirror(reflecting: publisher).displayStyle, .struct)
    }
    let printed =
      "CompactMap<PassthroughSubject<String, Never>, String>(upstream: "
      + "Confluence.PassthroughSubject<Swift.String, Swift.Never>, transform: (Function))"
    XCTAssertEqual(String(describing: plain), printed)
    XCTAssertEqual(String(describing: fused), printed)
  }

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
