import Confluence
import ConfluenceTesting
import XCTest

/// A fused `CompactMap` (`compactMap { … }.compactMap { … }.map { … }`) publishes through one
/// relay running the composed closure where the compiler specialised the code that built and
/// subscribed it, and through a relay per closure where it did not. In this target, compiled
/// optimised as an app's release build is, both happen; each must publish, drop and answer
/// demand the same way.
final class CompactMapStagesTests: XCTestCase {
  /// An upstream that records the type of what subscribed to it and sends on request.
  private final class RecordingUpstream: Publisher {
    typealias Output = String
    typealias Failure = Never

    private(set) var subscriberType = ""
    private var deliver: ((String) -> Subscribers.Demand)?
    private var finish: (() -> Void)?

    func receive<S: Subscriber>(subscriber: S) where S.Input == String, S.Failure == Never {
      subscriberType = String(reflecting: S.self)
      subscriber.receive(subscription: Subscriptions.empty)
      deliver = { subscriber.receive($0) }
      finish = { subscriber.receive(completion: .finished) }
    }

    func send(_ value: String) -> Subscribers.Demand {
      deliver?(value) ?? .none
    }

    func finishNow() {
      finish?()
    }
  }

  @_semantics("optimize.sil.specialize.generic.never")
  @inline(never)
  private func subscribeUnspecialised<P: Publisher>(_ upstream: P, _ subscriber: TestSubscriber<String, Never>)
  where P.Output == String, P.Failure == Never {
    upstream.compactMap { Int($0) }.compactMap { $0 < 10 ? $0 : nil }.map { "#\($0)" }.subscribe(subscriber)
  }

  /// Sends a script through `upstream` and checks what comes back and what arrives.
  private func checkScript(_ upstream: RecordingUpstream, _ subscriber: TestSubscriber<String, Never>) {
    XCTAssertEqual(upstream.send("x"), .max(1), "not a number: dropped, one more asked for")
    XCTAssertEqual(upstream.send("12"), .max(1), "ten or more: dropped by the second closure")
    XCTAssertEqual(upstream.send("1"), .none)
    subscriber.onValue = { _ in .max(3) }
    XCTAssertEqual(upstream.send("3"), .max(3), "the downstream's demand comes back")
    upstream.finishNow()
    XCTAssertEqual(subscriber.values, ["#1", "#3"])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_fusedInSpecialisedCode_oneRelayRunsTheComposedClosure() {
    let upstream = RecordingUpstream()
    let subscriber = TestSubscriber<String, Never>(initialDemand: .max(2))
    upstream.compactMap { Int($0) }.compactMap { $0 < 10 ? $0 : nil }.map { "#\($0)" }.subscribe(subscriber)
    XCTAssertTrue(
      upstream.subscriberType.hasPrefix("Confluence.CompactMapRelay<Swift.String, Swift.Optional<Swift.String>"))
    XCTAssertFalse(upstream.subscriberType.contains("MapSubscriber"), upstream.subscriberType)
    checkScript(upstream, subscriber)
  }

  func test_fusedInUnspecialisedCode_aRelayPerClosure_sameValuesAndDemand() {
    let upstream = RecordingUpstream()
    let subscriber = TestSubscriber<String, Never>(initialDemand: .max(2))
    subscribeUnspecialised(upstream, subscriber)
    XCTAssertTrue(
      upstream.subscriberType.hasPrefix("Confluence.CompactMapRelay<Swift.String, Swift.Optional<Swift.Int>"))
    XCTAssertTrue(upstream.subscriberType.contains("MapSubscriber"), upstream.subscriberType)
    checkScript(upstream, subscriber)
  }
}
