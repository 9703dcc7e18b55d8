import Confluence
import Foundation
import Synchronization
import XCTest

/// First values arriving from two threads at once (into `flatMap`, `merge`, `zip`,
/// `combineLatest`, the subjects, `share`, futures, sequences, `Just`, `reduce`, `collect`),
/// and `flatMap`'s and `merge`'s endings (completions, failures, inners that finish at once)
/// on two threads at once, each round with a downstream of a type never used before, in
/// generic code the compiler did not specialise (the test module is not optimised, and the
/// types are made at run time).
///
/// Types that generic code names only at run time (a tuple of downstream and a flag, say)
/// are made by the runtime the first time they are asked for; a thread that asks while
/// another makes one can get it before it is complete. `flatMap`'s value path once formed
/// such a tuple and crashed here about once in 400 runs of the stress tests (and in every
/// run of this test); its completion paths formed four more and crashed in every run of the
/// ending scenarios. This class makes fresh types each round, so that every round is a
/// first time.
final class FirstValuesStressTests: XCTestCase {
  #if CONFLUENCE_THREAD_SANITIZER
    private let rounds = 200
  #else
    private let rounds = 1000
  #endif

  func test_firstValuesFromTwoThreads_withADownstreamTypeNeverUsedBefore_eachDeliveredOnce() {
    // Each round numbers its types apart from every other round's. (Under the address
    // sanitizer the ending scenarios reported a write past a stack slot sized from metadata
    // the runtime had not finished: see `Scripts/check-abstract-metadata`.)
    for (offset, scenario) in FirstValuesScenario.allCases.enumerated() {
      for round in 0..<rounds {
        let delivered = FirstValuesRace.run(Int.self, number: 1 + offset * rounds + round, scenario: scenario)
        XCTAssertEqual(delivered.sorted(), scenario.expected, "\(scenario), round \(round)")
      }
    }
  }
}

/// Types made at run time, one level per binary digit (see `FirstValuesRace.run`).
private struct Bit0<Inner> {}
private struct Bit1<Inner> {}

/// A value whose type is generic over a marker, so that each marker makes the types built
/// from it (tuples of two, a downstream's input) new.
private struct Tagged<Marker>: Equatable {
  let n: Int
}

/// A failure whose type is generic over a marker, as ``Tagged``.
private struct TaggedError<Marker>: Error {
  let n: Int
}

/// The pipelines whose first values race: two sources, each sent to from its own thread.
enum FirstValuesScenario: CaseIterable, Sendable {
  case flatMap, merge, zip, combineLatest, subject, currentValueSubject, share
  /// Two futures of one type fulfilled at once, two sequences and two `Just`s subscribed to
  /// at once: each thread has a pipeline of its own, of the same new types.
  case future, sequence, just
  /// Two subjects each reduced, or collected, to one value, each sent to and finished from
  /// its own thread.
  case reduce, collect
  /// Each thread runs a pipeline of its own, of the same new types, through `flatMap`'s
  /// endings: an inner that finishes after its value, upstream finishing, an inner that
  /// finishes as it is subscribed (`Empty`), an inner that fails (caught), and `merge`'s
  /// subscriptions and completions.
  case flatMapEndings, flatMapFailure, merged
  /// Each thread runs a pipeline of its own through `debounce` on the immediate scheduler,
  /// whose completion is delivered through the scheduler, to a `map`.
  case debounced

  /// The values (or pairs) downstream must end with, in any order.
  var expected: [Int] {
    switch self {
    case .flatMap, .merge, .subject, .currentValueSubject, .future, .sequence, .just, .reduce, .collect,
      .flatMapEndings, .flatMapFailure, .merged, .debounced:
      [0, 1]
    case .zip, .combineLatest: [1]  // one pair: (0, 1), summed
    case .share: [0, 0, 1, 1]  // two subscribers, each gets both
    }
  }
}

private enum FirstValuesRace {
  /// Makes a type of its own for `number` (at least 1) from `T`, one level per binary
  /// digit below the leading one (`Bit1<Bit0<Int>>` for 0b101), then races two first values
  /// through `scenario`, whose types are generic over it; returns what downstream received.
  static func run<T>(_ type: T.Type, number: Int, scenario: FirstValuesScenario) -> [Int] {
    if number == 1 { return race(T.self, scenario: scenario) }
    return number & 1 == 0
      ? run(Bit0<T>.self, number: number >> 1, scenario: scenario)
      : run(Bit1<T>.self, number: number >> 1, scenario: scenario)
  }

  static func race<T>(_ type: T.Type, scenario: FirstValuesScenario) -> [Int] {
    let sources = [PassthroughSubject<Tagged<T>, Never>(), PassthroughSubject<Tagged<T>, Never>()]
    var sends: [@Sendable () -> Void] = sources.indices.map { index in { sources[index].send(Tagged(n: index)) } }
    let single = RecordingSubscriber<Tagged<T>>()
    let pairs = RecordingSubscriber<(Tagged<T>, Tagged<T>)>()
    var subscribers: [Cancelling] = [single]
    var collect: () -> [Int] = { single.values.map(\.n) }
    switch scenario {
    case .flatMap:
      Publishers.Sequence<[Int], Never>(sequence: [0, 1]).flatMap { sources[$0] }.subscribe(single)
    case .merge:
      sources[0].merge(with: sources[1]).subscribe(single)
    case .zip:
      sources[0].zip(sources[1]).subscribe(pairs)
    case .combineLatest:
      sources[0].combineLatest(sources[1]).subscribe(pairs)
    case .subject:
      sources[0].subscribe(single)
      sends = [0, 1].map { value in { sources[0].send(Tagged(n: value)) } }
    case .currentValueSubject:
      let subject = CurrentValueSubject<Tagged<T>, Never>(Tagged(n: -1))
      subject.dropFirst().subscribe(single)
      sends = [0, 1].map { value in { subject.send(Tagged(n: value)) } }
    case .share:
      let shared = sources[0].share()
      let other = RecordingSubscriber<Tagged<T>>()
      shared.subscribe(single)
      shared.subscribe(other)
      subscribers.append(other)
      collect = { (single.values + other.values).map(\.n) }
      sends = [0, 1].map { value in { sources[0].send(Tagged(n: value)) } }
    case .future:
      let other = RecordingSubscriber<Tagged<T>>()
      let promises = PromiseBox<Tagged<T>>()
      Future<Tagged<T>, Never> { promises.add($0) }.subscribe(single)
      Future<Tagged<T>, Never> { promises.add($0) }.subscribe(other)
      subscribers.append(other)
      collect = { (single.values + other.values).map(\.n) }
      sends = [0, 1].map { value in { promises.fulfil(value, with: Tagged(n: value)) } }
    case .reduce, .collect:
      let other = RecordingSubscriber<Tagged<T>>()
      subscribers.append(other)
      collect = { (single.values + other.values).map(\.n) }
      for (source, subscriber) in zip(sources, [single, other]) {
        if scenario == .reduce {
          source.reduce(Tagged<T>(n: 0)) { Tagged(n: $0.n + $1.n) }.subscribe(subscriber)
        } else {
          source.collect().map { Tagged<T>(n: $0.reduce(0) { $0 + $1.n }) }.subscribe(subscriber)
        }
      }
      sends = sources.indices.map { index in
        {
          sources[index].send(Tagged(n: index))
          sources[index].send(completion: .finished)
        }
      }
    case .flatMapEndings, .flatMapFailure, .merged, .debounced:
      let other = RecordingSubscriber<Tagged<T>>()
      subscribers.append(other)
      collect = { (single.values + other.values).map(\.n) }
      sends = [(0, single), (1, other)].map { value, subscriber in
        {
          switch scenario {
          case .flatMapEndings:
            Publishers.Sequence<[Int], Never>(sequence: [value, -1]).flatMap { n in
              n < 0
                ? Publishers.Sequence<[Tagged<T>], Never>(sequence: []) : Publishers.Sequence(sequence: [Tagged(n: n)])
            }
            .flatMap { Empty<Tagged<T>, Never>().append($0) }
            .subscribe(subscriber)
          case .flatMapFailure:
            Publishers.Sequence<[Int], TaggedError<T>>(sequence: [value]).flatMap { n in
              Fail<Tagged<T>, TaggedError<T>>(error: TaggedError(n: n))
            }
            .catch { Just(Tagged<T>(n: $0.n)) }
            .subscribe(subscriber)
          case .debounced:
            Publishers.Sequence<[Tagged<T>], Never>(sequence: [Tagged(n: value)])
              .debounce(for: .zero, scheduler: ImmediateScheduler.shared)
              .map { $0 }  // a downstream that is a structure of generic layout
              .subscribe(subscriber)
          default:
            Publishers.Sequence<[Tagged<T>], Never>(sequence: [Tagged(n: value)])
              .merge(with: Empty<Tagged<T>, Never>())
              .subscribe(subscriber)
          }
        }
      }
    case .sequence, .just:
      let other = RecordingSubscriber<Tagged<T>>()
      subscribers.append(other)
      collect = { (single.values + other.values).map(\.n) }
      let isJust = scenario == .just
      sends = [(0, single), (1, other)].map { value, subscriber in
        {
          if isJust {
            Just(Tagged<T>(n: value)).subscribe(subscriber)
          } else {
            Publishers.Sequence<[Tagged<T>], Never>(sequence: [Tagged(n: value)]).subscribe(subscriber)
          }
        }
      }
    }
    if scenario == .zip || scenario == .combineLatest {
      subscribers = [pairs]
      collect = { pairs.values.map { $0.0.n + $0.1.n } }
    }
    let arrived = Atomic<Int>(0)
    let group = DispatchGroup()
    for send in sends {
      group.enter()
      Thread.detachNewThread {
        // Both threads spin until both are here, so that the sends start together; after a
        // while they yield, so that a machine busy with other work lets the other one run.
        arrived.add(1, ordering: .acquiringAndReleasing)
        var spins = 0
        while arrived.load(ordering: .acquiring) < 2 {
          spins += 1
          if spins > 2_000 { sched_yield() }
        }
        send()
        group.leave()
      }
    }
    group.wait()
    for subscriber in subscribers { subscriber.cancel() }
    return collect()
  }
}

/// The promises of the futures of a round, in the order the futures were made.
private final class PromiseBox<Output>: @unchecked Sendable {
  // @unchecked Sendable: `promises` is touched under `lock`.
  private let lock = NSLock()
  private var promises: [Future<Output, Never>.Promise] = []

  func add(_ promise: @escaping Future<Output, Never>.Promise) {
    lock.withLock { promises.append(promise) }
  }

  func fulfil(_ index: Int, with value: Output) {
    let promise = lock.withLock { promises[index] }
    promise(.success(value))
  }
}

/// What the race cancels at its end.
private protocol Cancelling: AnyObject {
  func cancel()
}

/// Asks for everything and keeps what it receives; generic over its input, so that each
/// round makes a downstream type of its own.
private final class RecordingSubscriber<Input>: Subscriber, Cancelling, @unchecked Sendable {
  // @unchecked Sendable: `received` and `subscription` are touched under `lock`.
  typealias Failure = Never

  private let lock = NSLock()
  private var received: [Input] = []
  private var subscription: Subscription?

  var values: [Input] { lock.withLock { received } }

  func receive(subscription: Subscription) {
    lock.withLock { self.subscription = subscription }
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.withLock { received.append(input) }
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {}

  func cancel() {
    let subscription = lock.withLock { () -> Subscription? in
      defer { self.subscription = nil }
      return self.subscription
    }
    subscription?.cancel()
  }
}
