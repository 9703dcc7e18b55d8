import BenchSupport
import OpenCombine

// The comparison suite with RxSwift (issue 35: "each test at least 3× faster than RxSwift"):
// RxSwift's own benchmarks (PublishSubject, map/filter, flatMap, flatMapLatest,
// combineLatest; each pumping values through one pipeline and creating a pipeline per
// item), written for Combine as apps port them. Its source publisher is what such ports
// write for `Observable.create`: a publisher of their own that hands an `AnySubscriber` to a
// closure and ignores demand. The same source text as the other workload module's
// RxSuite.swift, over OpenCombine. Keep the two in step.

extension OpenCombineWorkloads {
  static var rxSuite: [Implementation] {
    var result: [Implementation] = [
      .sync(.openCombine, .rxSubjectPumping, note: "PassthroughSubject → Sink", rxSubjectPumping),
      .sync(.openCombine, .rxSubjectPumping2, note: "PassthroughSubject → 2 × Sink", rxSubjectPumping2),
      .sync(.openCombine, .rxSubjectCreating, note: "PassthroughSubject → Sink, send, cancel", rxSubjectCreating),
      .sync(
        .openCombine, .rxMapFilterPumping, note: "AnyPublisher(closure) → 6 × (Map → Filter) → Sink", rxMapFilterPumping
      ),
      .sync(
        .openCombine, .rxMapFilterCreating, note: "AnyPublisher(closure) → 6 × (Map → Filter) → Sink, cancel",
        rxMapFilterCreating),
      .sync(
        .openCombine, .rxFlatMapsPumping, note: "AnyPublisher(closure) → 5 × FlatMap<Just> → Sink", rxFlatMapsPumping),
      .sync(
        .openCombine, .rxFlatMapsCreating, note: "AnyPublisher(closure) → 5 × FlatMap<Just> → Sink, cancel",
        rxFlatMapsCreating),
      .sync(
        .openCombine, .rxFlatMapLatestPumping, note: "AnyPublisher(closure) → 5 × (Map<Just> → SwitchToLatest) → Sink",
        rxFlatMapLatestPumping),
      .sync(
        .openCombine, .rxFlatMapLatestCreating,
        note: "AnyPublisher(closure) → 5 × (Map<Just> → SwitchToLatest) → Sink, cancel", rxFlatMapLatestCreating),
    ]
    #if HAS_COMBINE_LATEST
      result += [
        .sync(
          .openCombine, .rxCombineLatestPumping,
          note: "7 × AnyPublisher(Map(CombineLatest4<Just, Just, Just, level below>)) over [Int].publisher → Sink",
          rxCombineLatestPumping),
        .sync(
          .openCombine, .rxCombineLatestCreating,
          note: "7 × AnyPublisher(Map(CombineLatest4)) over AnyPublisher(closure) → Sink, cancel",
          rxCombineLatestCreating),
      ]
    #else
      result += [
        .missing(.openCombine, .rxCombineLatestPumping, "no CombineLatest in this library"),
        .missing(.openCombine, .rxCombineLatestCreating, "no CombineLatest in this library"),
      ]
    #endif
    return result
  }

  /// N values sent to a subject with one sink.
  @inline(never)
  static func rxSubjectPumping(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    let subject = PassthroughSubject<Int, Never>()
    let subscription = subject.sink { sum.add($0) }
    for _ in 0..<n { subject.send(1) }
    subscription.cancel()
    return sum.finish()
  }

  /// N values sent to a subject with two sinks (2N deliveries).
  @inline(never)
  static func rxSubjectPumping2(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    let subject = PassthroughSubject<Int, Never>()
    let first = subject.sink { sum.add($0) }
    let second = subject.sink { sum.add($0) }
    for _ in 0..<n { subject.send(1) }
    first.cancel()
    second.cancel()
    return sum.finish()
  }

  /// Per item: a new subject, a sink, one value, cancel.
  @inline(never)
  static func rxSubjectCreating(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    for _ in 0..<n {
      let subject = PassthroughSubject<Int, Never>()
      let subscription = subject.sink { sum.add($0) }
      subject.send(1)
      subscription.cancel()
    }
    return sum.finish()
  }

  @inline(__always)
  static func mapFilters(_ source: AnyPublisher<Int, Never>, _ sum: Accumulator) -> AnyCancellable {
    source.map { $0 }.filter { _ in true }.map { $0 }.filter { _ in true }.map { $0 }.filter { _ in true }
      .map { $0 }.filter { _ in true }.map { $0 }.filter { _ in true }.map { $0 }.filter { _ in true }
      .sink { sum.add($0) }
  }

  @inline(never)
  static func rxMapFilterPumping(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    let subscription = mapFilters(ClosurePublisher.erased(sending: n), sum)
    subscription.cancel()
    return sum.finish()
  }

  @inline(never)
  static func rxMapFilterCreating(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    for _ in 0..<n {
      let subscription = mapFilters(ClosurePublisher.erased(sending: 1), sum)
      subscription.cancel()
    }
    return sum.finish()
  }

  @inline(__always)
  static func flatMaps(_ source: AnyPublisher<Int, Never>, _ sum: Accumulator) -> AnyCancellable {
    source.flatMap { Just($0) }.flatMap { Just($0) }.flatMap { Just($0) }.flatMap { Just($0) }
      .flatMap { Just($0) }.sink { sum.add($0) }
  }

  @inline(never)
  static func rxFlatMapsPumping(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    let subscription = flatMaps(ClosurePublisher.erased(sending: n), sum)
    subscription.cancel()
    return sum.finish()
  }

  @inline(never)
  static func rxFlatMapsCreating(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    for _ in 0..<n {
      let subscription = flatMaps(ClosurePublisher.erased(sending: 1), sum)
      subscription.cancel()
    }
    return sum.finish()
  }

  @inline(__always)
  static func latests(_ source: AnyPublisher<Int, Never>, _ sum: Accumulator) -> AnyCancellable {
    source.map { Just($0) }.switchToLatest().map { Just($0) }.switchToLatest().map { Just($0) }.switchToLatest()
      .map { Just($0) }.switchToLatest().map { Just($0) }.switchToLatest().sink { sum.add($0) }
  }

  @inline(never)
  static func rxFlatMapLatestPumping(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    let subscription = latests(ClosurePublisher.erased(sending: n), sum)
    subscription.cancel()
    return sum.finish()
  }

  @inline(never)
  static func rxFlatMapLatestCreating(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    for _ in 0..<n {
      let subscription = latests(ClosurePublisher.erased(sending: 1), sum)
      subscription.cancel()
    }
    return sum.finish()
  }

  #if HAS_COMBINE_LATEST
    /// Six levels of `Just(1).combineLatest(Just(1), Just(1), last) { x, _, _, _ in x }`, erased,
    /// over `bottom`, and a sink.
    @inline(__always)
    static func combineLatests(_ bottom: AnyPublisher<Int, Never>, _ sum: Accumulator) -> AnyCancellable {
      var last = bottom
      for _ in 0..<6 {
        last = Just(1).combineLatest(Just(1), Just(1), last) { x, _, _, _ in x }.eraseToAnyPublisher()
      }
      return last.sink { sum.add($0) }
    }

    @inline(never)
    static func rxCombineLatestPumping(_ n: Int) -> UInt64 {
      let sum = Accumulator()
      let ones = (0..<n).map { _ in 1 }.publisher
      let bottom = Just(1).combineLatest(Just(1), Just(1), ones) { x, _, _, _ in x }.eraseToAnyPublisher()
      let subscription = combineLatests(bottom, sum)
      subscription.cancel()
      return sum.finish()
    }

    @inline(never)
    static func rxCombineLatestCreating(_ n: Int) -> UInt64 {
      let sum = Accumulator()
      for _ in 0..<n {
        let bottom = ClosurePublisher.erased(sending: 1).combineLatest(Just(1), Just(1), Just(1)) { x, _, _, _ in x }
          .eraseToAnyPublisher()
        let subscription = combineLatests(bottom, sum)
        subscription.cancel()
      }
      return sum.finish()
    }
  #endif
}

/// What ports of RxSwift's `Observable.create` write over Combine: a publisher that hands its
/// subscriber, wrapped in an `AnySubscriber`, to a closure once it has sent it a subscription
/// that ignores demand and forgets the subscriber on cancel.
struct ClosurePublisher: Publisher {
  typealias Output = Int
  typealias Failure = Never

  let body: (AnySubscriber<Int, Never>) -> Void

  /// A closure publisher that sends `count` ones, erased as apps hand it out.
  static func erased(sending count: Int) -> AnyPublisher<Int, Never> {
    ClosurePublisher { subscriber in
      for _ in 0..<count { _ = subscriber.receive(1) }
    }.eraseToAnyPublisher()
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    let subscription = ClosureSubscription(subscriber)
    subscriber.receive(subscription: subscription)
    subscription.start(body)
  }
}

/// ``ClosurePublisher``'s subscription: demand is ignored; cancel forgets the subscriber.
final class ClosureSubscription<Downstream: Subscriber>: Subscription where Downstream.Input == Int {
  private var downstream: Downstream?

  init(_ downstream: Downstream) { self.downstream = downstream }

  func start(_ body: (AnySubscriber<Int, Downstream.Failure>) -> Void) {
    if let downstream { body(AnySubscriber(downstream)) }
  }

  func request(_ demand: Subscribers.Demand) {}

  func cancel() { downstream = nil }
}
