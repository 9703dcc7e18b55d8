import Confluence
import XCTest

/// `map` → `filter` pairs in a row subscribe one relay for every two pairs where the code
/// that subscribes them was not specialised (`MapFilterPairSubscriber`), and one relay per
/// pair where it was (the relays are inlined into one another there). In this target,
/// compiled optimised as an app's release build is, both happen; the values and the demand
/// answered are the same.
final class MapFilterPairTests: XCTestCase {
  /// An upstream that records the type of what subscribed to it and hands values to it.
  private final class RecordingUpstream: Publisher {
    typealias Output = Int
    typealias Failure = Never

    private(set) var subscriberType = ""
    private var deliver: ((Int) -> Subscribers.Demand)?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
      subscriberType = String(reflecting: S.self)
      subscriber.receive(subscription: Subscriptions.empty)
      deliver = { subscriber.receive($0) }
    }

    func send(_ value: Int) -> Subscribers.Demand {
      deliver?(value) ?? .none
    }
  }

  @inline(never)
  @_semantics("optimize.sil.specialize.generic.never")
  private func subscribeUnspecialised<P: Publisher>(_ upstream: P, _ collector: IntCollector)
  where P.Output == Int, P.Failure == Never {
    upstream.map { $0 * 10 }.filter { $0 % 20 == 0 }.map { $0 + 1 }.filter { $0 % 3 != 0 }.subscribe(collector)
  }

  /// The same pipeline, specialised, subscribed with `subscribe(_:)`. (Also a check that
  /// this compiles: with `subscribe(_:)`'s and `map` → `filter`'s introspection branches
  /// written inline, Swift 6.3.1's optimiser failed an internal assertion on this function,
  /// "too many/large bit fields allocated in function"; see `Publisher._subscribeWatched`.)
  @inline(never)
  private func subscribeSpecialised(_ upstream: RecordingUpstream, _ collector: IntCollector) {
    upstream.map { $0 * 10 }.filter { $0 % 20 == 0 }.map { $0 + 1 }.filter { $0 % 3 != 0 }.subscribe(collector)
  }

  private func checkScript(_ upstream: RecordingUpstream, _ collector: IntCollector) {
    XCTAssertEqual(upstream.send(1), .max(1), "10 is dropped by the first test")
    XCTAssertEqual(upstream.send(4), .max(2), "41 passes both")
    XCTAssertEqual(upstream.send(8), .max(1), "81 is dropped by the second test")
    XCTAssertEqual(upstream.send(6), .max(2))
    XCTAssertEqual(collector.values, [41, 61])
  }

  func test_specialised_aRelayPerPair() {
    let upstream = RecordingUpstream()
    let collector = IntCollector(demandPerValue: .max(2))
    subscribeSpecialised(upstream, collector)
    XCTAssertTrue(upstream.subscriberType.hasPrefix("Confluence.MapFilterSubscriber<"), upstream.subscriberType)
    XCTAssertFalse(upstream.subscriberType.contains("MapFilterPairSubscriber"), upstream.subscriberType)
    checkScript(upstream, collector)
  }

  func test_notSpecialised_oneRelayForBothPairs_sameValuesAndDemand() {
    let upstream = RecordingUpstream()
    let collector = IntCollector(demandPerValue: .max(2))
    subscribeUnspecialised(upstream, collector)
    XCTAssertTrue(upstream.subscriberType.hasPrefix("Confluence.MapFilterPairSubscriber<"), upstream.subscriberType)
    XCTAssertFalse(upstream.subscriberType.contains("Confluence.MapFilterSubscriber"), upstream.subscriberType)
    checkScript(upstream, collector)
  }
}
