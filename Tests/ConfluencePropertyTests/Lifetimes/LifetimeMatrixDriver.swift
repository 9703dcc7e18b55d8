import Confluence
import ConfluenceTesting
import Foundation

/// How a lifetime-matrix run ends the subscription.
enum LifetimeEvent: String, CaseIterable, CustomStringConvertible {
  /// The upstream (every upstream) finishes.
  case finished
  /// The upstream fails.
  case failure
  /// The subscriber cancels, after a value.
  case cancel
  /// The subscriber (or whoever can) cancels before the upstream's subscription arrived.
  case cancelBeforeSubscription

  var description: String { rawValue }
}

/// Whose upstream a lifetime-matrix row runs over.
enum LifetimeUpstream: String, CaseIterable, CustomStringConvertible {
  /// Confluence's own: a `PassthroughSubject` (behind a gate that can hold the subscription back).
  case confluence
  /// A ``ThirdPartyPublisher``: its subscription keeps its subscriber until cancelled, also
  /// after completion.
  case thirdParty

  var description: String { rawValue }
}

/// An upstream for the matrix: `Int`s failing with `TestError`, from Confluence's own
/// subject or from a third-party-style publisher, whose subscriptions can be held back until
/// ``attach()`` (for the cancel-before-subscription column).
final class MatrixSource: Publisher, @unchecked Sendable {
  // @unchecked Sendable: the matrix runs on one thread.
  typealias Output = Int
  typealias Failure = TestError

  let kind: LifetimeUpstream
  let subject = PassthroughSubject<Int, TestError>()
  let thirdParty: ThirdPartyPublisher<Int, TestError>
  /// Whether subscribers wait for ``attach()``.
  var holdsSubscriptionsBack = false
  private var waiting: [AnySubscriber<Int, TestError>] = []
  /// What subscribed while subscriptions were held back (an operator's own subscriber).
  private(set) var heldBackSubscribers: [Any] = []

  init(kind: LifetimeUpstream, tracker: LifetimeTracker, labels: MatrixLabels) {
    self.kind = kind
    thirdParty = ThirdPartyPublisher(token: { labels.track(tracker.make(), as: "upstream subscription") })
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
    if holdsSubscriptionsBack {
      waiting.append(AnySubscriber(subscriber))
      heldBackSubscribers.append(subscriber)
    } else {
      route(subscriber)
    }
  }

  private func route<S: Subscriber>(_ subscriber: S) where S.Input == Int, S.Failure == TestError {
    switch kind {
    case .confluence: subject.subscribe(subscriber)
    case .thirdParty: thirdParty.subscribe(subscriber)
    }
  }

  /// Lets the held-back subscribers have their subscriptions.
  func attach() {
    holdsSubscriptionsBack = false
    let now = waiting
    waiting.removeAll()
    heldBackSubscribers.removeAll()
    for subscriber in now { route(subscriber) }
  }

  func send(_ value: Int) {
    switch kind {
    case .confluence: subject.send(value)
    case .thirdParty: thirdParty.send(value)
    }
  }

  /// Ends whatever is still live, so that a cell that keeps something on purpose (a pinned
  /// exception) leaves nothing behind for the leak checker.
  func cleanUp() {
    waiting.removeAll()
    heldBackSubscribers.removeAll()
    subject.send(completion: .finished)
    thirdParty.cancelAll()
  }

  func send(completion: Subscribers.Completion<TestError>) {
    switch kind {
    case .confluence: subject.send(completion: completion)
    case .thirdParty: thirdParty.send(completion: completion)
    }
  }
}

/// Names for the tracked objects of a run, so that a failure says what survived.
final class MatrixLabels: @unchecked Sendable {
  // @unchecked Sendable: the matrix runs on one thread.
  private struct Entry {
    let name: String
    weak var object: LifetimeTracker.Tracked?
  }

  private var entries: [Entry] = []

  @discardableResult
  func track(_ tracked: LifetimeTracker.Tracked, as name: String) -> LifetimeTracker.Tracked {
    entries.append(Entry(name: name, object: tracked))
    return tracked
  }

  /// The names of the tracked objects still alive.
  var survivors: [String] { entries.filter { $0.object != nil }.map(\.name) }
}

/// What a row's builder gets: the upstreams, a scheduler, and `capture(_:)` for the objects
/// its closures capture.
struct MatrixContext {
  let main: MatrixSource
  let other: MatrixSource
  let scheduler: VirtualTimeScheduler
  let tracker: LifetimeTracker
  let labels: MatrixLabels
  /// Things the row made that live as long as the caller holds them (a subject a row
  /// subscribes to, an object a key path is assigned on); the run ends them with the event.
  let extras: MatrixExtras

  /// A tracked object for a closure of the operator to capture.
  func capture(_ name: String = "closure") -> LifetimeTracker.Tracked {
    labels.track(tracker.make(), as: name)
  }
}

/// Ends the row's own subjects along with the upstreams.
final class MatrixExtras: @unchecked Sendable {
  // @unchecked Sendable: the matrix runs on one thread.
  var onFinish: [() -> Void] = []
  var onFail: [() -> Void] = []
}

/// The downstream of a run: asks for everything, lets go of its subscription at the end (as
/// a sink does), and holds a tracked object, so that whatever keeps it alive shows.
final class MatrixSubscriber<Input, Failure: Error>: Subscriber {
  private let tracked: LifetimeTracker.Tracked
  private(set) var subscription: Subscription?
  private(set) var completed = false

  init(tracked: LifetimeTracker.Tracked) {
    self.tracked = tracked
  }

  func receive(subscription: Subscription) {
    self.subscription = subscription
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand { .none }

  func receive(completion: Subscribers.Completion<Failure>) {
    completed = true
    subscription = nil
  }

  func cancel() {
    let current = subscription
    subscription = nil
    current?.cancel()
  }
}

/// One row of the matrix: a public type and how to build it over the matrix's upstreams.
struct LifetimeRow {
  /// The type's name as the source declares it (`Publishers.Map`, `PassthroughSubject`).
  let type: String
  /// Which upstreams the row runs over (sources with no upstream run once, as `.confluence`).
  let upstreams: [LifetimeUpstream]
  /// Which events the row runs (a `Just` cannot fail).
  let events: [LifetimeEvent]
  /// Events × upstreams this row is known to fail, with the reason; not run.
  let knownFailures: [String: String]
  /// Events × upstreams after which the row keeps something on purpose (Apple's
  /// behaviour): what survives, pinned, and why.
  var kept: [String: (survivors: [String], reason: String)] = [:]
  /// Runs one cell; returns what survived (empty: all released), or `nil` when the cell
  /// does not apply.
  let run: (LifetimeUpstream, LifetimeEvent) -> [String]?

  static func key(_ upstream: LifetimeUpstream, _ event: LifetimeEvent) -> String { "\(upstream)/\(event)" }
}

extension LifetimeRow {
  /// A row for an operator (or any publisher built over the matrix's upstreams).
  static func op<P: Publisher>(
    _ type: String,
    events: [LifetimeEvent] = LifetimeEvent.allCases,
    upstreams: [LifetimeUpstream] = LifetimeUpstream.allCases,
    known: [String: String] = [:],
    _ make: @escaping (MatrixContext) -> P
  ) -> LifetimeRow {
    LifetimeRow(type: type, upstreams: upstreams, events: events, knownFailures: known) { upstream, event in
      runCell(upstream: upstream, event: event, make)
    }
  }

  /// This row with what it keeps, on purpose, after `event` over `upstreams`.
  func keeping(
    _ survivors: [String], after event: LifetimeEvent, over upstreams: [LifetimeUpstream], because reason: String
  ) -> LifetimeRow {
    var row = self
    for upstream in upstreams { row.kept[LifetimeRow.key(upstream, event)] = (survivors, reason) }
    return row
  }

  /// A row for a publisher with no upstream that ends on its own or through the context
  /// (its `extras`), run over Confluence's kind only.
  static func source<P: Publisher>(
    _ type: String, events: [LifetimeEvent], known: [String: String] = [:],
    _ make: @escaping (MatrixContext) -> P
  ) -> LifetimeRow {
    op(type, events: events, upstreams: [.confluence], known: known, make)
  }

  /// A row whose cell is checked by hand (subscribers, subjects used as subscribers).
  static func custom(
    _ type: String, events: [LifetimeEvent], upstreams: [LifetimeUpstream] = LifetimeUpstream.allCases,
    _ run: @escaping (LifetimeUpstream, LifetimeEvent) -> [String]?
  ) -> LifetimeRow {
    LifetimeRow(type: type, upstreams: upstreams, events: events, knownFailures: [:], run: run)
  }
}

/// Builds the row's publisher over fresh upstreams, subscribes a ``MatrixSubscriber``, ends
/// the subscription as `event` says, lets go of everything but the upstreams (the caller
/// may keep its subjects), and returns the names of the tracked objects still alive.
func runCell<P: Publisher>(
  upstream: LifetimeUpstream, event: LifetimeEvent, _ make: (MatrixContext) -> P
) -> [String] {
  let tracker = LifetimeTracker()
  let labels = MatrixLabels()
  let main = MatrixSource(kind: upstream, tracker: tracker, labels: labels)
  let other = MatrixSource(kind: upstream, tracker: tracker, labels: labels)
  let scheduler = VirtualTimeScheduler()
  let extras = MatrixExtras()
  do {
    let context = MatrixContext(
      main: main, other: other, scheduler: scheduler, tracker: tracker, labels: labels, extras: extras)
    let publisher = make(context)
    let downstream = MatrixSubscriber<P.Output, P.Failure>(tracked: labels.track(tracker.make(), as: "downstream"))
    if event == .cancelBeforeSubscription {
      main.holdsSubscriptionsBack = true
      other.holdsSubscriptionsBack = true
    }
    publisher.subscribe(downstream)
    scheduler.advance(by: 1)
    switch event {
    case .finished:
      main.send(1)
      other.send(2)
      main.send(3)
      scheduler.advance(by: 1)
      main.send(completion: .finished)
      other.send(completion: .finished)
      extras.onFinish.forEach { $0() }
    case .failure:
      main.send(1)
      other.send(2)
      scheduler.advance(by: 1)
      main.send(completion: .failure(TestError("matrix")))
      other.send(completion: .failure(TestError("matrix")))
      extras.onFail.forEach { $0() }
    case .cancel:
      main.send(1)
      other.send(2)
      scheduler.advance(by: 1)
      downstream.cancel()
    case .cancelBeforeSubscription:
      if downstream.subscription != nil {
        downstream.cancel()
      } else {
        for held in main.heldBackSubscribers + other.heldBackSubscribers {
          (held as? Cancellable)?.cancel()
        }
      }
      main.attach()
      other.attach()
      // Whatever could not be cancelled before its subscription is cancelled now.
      downstream.cancel()
    }
    _ = scheduler.run()
  }
  let survivors = labels.survivors
  main.cleanUp()
  other.cleanUp()
  withExtendedLifetime((main, other, scheduler, extras)) {}
  return survivors
}
