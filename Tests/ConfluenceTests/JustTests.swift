import Confluence
import ConfluenceTesting
import XCTest

final class JustTests: XCTestCase {
  func test_deliversValueThenFinishes_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, Never>()
    Just(42).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Just"), .value(42), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_waitsForDemand_noInitialDemand() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Just(1).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Just")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("Just"), .value(1), .completion(.finished)])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [1])
  }

  func test_cancelBeforeDemand_sendsNothing() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Just(1).subscribe(subscriber)
    subscriber.cancel()
    XCTAssertEqual(subscriber.events, [.subscription("Just")])
  }

  func test_cancelInsideReceive_stillCompletesOnce() {
    let subscriber = TestSubscriber<Int, Never>(strictCancellation: false)
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    Just(1).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1])
  }

  func test_equatable() {
    XCTAssertEqual(Just(1), Just(1))
    XCTAssertNotEqual(Just(1), Just(2))
  }

  // A `Subscribers.Sink` takes Just's value and completion with no subscription object in
  // between. It must behave exactly as with the subscription: these pin the rules at the
  // edges, where a sink could tell the difference.

  /// A sink whose closures can reach the sink itself, and which records what reaches them.
  private final class SinkProbe {
    var values: [Int] = []
    var completions: [Subscribers.Completion<Never>] = []
    var onValue: (Subscribers.Sink<Int, Never>) -> Void = { _ in }
    private(set) var sink: Subscribers.Sink<Int, Never>!

    init() {
      sink = Subscribers.Sink(
        receiveCompletion: { [unowned self] in completions.append($0) },
        receiveValue: { [unowned self] in
          values.append($0)
          onValue(sink)
        })
    }
  }

  func test_sink_cancelInsideReceiveValue_dropsTheCompletion() {
    let probe = SinkProbe()
    probe.onValue = { $0.cancel() }
    Just(1).subscribe(probe.sink)
    XCTAssertEqual(probe.values, [1])
    XCTAssertEqual(probe.completions, [])
  }

  func test_sink_subscriptionArrivingDuringDelivery_isCancelledAndTheCompletionStillArrives() {
    let probe = SinkProbe()
    let late = DemandProbe()
    probe.onValue = { $0.receive(subscription: late) }
    Just(1).subscribe(probe.sink)
    XCTAssertEqual(late.cancels, 1)
    XCTAssertEqual(late.requests, [])
    XCTAssertEqual(probe.values, [1])
    XCTAssertEqual(probe.completions, [.finished])
  }

  func test_sink_completionDuringDelivery_isTheOnlyOne() {
    let probe = SinkProbe()
    probe.onValue = { $0.receive(completion: .finished) }
    Just(1).subscribe(probe.sink)
    XCTAssertEqual(probe.completions, [.finished])
    let late = DemandProbe()
    probe.sink.receive(subscription: late)
    XCTAssertEqual(late.cancels, 1)
  }

  func test_sink_subscribingAgainDuringDelivery_deliversNothingMore() {
    let probe = SinkProbe()
    probe.onValue = { Just(2).subscribe($0) }
    Just(1).subscribe(probe.sink)
    XCTAssertEqual(probe.values, [1])
    XCTAssertEqual(probe.completions, [.finished])
  }

  func test_sink_alreadySubscribed_receivesNothingAndKeepsItsSubscription() {
    let probe = SinkProbe()
    let first = DemandProbe()
    probe.sink.receive(subscription: first)
    Just(1).subscribe(probe.sink)
    XCTAssertEqual(probe.values, [])
    XCTAssertEqual(probe.completions, [])
    XCTAssertEqual(first.requests, [.unlimited])
    XCTAssertEqual(first.cancels, 0)
    probe.sink.cancel()
    XCTAssertEqual(first.cancels, 1)
  }

  func test_sink_cancelledBeforeSubscribingStillReceives_finishedReceivesNothing() {
    // A sink has nothing to cancel before its subscription arrives, and Apple's does
    // nothing then (see SinkTests.test_cancelBeforeASubscription_changesNothing).
    let cancelled = SinkProbe()
    cancelled.sink.cancel()
    Just(1).subscribe(cancelled.sink)
    XCTAssertEqual(cancelled.values, [1])
    XCTAssertEqual(cancelled.completions, [.finished])

    let finished = SinkProbe()
    Just(1).subscribe(finished.sink)
    Just(2).subscribe(finished.sink)
    XCTAssertEqual(finished.values, [1])
    XCTAssertEqual(finished.completions, [.finished])
  }

  func test_sink_afterDelivery_cancelIsANoOpAndLaterSubscriptionsAreCancelled() {
    let probe = SinkProbe()
    Just(1).subscribe(probe.sink)
    probe.sink.cancel()
    let late = DemandProbe()
    probe.sink.receive(subscription: late)
    XCTAssertEqual(late.cancels, 1)
    XCTAssertEqual(late.requests, [])
    XCTAssertEqual(probe.completions, [.finished])
  }

  func test_sink_letsGoOfTheClosuresOnceJustFinished_thoughTheTokenLives() {
    final class Captured {}
    weak var weakCaptured: Captured?
    var token: AnyCancellable?
    do {
      let captured = Captured()
      weakCaptured = captured
      token = Just(1).sink { _ in withExtendedLifetime(captured) {} }
    }
    XCTAssertNil(weakCaptured, "a finished sink lets go of its closures (Apple's rule)")
    XCTAssertNotNil(token)
  }

  func test_sink_whileIntrospectionIsEnabled_receivesJustsSubscription() {
    final class SubscriptionLog: _Introspection {
      var names: [String] = []
      func willReceive<S: Subscriber>(subscriber: S, subscription: Subscription) {
        names.append("\(subscription)")
      }
    }
    let log = SubscriptionLog()
    log.enable()
    defer { log.disable() }
    var values: [Int] = []
    _ = Just(3).sink { values.append($0) }
    XCTAssertEqual(log.names, ["Just"])
    XCTAssertEqual(values, [3])
  }

  func test_sinkReceivesValue() {
    var received: [Int] = []
    var completions = 0
    _ = Just(7).sink(receiveCompletion: { _ in completions += 1 }, receiveValue: { received.append($0) })
    XCTAssertEqual(received, [7])
    XCTAssertEqual(completions, 1)
  }
}
