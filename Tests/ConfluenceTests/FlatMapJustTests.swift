import Confluence
import ConfluenceTesting
import XCTest

/// `flatMap` into `Just` takes its own path (the `Just` is not subscribed to: see
/// `FlatMapSubscription.receiveJust`). These tests pin that the path is invisible: every
/// scenario gives the same history as an inner publisher that behaves as `Just` but is
/// subscribed to the ordinary way (`Optional.Publisher` with a value: one value, then
/// `.finished`, on the first request).
final class FlatMapJustTests: XCTestCase {
  /// What a scenario observed, downstream and upstream.
  private struct History: Equatable, CustomStringConvertible {
    var events: [String]
    var demands: [Subscribers.Demand]
    var upstreamRequests: [Subscribers.Demand]
    var upstreamCancels: Int

    var description: String {
      "events \(events), demands \(demands), upstream requests \(upstreamRequests), cancels \(upstreamCancels)"
    }
  }

  private enum Ending: CaseIterable {
    case none, finish, fail, finishFromInsideTheFirstValue
  }

  /// Upstream sends 0, 1, 2, 3 (whatever it was asked for: it misbehaves on purpose, to
  /// reach the buffering paths), downstream asks for more twice, then for everything. The
  /// inner publishers cannot fail: `flatMap` gives them upstream's failure type
  /// (`Publishers.SetFailureType`), as `flatMap { Just($0) }` does over a failing upstream.
  private func run<P: Publisher>(
    initialDemand: Subscribers.Demand, answer: Subscribers.Demand, maxPublishers: Subscribers.Demand,
    cancelAtValue: Int?, ending: Ending, _ inner: @escaping (Int) -> P
  ) -> History where P.Output == Int, P.Failure == Never {
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: initialDemand)
    var delivered = 0
    subscriber.onValue = { _ in
      delivered += 1
      if delivered == 1 && ending == .finishFromInsideTheFirstValue { upstream.finish() }
      if delivered == cancelAtValue { subscriber.cancel() }
      return answer
    }
    upstream.flatMap(maxPublishers: maxPublishers, inner).subscribe(subscriber)
    for value in 0..<4 { upstream.send(value) }
    switch ending {
    case .none, .finishFromInsideTheFirstValue: break
    case .finish: upstream.finish()
    case .fail: upstream.fail(TestError("up"))
    }
    subscriber.request(.max(1))
    subscriber.request(.max(1))
    subscriber.request(.unlimited)
    return History(
      events: subscriber.eventDescriptions, demands: subscriber.demands, upstreamRequests: upstream.requested,
      upstreamCancels: upstream.cancels)
  }

  func test_justInners_behaveAsAnyInnerThatDeliversAndFinishesAtOnce() {
    let demands: [Subscribers.Demand] = [.none, .max(1), .max(2), .unlimited]
    let answers: [Subscribers.Demand] = [.none, .max(1)]
    let maxima: [Subscribers.Demand] = [.unlimited, .max(1), .max(2)]
    for initialDemand in demands {
      for answer in answers {
        for maxPublishers in maxima {
          for cancelAtValue in [nil, 1, 2] as [Int?] {
            for ending in Ending.allCases {
              let label =
                "demand \(initialDemand), answer \(answer), max \(maxPublishers), cancel at \(String(describing: cancelAtValue)), \(ending)"
              let viaJust = run(
                initialDemand: initialDemand, answer: answer, maxPublishers: maxPublishers,
                cancelAtValue: cancelAtValue, ending: ending
              ) { Just($0 * 10) }
              let viaSubscription = run(
                initialDemand: initialDemand, answer: answer, maxPublishers: maxPublishers,
                cancelAtValue: cancelAtValue, ending: ending
              ) { Optional.Publisher($0 * 10) }
              XCTAssertEqual(viaJust, viaSubscription, label)
            }
          }
        }
      }
    }
  }

  func test_justInners_failureFreeUpstream_sameHistoryAsASubscribedInner() {
    for initialDemand in [Subscribers.Demand.none, .max(1), .unlimited] {
      for maxPublishers in [Subscribers.Demand.unlimited, .max(1)] {
        let viaJust = TestSubscriber<Int, Never>(initialDemand: initialDemand)
        (0..<5).publisher.flatMap(maxPublishers: maxPublishers) { Just($0) }.subscribe(viaJust)
        let viaSubscription = TestSubscriber<Int, Never>(initialDemand: initialDemand)
        (0..<5).publisher.flatMap(maxPublishers: maxPublishers) { Optional.Publisher($0) }.subscribe(viaSubscription)
        for subscriber in [viaJust, viaSubscription] {
          subscriber.request(.max(2))
          subscriber.request(.unlimited)
        }
        XCTAssertEqual(
          viaJust.eventDescriptions, viaSubscription.eventDescriptions, "\(initialDemand), \(maxPublishers)")
        XCTAssertEqual(viaJust.demands, viaSubscription.demands)
        XCTAssertEqual(viaJust.values, [0, 1, 2, 3, 4])
        XCTAssertEqual(viaJust.completion, .finished)
      }
    }
  }

  func test_justInner_upstreamFinishingWhileItsValueIsDelivered_finishesAfterTheValue() {
    let upstream = PassthroughSubject<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      upstream.send(completion: .finished)
      return .none
    }
    upstream.flatMap { Just($0) }.subscribe(subscriber)
    upstream.send(7)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(FlatMap)", "value(7)", "completion(finished)"])
  }

  func test_justInner_sentToUpstreamFromInsideTheSink_isDeliveredAfterTheCurrentValue() {
    let upstream = PassthroughSubject<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { value in
      if value == 1 { upstream.send(2) }
      return .none
    }
    upstream.flatMap { Just($0) }.subscribe(subscriber)
    upstream.send(1)
    upstream.send(3)
    XCTAssertEqual(subscriber.values, [1, 2, 3])
    XCTAssertNil(subscriber.completion)
  }

  func test_justInners_fromSeveralThreads_deliverSerially() {
    let upstream = PassthroughSubject<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    let concurrency = ConcurrencyProbe()
    subscriber.onValue = { _ in
      concurrency.enter()
      concurrency.leave()
      return .none
    }
    upstream.flatMap { Just($0) }.subscribe(subscriber)
    let lock = NSLock()  // upstream events into one subscriber are serialised (the contract)
    DispatchQueue.concurrentPerform(iterations: 4) { index in
      for value in 0..<200 { lock.withLock { upstream.send(index * 1000 + value) } }
    }
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.values.count, 800)
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(concurrency.maximum, 1)
  }

  // MARK: Downstream called through a reference the subscription did not retain

  /// A subscriber that is a class, referenced by nothing but the subscription it is given
  /// (the tests keep only a weak reference): `flatMap` into `Just` calls such a downstream
  /// without retaining it, so whatever it does in `receive(_:)`, it must stay alive until
  /// that call returns, and be let go of right after when it was cancelled meanwhile.
  private final class LoneSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    var subscription: Subscription?
    var values: [Int] = []
    let onValue: (LoneSubscriber, Int) -> Void

    init(onValue: @escaping (LoneSubscriber, Int) -> Void) {
      self.onValue = onValue
    }

    func receive(subscription: Subscription) {
      self.subscription = subscription
      subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      onValue(self, input)
      values.append(input)  // touches the object after the cancel
      return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
  }

  /// Subscribes a `LoneSubscriber` to `upstream.flatMap(maxPublishers:) { Just($0) }` and
  /// returns a weak reference to it and a strong one to its subscription, which stays alive
  /// (so that only the subscription's own release lets the subscriber go).
  private func subscribeLone(
    to upstream: PassthroughSubject<Int, Never>, maxPublishers: Subscribers.Demand,
    onValue: @escaping (LoneSubscriber, Int) -> Void
  ) -> (subscriber: () -> LoneSubscriber?, subscription: Subscription) {
    var subscriber: LoneSubscriber? = LoneSubscriber(onValue: onValue)
    weak let weakSubscriber = subscriber
    upstream.flatMap(maxPublishers: maxPublishers) { Just($0) }.subscribe(subscriber!)
    let subscription = subscriber!.subscription!
    subscriber = nil
    return ({ weakSubscriber }, subscription)
  }

  func test_justInner_downstreamCancellingInsideItsValue_isLetGoOfWhenTheValueReturns() {
    for maxPublishers in [Subscribers.Demand.unlimited, .max(1)] {
      let upstream = PassthroughSubject<Int, Never>()
      var cancelled = false
      let (subscriber, subscription) = subscribeLone(to: upstream, maxPublishers: maxPublishers) { me, _ in
        me.subscription?.cancel()
        me.subscription = nil
        cancelled = true
      }
      XCTAssertNotNil(subscriber(), "the subscription holds its subscriber")
      upstream.send(1)
      XCTAssertTrue(cancelled)
      XCTAssertNil(subscriber(), "released once the value returned (maxPublishers \(maxPublishers))")
      withExtendedLifetime(subscription) {}
    }
  }

  func test_justInner_downstreamCancelledFromAnotherThreadDuringItsValue_staysAliveUntilTheValueReturns() {
    for maxPublishers in [Subscribers.Demand.unlimited, .max(1)] {
      let upstream = PassthroughSubject<Int, Never>()
      let entered = DispatchSemaphore(value: 0)
      let cancelled = DispatchSemaphore(value: 0)
      let (subscriber, subscription) = subscribeLone(to: upstream, maxPublishers: maxPublishers) { me, _ in
        me.subscription = nil  // only the flatMap subscription references it now
        entered.signal()
        cancelled.wait()
      }
      let cancelling = Unchecked(value: subscription)
      let canceller = Thread {
        entered.wait()
        cancelling.value.cancel()
        cancelled.signal()
      }
      canceller.start()
      upstream.send(1)
      // The value went in and the subscriber wrote to itself after the cancel returned.
      XCTAssertNil(subscriber(), "released once the value returned (maxPublishers \(maxPublishers))")
      upstream.send(2)  // after the cancel: nothing is delivered (and nothing crashes)
      withExtendedLifetime(subscription) {}
    }
  }
}
