import Confluence
import ConfluenceTesting
import XCTest

/// An operator hands the subscriber it makes for its upstream (`map`'s relay, `reduce`'s
/// subscription, `flatMap`'s and `switchToLatest`'s subscriptions, …) over through
/// `Publisher._subscribeRelay(_:)`; `switchToLatest` and `flatMap` move it into their
/// subscription, any other publisher subscribes it as `subscribe(_:)` does. What
/// reaches each side is the same as with `subscribe(_:)`, and the relay lives exactly as
/// long as the subscription that holds it: neither released while in use nor kept after.
final class SubscribeRelayTests: XCTestCase {
  /// A subscriber that asks for everything, records what it receives and holds nothing, so
  /// that only the pipeline keeps it alive.
  private final class Recorder: Subscriber {
    typealias Input = Int
    typealias Failure = Never

    /// What it received, kept by the test beyond the subscriber's lifetime.
    final class Log {
      var values: [Int] = []
      var completions = 0
      var subscriptions: [String] = []
    }

    let log: Log
    let cancelsAtOnce: Bool

    init(log: Log = Log(), cancelsAtOnce: Bool = false) {
      self.log = log
      self.cancelsAtOnce = cancelsAtOnce
    }

    func receive(subscription: Subscription) {
      log.subscriptions.append("\(subscription)")
      if cancelsAtOnce {
        subscription.cancel()
      } else {
        subscription.request(.unlimited)
      }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      log.values.append(input)
      return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
      log.completions += 1
    }
  }

  /// `switchToLatest`, then a `map` whose relay is handed to it.
  private func specialised(_ subject: PassthroughSubject<Int, Never>, _ subscriber: Recorder) {
    subject.map { Just($0) }.switchToLatest().map { $0 * 10 }.subscribe(subscriber)
  }

  /// The same pipeline built by a generic helper compiled once for every `P`, as a helper
  /// in another module that is not `@inlinable` is.
  @inline(never)
  @_semantics("optimize.sil.specialize.generic.never")
  private func generic<P: Publisher, S: Subscriber>(_ upstream: P, _ subscriber: S)
  where P.Output == Int, S.Input == Int, S.Failure == P.Failure {
    upstream.map { Just($0).setFailureType(to: P.Failure.self) }.switchToLatest().map { $0 * 10 }
      .subscribe(subscriber)
  }

  private func builds() -> [(String, (PassthroughSubject<Int, Never>, Recorder) -> Void)] {
    [("specialised", specialised), ("generic", { self.generic($0, $1) })]
  }

  /// Makes a `Recorder` that nothing but the pipeline `attach` builds holds once this
  /// returns; returns what it receives and a weak reference to it.
  private func subscribeUnheld(cancelsAtOnce: Bool = false, _ attach: (Recorder) -> Void) -> (
    log: Recorder.Log, held: WeakReference<Recorder>
  ) {
    let log = Recorder.Log()
    let subscriber = Recorder(log: log, cancelsAtOnce: cancelsAtOnce)
    let held = WeakReference(subscriber)
    attach(subscriber)
    return (log, held)
  }

  func test_relayMovedIntoSwitchToLatest_deliversAndIsReleasedWithTheSubscription() {
    for (name, build) in builds() {
      let subject = PassthroughSubject<Int, Never>()
      let (log, held) = subscribeUnheld { build(subject, $0) }
      subject.send(1)
      subject.send(2)
      XCTAssertEqual(log.subscriptions, ["SwitchToLatest"], "\(name): the map passes the subscription on")
      XCTAssertNotNil(held.object, "\(name): the subscription keeps the relay, and the relay its subscriber")
      subject.send(3)
      XCTAssertEqual(log.values, [10, 20, 30], name)
      XCTAssertEqual(log.completions, 0, name)
      // The subject lets its subscriber go on completion: the whole chain, the relay moved
      // into `switchToLatest`'s subscription and the subscriber with it.
      subject.send(completion: .finished)
      XCTAssertEqual(log.completions, 1, name)
      XCTAssertNil(held.object, "\(name): released with the subscription, not kept by a copy")
    }
  }

  func test_subscriberCancellingInsideReceiveSubscription_relayStaysValid() {
    for (name, build) in builds() {
      let subject = PassthroughSubject<Int, Never>()
      let (log, held) = subscribeUnheld(cancelsAtOnce: true) { build(subject, $0) }
      subject.send(1)
      subject.send(completion: .finished)
      XCTAssertEqual(log.subscriptions, ["SwitchToLatest"], name)
      XCTAssertEqual(log.values, [], "\(name): nothing reaches a cancelled pipeline")
      XCTAssertEqual(log.completions, 0, name)
      // Apple's `switchToLatest` keeps its downstream after a cancel, as long as the
      // subscription lives; the cancel let the subject's conduit go, and with it the chain.
      XCTAssertNil(held.object, "\(name): released with the subscription")
    }
  }

  /// `map`, `filter` and `compactMap` move the relay they are handed into their own, so
  /// the relays of several stages reach `switchToLatest` moved through each.
  private func stages<P: Publisher>(_ upstream: P) -> some Publisher<Int, P.Failure> where P.Output == Int {
    let switched = upstream.map { (value: Int) -> Publishers.SetFailureType<Just<Int>, P.Failure> in
      Just(value).setFailureType(to: P.Failure.self)
    }.switchToLatest()
    let tens = switched.map { (value: Int) -> Int in value * 10 }.filter { (value: Int) -> Bool in value != 20 }
    let compacted = tens.compactMap { (value: Int) -> Int? in value == 30 ? nil : value + 1 }
    return compacted.map { (value: Int) -> Int in value * 2 }.filter { (_: Int) -> Bool in true }
  }

  @inline(never)
  @_semantics("optimize.sil.specialize.generic.never")
  private func genericStages<P: Publisher, S: Subscriber>(_ upstream: P, _ subscriber: S)
  where P.Output == Int, S.Input == Int, S.Failure == P.Failure {
    let switched = upstream.map { (value: Int) -> Publishers.SetFailureType<Just<Int>, P.Failure> in
      Just(value).setFailureType(to: P.Failure.self)
    }.switchToLatest()
    let tens = switched.map { (value: Int) -> Int in value * 10 }.filter { (value: Int) -> Bool in value != 20 }
    let compacted = tens.compactMap { (value: Int) -> Int? in value == 30 ? nil : value + 1 }
    compacted.map { (value: Int) -> Int in value * 2 }.filter { (_: Int) -> Bool in true }.subscribe(subscriber)
  }

  func test_relaysOfSeveralStages_movedThroughEach_deliverAndAreReleased() {
    let builds: [(String, (PassthroughSubject<Int, Never>, Recorder) -> Void)] = [
      ("specialised", { self.stages($0).subscribe($1) }), ("generic", { self.genericStages($0, $1) }),
    ]
    for (name, build) in builds {
      let subject = PassthroughSubject<Int, Never>()
      let (log, held) = subscribeUnheld { build(subject, $0) }
      for value in 1...4 { subject.send(value) }
      XCTAssertEqual(log.values, [22, 82], "\(name): 10 → 11 → 22; 20 filtered; 30 compacted away; 40 → 41 → 82")
      XCTAssertNotNil(held.object, name)
      subject.send(completion: .finished)
      XCTAssertEqual(log.completions, 1, name)
      XCTAssertNil(held.object, "\(name): released with the subscription")
    }
  }

  /// `zip` and `combineLatest` keep their subscriber until the subscription is destroyed,
  /// so they too take the relay of a `map` after them moved.
  @inline(never)
  @_semantics("optimize.sil.specialize.generic.never")
  private func genericFanIns<P: Publisher, S: Subscriber>(_ a: P, _ b: P, _ subscriber: S)
  where P.Output == Int, S.Input == Int, S.Failure == P.Failure {
    let zipped = a.zip(b).map { (x: Int, y: Int) -> Int in x + y }
    zipped.combineLatest(b).map { (x: Int, y: Int) -> Int in x * 100 + y }.subscribe(subscriber)
  }

  func test_relayMovedIntoAFanIn_deliversAndIsReleasedWithTheSubscription() {
    let builds: [(String, (PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>, Recorder) -> Void)] = [
      (
        "specialised",
        { a, b, subscriber in
          let zipped = a.zip(b).map { (x: Int, y: Int) -> Int in x + y }
          zipped.combineLatest(b).map { (x: Int, y: Int) -> Int in x * 100 + y }.subscribe(subscriber)
        }
      ),
      ("generic", { self.genericFanIns($0, $1, $2) }),
    ]
    for (name, build) in builds {
      let a = PassthroughSubject<Int, Never>()
      let b = PassthroughSubject<Int, Never>()
      let (log, held) = subscribeUnheld { build(a, b, $0) }
      a.send(1)
      b.send(2)
      XCTAssertEqual(log.values, [302], "\(name): zip (1, 2) → 3; combineLatest (3, 2) → 302")
      XCTAssertEqual(log.subscriptions, ["CombineLatest"], name)
      XCTAssertNotNil(held.object, name)
      a.send(completion: .finished)
      b.send(completion: .finished)
      XCTAssertEqual(log.completions, 1, name)
      XCTAssertNil(held.object, "\(name): released with the subscriptions")
    }
  }

  /// Three nested `flatMap`s and a `map` after them, built by a generic helper compiled once
  /// for every `P`: each level's subscription reaches the level above moved, and the `map`'s
  /// relay reaches the last one moved.
  @inline(never)
  @_semantics("optimize.sil.specialize.generic.never")
  private func genericFlatMaps<P: Publisher, S: Subscriber>(_ upstream: P, _ subscriber: S)
  where P.Output == Int, S.Input == Int, S.Failure == P.Failure {
    let inner = { (value: Int) -> Publishers.SetFailureType<Just<Int>, P.Failure> in
      Just(value).setFailureType(to: P.Failure.self)
    }
    upstream.flatMap(inner).flatMap(inner).flatMap(inner).map { $0 * 10 }.subscribe(subscriber)
  }

  private func flatMapBuilds() -> [(String, (PassthroughSubject<Int, Never>, Recorder) -> Void)] {
    [
      (
        "specialised",
        { $0.flatMap { Just($0) }.flatMap { Just($0) }.flatMap { Just($0) }.map { $0 * 10 }.subscribe($1) }
      ),
      ("generic", { self.genericFlatMaps($0, $1) }),
    ]
  }

  func test_nestedFlatMaps_eachSubscriptionMovedUpstream_deliverAndAreReleased() {
    for (name, build) in flatMapBuilds() {
      let subject = PassthroughSubject<Int, Never>()
      let (log, held) = subscribeUnheld { build(subject, $0) }
      subject.send(1)
      subject.send(2)
      XCTAssertEqual(log.subscriptions, ["FlatMap"], "\(name): the map passes the outermost subscription on")
      XCTAssertEqual(log.values, [10, 20], name)
      XCTAssertNotNil(held.object, "\(name): the outermost subscription keeps the relay, and the relay its subscriber")
      subject.send(completion: .finished)
      XCTAssertEqual(log.completions, 1, name)
      XCTAssertNil(held.object, "\(name): released with the subscriptions, not kept by a copy")
    }
  }

  /// `flatMap` lets its downstream go on cancel, so it keeps the relay only once
  /// downstream's `receive(subscription:)` has returned; a cancel from inside it leaves the
  /// relay to the caller, who lets it go afterwards.
  func test_nestedFlatMaps_subscriberCancellingInsideReceiveSubscription_relayStaysValid() {
    for (name, build) in flatMapBuilds() {
      let subject = PassthroughSubject<Int, Never>()
      let (log, held) = subscribeUnheld(cancelsAtOnce: true) { build(subject, $0) }
      subject.send(1)
      XCTAssertEqual(log.subscriptions, ["FlatMap"], name)
      XCTAssertEqual(log.values, [], "\(name): nothing reaches a cancelled pipeline")
      XCTAssertNil(held.object, "\(name): let go of by the cancelled subscription, not kept")
      subject.send(completion: .finished)
      XCTAssertEqual(log.completions, 0, name)
    }
  }

  /// A subscriber that cancels from another thread while its `receive(subscription:)`
  /// waits: the cancel and `flatMap` keeping its relay meet under the subscription's lock.
  func test_flatMap_cancelledFromAnotherThreadDuringReceiveSubscription_letsTheRelayGo() {
    final class CancelsElsewhere: Subscriber {
      typealias Input = Int
      typealias Failure = Never
      let log: Recorder.Log
      init(log: Recorder.Log) { self.log = log }
      func receive(subscription: Subscription) {
        log.subscriptions.append("\(subscription)")
        let cancelled = DispatchSemaphore(value: 0)
        let sendable = Unchecked(value: subscription)
        Thread.detachNewThread {
          sendable.value.cancel()
          cancelled.signal()
        }
        cancelled.wait()
      }
      func receive(_ input: Int) -> Subscribers.Demand {
        log.values.append(input)
        return .none
      }
      func receive(completion: Subscribers.Completion<Never>) { log.completions += 1 }
    }
    // The upstream keeps the subscription it is handed to the end of the test: had the
    // cancelled subscription kept its subscriber, the subscriber would live on with it.
    let upstream = ManualPublisher<Int, Never>()
    let log = Recorder.Log()
    var subscriber: CancelsElsewhere? = CancelsElsewhere(log: log)
    let held = WeakReference(subscriber!)
    upstream.flatMap { Just($0) }.subscribe(subscriber!)
    subscriber = nil
    XCTAssertEqual(log.subscriptions, ["FlatMap"])
    XCTAssertNil(held.object, "let go of once cancelled, though upstream keeps the subscription")
    XCTAssertEqual(upstream.cancels, 1, "upstream's subscription, arriving after the cancel, is cancelled")
    XCTAssertEqual(upstream.requested, [], "and asked for nothing")
    upstream.send(1)
    upstream.finish()
    XCTAssertEqual(log.values, [])
    XCTAssertEqual(log.completions, 0)
  }

  /// `setFailureType` and `mapError` move the relay they are handed into their own too.
  func test_relayMovedThroughSetFailureTypeAndMapError() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakSubscriber: TestSubscriber<Int, TestError>?
    do {
      let subscriber = TestSubscriber<Int, TestError>()
      weakSubscriber = subscriber
      let switched = subject.map { (value: Int) -> Just<Int> in Just(value) }.switchToLatest()
      let failing = switched.setFailureType(to: TestError.self).mapError { (error: TestError) -> TestError in error }
      failing.map { (value: Int) -> Int in value + 1 }.subscribe(subscriber)
    }
    subject.send(1)
    subject.send(2)
    XCTAssertEqual(weakSubscriber?.values, [2, 3])
    XCTAssertEqual(weakSubscriber?.subscriptionDescription, "SwitchToLatest", "each relay passes the subscription on")
    weakSubscriber?.cancel()
    subject.send(completion: .finished)
    XCTAssertNil(weakSubscriber, "released once the pipeline is gone")
  }

  func test_aPublisherThatDoesNotImplementIt_isSubscribedOnce() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.map { $0 + 1 }.subscribe(subscriber)
    XCTAssertEqual(upstream.subscriberDescription, "Map")
    XCTAssertEqual(upstream.requested, [.unlimited])
    upstream.send(1)
    XCTAssertEqual(subscriber.values, [2])
  }

  /// While an introspection watches, every relay handed over is reported as a subscribe, as
  /// `subscribe(_:)` reports it.
  func test_whileAnIntrospectionWatches_theRelayIsReported() {
    let introspection = SubscribedDescriptions()
    introspection.enable()
    defer { introspection.disable() }
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = Recorder()
    specialised(subject, subscriber)
    // The subscriber to the outer `map`, that `map`'s relay to `switchToLatest`, its
    // subscription to the inner `map`, that `map`'s relay to the subject.
    XCTAssertEqual(introspection.subscribers, ["\(subscriber)", "Map", "SwitchToLatest", "Map"])
    subject.send(4)
    XCTAssertEqual(subscriber.log.values, [40])
    // Through `filter` and `compactMap` too, each relay reported where it is handed over
    // (the `map` after `compactMap` is part of it: `Publishers.CompactMap.map` returns a
    // `CompactMap`, as Apple's does).
    introspection.subscribers = []
    let second = Recorder()
    stages(subject).subscribe(second)
    XCTAssertEqual(
      introspection.subscribers, ["\(second)", "Filter", "CompactMap", "Filter", "Map", "SwitchToLatest", "Map"])
    subject.send(4)
    XCTAssertEqual(second.log.values, [82])
    // A subject's subscription keeps the subject alive until it is cancelled or completed,
    // as Apple's does: completed here, so that both pipelines and the subject are freed.
    subject.send(completion: .finished)
    XCTAssertEqual(subscriber.log.completions, 1)
    XCTAssertEqual(second.log.completions, 1)
  }
}
