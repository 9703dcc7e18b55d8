import Confluence
import ConfluenceExtras
import ConfluenceFoundation
import ConfluenceTesting
import Foundation
import Observation

extension LifetimeTracker.Tracked {
  /// Returns `value`: lets a closure use the tracked object it captured.
  func pass<T>(_ value: T) -> T { value }
}

/// Keeps a `connect()`'s token (or anything else the caller holds) for as long as the
/// caller holds the publisher.
final class MatrixHeld<P: Publisher>: Publisher {
  typealias Output = P.Output
  typealias Failure = P.Failure
  let base: P
  let held: Any
  init(_ base: P, holding held: Any) {
    self.base = base
    self.held = held
  }
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    base.subscribe(subscriber)
  }
}

/// A `TextOutputStream` for `print(_:to:)` that captures a tracked object.
struct MatrixStream: TextOutputStream {
  let tracked: LifetimeTracker.Tracked
  mutating func write(_ string: String) { _ = tracked.pass(string) }
}

/// An object for `assign(to:on:)` and `@Published`.
final class MatrixModel: ObservableObject {
  var value = 0
  @Published var published = 0
  let tracked: LifetimeTracker.Tracked
  init(_ tracked: LifetimeTracker.Tracked) { self.tracked = tracked }
}

/// Why a cell is not run, for the rows of operators another branch is rewriting.
enum MatrixKnown {
  static let fidelityOps = "known leak: the operator is being rewritten on the fidelity-ops branch; not run here"
}

/// The lifetime matrix: a row for every public publisher, operator, subject and subscriber
/// type of Confluence, ConfluenceFoundation and ConfluenceExtras.
///
/// A row names the type as the source declares it and says how to build one over the
/// matrix's upstreams (``MatrixContext/main`` and ``MatrixContext/other``), with every
/// closure it takes capturing a tracked object (``MatrixContext/capture(_:)``).
/// ``LifetimeMatrixTests`` runs each row × event × upstream and expects nothing tracked to
/// outlive the run: not the downstream, not a closure's capture, not the third-party
/// upstream's subscription.
enum LifetimeMatrix {
  typealias Row = LifetimeRow
  // nonisolated(unsafe): the rows are built once and only read, by the tests' one thread.
  nonisolated(unsafe) static let all: [Row] =
    operators + reducing + combining + timing + sharing + sources + subjects + subscribers + foundation + extras

  static let noFailure: [LifetimeEvent] = [.finished, .cancel, .cancelBeforeSubscription]
  static let cancelOnly: [LifetimeEvent] = [.cancel]

  // MARK: One upstream, per-value closures

  nonisolated(unsafe) static let operators: [Row] = [
    .op("Publishers.Map") { c in c.main.map { [t = c.capture()] in t.pass($0) } },
    .op("Publishers.TryMap") { c in c.main.tryMap { [t = c.capture()] in t.pass($0) } },
    .op("Publishers.MapError") { c in c.main.mapError { [t = c.capture()] in t.pass($0) } },
    .op("Publishers.MapKeyPath") { c in c.main.map(\.bitWidth) },
    .op("Publishers.MapKeyPath2") { c in c.main.map(\.bitWidth, \.magnitude) },
    .op("Publishers.MapKeyPath3") { c in c.main.map(\.bitWidth, \.magnitude, \.description) },
    .op("Publishers.Filter") { c in c.main.filter { [t = c.capture()] in t.pass($0) > 0 } },
    .op("Publishers.TryFilter") { c in c.main.tryFilter { [t = c.capture()] in t.pass($0) > 0 } },
    .op("Publishers.CompactMap") { c in c.main.compactMap { [t = c.capture()] in t.pass($0) } },
    .op("Publishers.TryCompactMap") { c in c.main.tryCompactMap { [t = c.capture()] in t.pass($0) } },
    .op("Publishers.Scan") { c in c.main.scan(0) { [t = c.capture()] in t.pass($0 + $1) } },
    .op("Publishers.TryScan") { c in c.main.tryScan(0) { [t = c.capture()] in t.pass($0 + $1) } },
    .op("Publishers.RemoveDuplicates") { c in c.main.removeDuplicates { [t = c.capture()] in t.pass($0 == $1) } },
    .op("Publishers.TryRemoveDuplicates") { c in
      c.main.tryRemoveDuplicates { [t = c.capture()] in t.pass($0 == $1) }
    },
    .op("Publishers.Drop") { c in c.main.dropFirst() }
      .keeping(
        ["downstream"], after: .cancelBeforeSubscription, over: [.confluence],
        because: "Apple's Drop never ends: a cancel before the subscription leaves it waiting, and it accepts "
          + "the late subscription (DropSubscription, as the conformance suite records it)"
      )
      .keeping(
        ["downstream", "upstream subscription"], after: .cancelBeforeSubscription, over: [.thirdParty],
        because: "the same late subscription; a third-party one keeps its subscriber, the two keep each other"),
    .op("Publishers.DropWhile") { c in c.main.drop { [t = c.capture()] in t.pass($0) < 0 } },
    .op("Publishers.TryDropWhile") { c in c.main.tryDrop { [t = c.capture()] in t.pass($0) < 0 } },
    .op("Publishers.PrefixWhile") { c in c.main.prefix { [t = c.capture()] in t.pass($0) < 10 } },
    .op("Publishers.TryPrefixWhile") { c in c.main.tryPrefix { [t = c.capture()] in t.pass($0) < 10 } },
    .op("Publishers.Output") { c in c.main.output(in: 0..<5) },
    .op("Publishers.HandleEvents") { c in
      c.main.handleEvents(
        receiveSubscription: { [t = c.capture()] in _ = t.pass($0) },
        receiveOutput: { [t = c.capture()] in _ = t.pass($0) },
        receiveCompletion: { [t = c.capture()] in _ = t.pass($0) },
        receiveCancel: { [t = c.capture()] in _ = t.pass(0) },
        receiveRequest: { [t = c.capture()] in _ = t.pass($0) })
    },
    .op("Publishers.Breakpoint") { c in
      c.main.breakpoint(
        receiveSubscription: { [t = c.capture()] _ in t.pass(false) },
        receiveOutput: { [t = c.capture()] _ in t.pass(false) },
        receiveCompletion: { [t = c.capture()] _ in t.pass(false) })
    },
    .op("Publishers.Print") { c in c.main.print("matrix", to: MatrixStream(tracked: c.capture())) },
    .op("Publishers.IgnoreOutput") { c in c.main.ignoreOutput() },
    .op("Publishers.ReplaceEmpty") { c in c.main.replaceEmpty(with: 0) },
    .op("Publishers.ReplaceError") { c in c.main.replaceError(with: 0) },
    .op("Publishers.AssertNoFailure", events: noFailure) { c in c.main.assertNoFailure() },
    .op("Publishers.SetFailureType") { c in
      c.main.catch { _ in Empty<Int, Never>() }.setFailureType(to: TestError.self)
    },
    .op("Publishers.Catch") { c in c.main.catch { [t = c.capture()] _ in t.pass(c.other) } },
    .op("Publishers.TryCatch") { c in c.main.tryCatch { [t = c.capture()] _ in t.pass(c.other) } },
    .op("Publishers.Retry") { c in c.main.retry(1) },
    .op("Publishers.Buffer") { c in c.main.buffer(size: 4, prefetch: .byRequest, whenFull: .dropOldest) },
    .op("Publishers.Encode") { c in c.main.encode(encoder: JSONEncoder()) },
    .op("Publishers.Decode") { c in
      c.main.map { _ in Data("1".utf8) }.decode(type: Int.self, decoder: JSONDecoder())
    },
    .op("AnyPublisher") { c in c.main.map { [t = c.capture()] in t.pass($0) }.eraseToAnyPublisher() },
  ]

  // MARK: Reducing

  nonisolated(unsafe) static let reducing: [Row] = [
    .op("Publishers.Collect") { c in c.main.collect() },
    .op("Publishers.CollectByCount") { c in c.main.collect(2) },
    .op("Publishers.Reduce") { c in c.main.reduce(0) { [t = c.capture()] in t.pass($0 + $1) } },
    .op("Publishers.TryReduce") { c in c.main.tryReduce(0) { [t = c.capture()] in t.pass($0 + $1) } },
    .op("Publishers.Count") { c in c.main.count() },
    .op("Publishers.Comparison") { c in c.main.max { [t = c.capture()] in t.pass($0 < $1) } },
    .op("Publishers.TryComparison") { c in c.main.tryMax { [t = c.capture()] in t.pass($0 < $1) } },
    .op("Publishers.Contains") { c in c.main.contains(99) },
    .op("Publishers.ContainsWhere") { c in c.main.contains { [t = c.capture()] in t.pass($0) == 99 } },
    .op("Publishers.TryContainsWhere") { c in c.main.tryContains { [t = c.capture()] in t.pass($0) == 99 } },
    .op("Publishers.AllSatisfy") { c in c.main.allSatisfy { [t = c.capture()] in t.pass($0) > 0 } },
    .op("Publishers.TryAllSatisfy") { c in c.main.tryAllSatisfy { [t = c.capture()] in t.pass($0) > 0 } },
    .op("Publishers.First") { c in c.main.first() },
    .op("Publishers.FirstWhere") { c in c.main.first { [t = c.capture()] in t.pass($0) == 99 } },
    .op("Publishers.TryFirstWhere") { c in c.main.tryFirst { [t = c.capture()] in t.pass($0) == 99 } },
    .op("Publishers.Last") { c in c.main.last() },
    .op("Publishers.LastWhere") { c in c.main.last { [t = c.capture()] in t.pass($0) > 0 } },
    .op("Publishers.TryLastWhere") { c in c.main.tryLast { [t = c.capture()] in t.pass($0) > 0 } },
  ]

  // MARK: Several upstreams

  nonisolated(unsafe) static let combining: [Row] = [
    .op("Publishers.Merge") { c in c.main.merge(with: c.other) },
    .op("Publishers.Merge3") { c in c.main.merge(with: c.other, c.other) },
    .op("Publishers.Merge4") { c in c.main.merge(with: c.other, c.other, c.other) },
    .op("Publishers.Merge5") { c in c.main.merge(with: c.other, c.other, c.other, c.other) },
    .op("Publishers.Merge6") { c in c.main.merge(with: c.other, c.other, c.other, c.other, c.other) },
    .op("Publishers.Merge7") { c in c.main.merge(with: c.other, c.other, c.other, c.other, c.other, c.other) },
    .op("Publishers.Merge8") { c in
      c.main.merge(with: c.other, c.other, c.other, c.other, c.other, c.other, c.other)
    },
    .op("Publishers.MergeMany") { c in Publishers.MergeMany(c.main, c.other) },
    .op("Publishers.Zip") { c in c.main.zip(c.other) },
    .op("Publishers.Zip3") { c in c.main.zip(c.other, c.other) },
    .op("Publishers.Zip4") { c in c.main.zip(c.other, c.other, c.other) },
    .op("Publishers.CombineLatest") { c in c.main.combineLatest(c.other) },
    .op("Publishers.CombineLatest3") { c in c.main.combineLatest(c.other, c.other) },
    .op("Publishers.CombineLatest4") { c in c.main.combineLatest(c.other, c.other, c.other) },
    .op("Publishers.Concatenate") { c in c.main.append(c.other) },
    .op("Publishers.FlatMap") { c in c.main.flatMap { [t = c.capture()] _ in t.pass(c.other) } },
    .op("Publishers.SwitchToLatest") { c in c.main.map { [t = c.capture()] _ in t.pass(c.other) }.switchToLatest() },
    .op("Publishers.DropUntilOutput") { c in c.main.drop(untilOutputFrom: c.other) },
    .op("Publishers.PrefixUntilOutput") { c in c.main.prefix(untilOutputFrom: c.other) },
  ]

  // MARK: Time

  nonisolated(unsafe) static let timing: [Row] = [
    .op("Publishers.Delay") { c in c.main.delay(for: 2, scheduler: c.scheduler) },
    .op("Publishers.Debounce") { c in c.main.debounce(for: 2, scheduler: c.scheduler) },
    .op("Publishers.Throttle") { c in c.main.throttle(for: 2, scheduler: c.scheduler, latest: true) },
    .op("Publishers.Timeout") { c in
      c.main.timeout(50, scheduler: c.scheduler, customError: { [t = c.capture()] in t.pass(TestError("timeout")) })
    },
    .op("Publishers.MeasureInterval") { c in c.main.measureInterval(using: c.scheduler) },
    .op("Publishers.CollectByTime") { c in c.main.collect(.byTime(c.scheduler, 5)) },
    .op("Publishers.ReceiveOn") { c in c.main.receive(on: c.scheduler) },
    .op("Publishers.SubscribeOn") { c in c.main.subscribe(on: c.scheduler) },
  ]

  // MARK: Sharing

  nonisolated(unsafe) static let sharing: [Row] = [
    .op("Publishers.Share") { c in c.main.share() },
    .op("Publishers.Multicast") { c in
      let multicast = c.main.multicast { [t = c.capture()] in t.pass(PassthroughSubject<Int, TestError>()) }
      return MatrixHeld(multicast, holding: AnyCancellable(multicast.connect()))
    },
    .op("Publishers.Multicast") { c in
      let multicast = c.main.multicast(subject: ThirdPartySubject<Int, TestError>())
      return MatrixHeld(multicast, holding: AnyCancellable(multicast.connect()))
    },
    .op("Publishers.Autoconnect") { c in
      c.main.multicast { [t = c.capture()] in t.pass(ThirdPartySubject<Int, TestError>()) }.autoconnect()
    },
    .op("Publishers.MakeConnectable") { c in
      let connectable = c.main.catch { _ in Empty<Int, Never>() }.makeConnectable()
      return MatrixHeld(connectable, holding: AnyCancellable(connectable.connect()))
    },
  ]

  // MARK: Publishers with no upstream

  nonisolated(unsafe) static let sources: [Row] = [
    .source("Just", events: [.finished]) { _ in Just(1) },
    .source("Empty", events: [.finished]) { _ in Empty<Int, Never>() },
    .source("Fail", events: [.failure]) { _ in Fail<Int, TestError>(error: TestError()) },
    .source("Publishers.Sequence", events: [.finished]) { _ in [1, 2, 3].publisher },
    .source("Record", events: [.finished]) { _ in Record<Int, TestError>(output: [1, 2], completion: .finished) },
    .source("Optional.Publisher", events: [.finished]) { _ in Optional(1).publisher },
    .source("Result.Publisher", events: [.finished, .failure]) { _ in Result<Int, TestError>.success(1).publisher },
    .source("Deferred", events: LifetimeEvent.allCases) { c in Deferred { [t = c.capture()] in t.pass(c.main) } },
    .source("Future", events: [.finished, .failure, .cancel]) { c in
      let future = Future<Int, TestError> { [t = c.capture()] promise in
        _ = t.pass(0)
        c.extras.onFinish.append { promise(.success(1)) }
        c.extras.onFail.append { promise(.failure(TestError())) }
      }
      return future
    },
  ]

  // MARK: Subjects

  nonisolated(unsafe) static let subjects: [Row] = [
    .source("PassthroughSubject", events: [.finished, .failure, .cancel]) { c in
      let subject = PassthroughSubject<Int, TestError>()
      c.extras.onFinish.append { subject.send(completion: .finished) }
      c.extras.onFail.append { subject.send(completion: .failure(TestError())) }
      return subject.map { [t = c.capture()] in t.pass($0) }
    },
    .source("CurrentValueSubject", events: [.finished, .failure, .cancel]) { c in
      let subject = CurrentValueSubject<Int, TestError>(0)
      c.extras.onFinish.append { subject.send(completion: .finished) }
      c.extras.onFail.append { subject.send(completion: .failure(TestError())) }
      return subject.map { [t = c.capture()] in t.pass($0) }
    },
    .source("ObservableObjectPublisher", events: cancelOnly) { c in
      let model = MatrixModel(c.capture("model"))
      return MatrixHeld(model.objectWillChange, holding: model)
    },
    .source("Published.Publisher", events: cancelOnly) { c in
      let model = MatrixModel(c.capture("model"))
      return MatrixHeld(model.$published, holding: model)
    },
    // A subject as the subscriber of an upstream (`subscribe(_:)`), then subscribed to.
    .op("Publisher.subscribe(Subject)") { c in
      let subject = PassthroughSubject<Int, TestError>()
      return MatrixHeld(subject, holding: c.main.subscribe(subject))
    },
    .op("Publisher.subscribe(ThirdPartySubject)") { c in
      let subject = ThirdPartySubject<Int, TestError>()
      return MatrixHeld(subject, holding: c.main.subscribe(subject))
    },
  ]

  // MARK: Subscribers (the downstream is the subscriber under test, held until the end)

  nonisolated(unsafe) static let subscribers: [Row] = [
    .custom("Subscribers.Sink", events: LifetimeEvent.allCases) { upstream, event in
      runSubscriberCell(upstream: upstream, event: event) { c in
        Subscribers.Sink<Int, TestError>(
          receiveCompletion: { [t = c.capture()] in _ = t.pass($0) },
          receiveValue: { [t = c.capture()] in _ = t.pass($0) })
      }
    }
    .keeping(
      ["closure (while the subscriber is held)", "closure (while the subscriber is held)", "closure", "closure"],
      after: .cancelBeforeSubscription, over: [.confluence],
      because: "Apple's sink has nothing to cancel before its subscription: the cancel does nothing, the late "
        + "subscription is accepted and live while its upstream lives (PrintTests/testSynchronization records a "
        + "sink cancelled before its subscription still counting values)"
    )
    .keeping(
      [
        "closure (while the subscriber is held)", "closure (while the subscriber is held)",
        "upstream subscription (while the subscriber is held)", "closure", "closure", "upstream subscription",
      ],
      after: .cancelBeforeSubscription, over: [.thirdParty],
      because: "the same: the sink is live on the late subscription, which it keeps and which keeps it"),
    .custom("Subscribers.Assign", events: [.finished, .cancel, .cancelBeforeSubscription]) { upstream, event in
      runSubscriberCell(upstream: upstream, event: event) { c in
        Subscribers.Assign(object: MatrixModel(c.capture("assigned object")), keyPath: \.value)
      } input: {
        $0.catch { _ in Empty<Int, Never>() }
      }
    },
    .custom("AnySubscriber", events: [.finished, .failure]) { upstream, event in
      runSubscriberCell(upstream: upstream, event: event) { c in
        AnySubscriber<Int, TestError>(
          receiveSubscription: { [t = c.capture()] in
            _ = t.pass($0); $0.request(.unlimited)
          },
          receiveValue: { [t = c.capture()] in
            _ = t.pass($0)
            return .none
          },
          receiveCompletion: { [t = c.capture()] in _ = t.pass($0) })
      }
    },
  ]

  // MARK: ConfluenceFoundation

  nonisolated(unsafe) static let foundation: [Row] = [
    .source("NotificationCenter.Publisher", events: cancelOnly) { c in
      NotificationCenter.default.publisher(for: Notification.Name("LifetimeMatrix")).map { [t = c.capture()] in
        t.pass($0.name)
      }
    },
    .source("Timer.TimerPublisher", events: cancelOnly) { c in
      Timer.publish(every: 1000, on: .main, in: .default).autoconnect().map { [t = c.capture()] in t.pass($0) }
    },
    .source("ObservationPublisher", events: cancelOnly) { c in
      let object = MatrixObserved(c.capture("observed object"))
      return MatrixHeld(object.observationPublisher(for: \.value), holding: object)
    },
    LifetimeRow(
      type: "URLSession.DataTaskPublisher", upstreams: [], events: [],
      knownFailures: ["*": "not run: needs a URL session; DataTaskPublisherTests covers its lifetime with a fake task"]
    ) { _, _ in nil },
    LifetimeRow(
      type: "KeyValueObservingPublisher", upstreams: [], events: [],
      knownFailures: [
        "*": "not run: a porting hint, unavailable where there is no Objective-C runtime (it cannot be used)"
      ]
    ) { _, _ in nil },
  ]

  // MARK: ConfluenceExtras

  nonisolated(unsafe) static let extras: [Row] = [
    .op("ReplaySubject") { c in c.main.share(replay: 2) },
    .op("Publishers.WithLatestFrom") { c in c.main.withLatestFrom(c.other) },
    .op("Publishers.Materialize") { c in c.main.materialize() },
    .op("Publishers.Dematerialize") { c in
      c.main.map { [t = c.capture()] in PublisherEvent<Int, TestError>.output(t.pass($0)) }.dematerialize()
    },
    .op("Publishers.SetFailureTypeForEvents") { c in c.main.materialize().dematerialize() },
    .op("Publishers.DelayedRetry") { c in c.main.retry(1, initialDelay: 1, scheduler: c.scheduler) },
    .op("Publisher.concatMap") { c in c.main.concatMap { [t = c.capture()] _ in t.pass(c.other) } },
    .op("Publisher.flatMapLatest") { c in c.main.flatMapLatest { [t = c.capture()] _ in t.pass(c.other) } },
    .source("Publishers.Create", events: LifetimeEvent.allCases) { c in
      Publishers.Create<Int, TestError> { [t = c.capture()] emitter in
        _ = t.pass(0)
        return c.main.sink(
          receiveCompletion: { emitter.send(completion: $0) }, receiveValue: { emitter.send($0) })
      }
    },
    LifetimeRow(
      type: "Publishers.FromAsync", upstreams: [], events: [],
      knownFailures: ["*": "not run: runs a Task; AsyncBridgesTests covers its cancellation"]
    ) { _, _ in nil },
    LifetimeRow(
      type: "Publishers.FromAsyncSequence", upstreams: [], events: [],
      knownFailures: ["*": "not run: runs a Task; AsyncBridgesTests covers its cancellation"]
    ) { _, _ in nil },
  ]
}

/// An `@Observable`-style object for `observationPublisher(for:)`.
@Observable
final class MatrixObserved {
  var value = 0
  @ObservationIgnored let tracked: LifetimeTracker.Tracked
  init(_ tracked: LifetimeTracker.Tracked) { self.tracked = tracked }
}

/// Runs a cell whose subscriber is the type under test: subscribes what `make` builds to the
/// main upstream (through `input`), ends as `event` says while the test still holds the
/// subscriber, and returns what survived — the subscriber itself excepted, whose closures
/// or object must be let go of while it lives.
func runSubscriberCell<S: Subscriber, P: Publisher>(
  upstream: LifetimeUpstream, event: LifetimeEvent, _ make: (MatrixContext) -> S,
  input: (MatrixSource) -> P
) -> [String] where P.Output == S.Input, P.Failure == S.Failure {
  let tracker = LifetimeTracker()
  let labels = MatrixLabels()
  let main = MatrixSource(kind: upstream, tracker: tracker, labels: labels)
  let other = MatrixSource(kind: upstream, tracker: tracker, labels: labels)
  let context = MatrixContext(
    main: main, other: other, scheduler: VirtualTimeScheduler(), tracker: tracker, labels: labels,
    extras: MatrixExtras())
  var survivors: [String] = []
  do {
    let subscriber = make(context)
    survivors = check(subscriber)
  }
  survivors += labels.survivors
  main.cleanUp()
  return survivors

  func check(_ subscriber: S) -> [String] {
    if event == .cancelBeforeSubscription { main.holdsSubscriptionsBack = true }
    input(main).subscribe(subscriber)
    switch event {
    case .finished:
      main.send(1)
      main.send(completion: .finished)
    case .failure:
      main.send(1)
      main.send(completion: .failure(TestError("matrix")))
    case .cancel:
      main.send(1)
      (subscriber as? Cancellable)?.cancel()
    case .cancelBeforeSubscription:
      (subscriber as? Cancellable)?.cancel()
      main.attach()
    }
    // A cancellable subscriber (Sink, Assign) lets go of what it was given at the end, while
    // the caller still holds it; AnySubscriber cannot end itself, so it is checked once the
    // caller let go of it.
    let whileHeld = subscriber is Cancellable ? labels.survivors.map { "\($0) (while the subscriber is held)" } : []
    withExtendedLifetime(subscriber) {}
    return whileHeld
  }
}

func runSubscriberCell<S: Subscriber>(
  upstream: LifetimeUpstream, event: LifetimeEvent, _ make: (MatrixContext) -> S
) -> [String] where S.Input == Int, S.Failure == TestError {
  runSubscriberCell(upstream: upstream, event: event, make) { $0 }
}
