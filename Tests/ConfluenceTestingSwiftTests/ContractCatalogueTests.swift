import Confluence
import ConfluenceExtras
import ConfluenceFoundation
import ConfluenceTesting
import Foundation
import Testing

/// PublisherVerification over Confluence's publishers and operators and the extras': one
/// row per type, each a separate test case in which every rule is a separate check.
///
/// Each row is a name and a factory: given a count, a publisher that sends that many
/// values when asked, then completes. Upstreams are erased (`AnyPublisher`) so that each
/// row exercises the operator's own type rather than a specialised overload (`map` on a
/// `Publishers.Sequence` is a `Publishers.Sequence`).
@Suite struct ContractCatalogueTests {
  @Test(arguments: ContractCatalogue.rows)
  func keepsTheContract(_ row: AnyPublisherVerification) {
    let deviations = ContractCatalogue.deviations[row.name] ?? [:]
    for rule in ContractRule.allCases {
      if let reason = deviations[rule] {
        // Apple's operator breaks this rule, and Confluence's does as Apple's: the breach
        // is expected (and the test fails if it ever stops).
        withKnownIssue(Comment(rawValue: reason)) {
          row.verify(rule)
        } matching: { issue in
          issue.comments.contains { $0.rawValue.contains("breaks Rule \(rule.number):") }
        }
      } else {
        row.verify(rule)
      }
    }
  }

  @Test func theCatalogueNamesEachRowOnce() {
    let names = ContractCatalogue.rows.map(\.name)
    #expect(Set(names).count == names.count)
    #expect(Set(ContractCatalogue.deviations.keys).isSubset(of: Set(names)))
  }
}

/// The rows: (name, factory) pairs, erased.
enum ContractCatalogue {
  /// `count` values, `0..<count`, behind an `AnyPublisher`.
  static func source(_ count: Int) -> AnyPublisher<Int, Never> {
    (0..<count).publisher.eraseToAnyPublisher()
  }

  static func failing(_ count: Int) -> AnyPublisher<Int, TestError> {
    (0..<count).publisher.setFailureType(to: TestError.self).eraseToAnyPublisher()
  }

  static func cold<P: Publisher>(
    _ name: String, _ counts: ClosedRange<Int> = 0...64,
    requestNone: PublisherVerification<P>.RequestNoneBehaviour = .traps,
    _ make: @escaping @Sendable (Int) -> P
  ) -> AnyPublisherVerification {
    AnyPublisherVerification(PublisherVerification(name, valueCounts: counts, requestNone: requestNone, makePublisher: make))
  }

  static func hot<P: Publisher>(
    _ name: String, _ counts: ClosedRange<Int> = 0...64,
    _ make: @escaping @Sendable (Int) -> VerificationFixture<P>
  ) -> AnyPublisherVerification {
    AnyPublisherVerification(PublisherVerification(name, valueCounts: counts, makeFixture: make))
  }

  /// A subject and the fixture that sends `count` values into it, then finishes.
  static func subjectFixture<P: Publisher>(
    _ count: Int, _ make: (PassthroughSubject<Int, Never>) -> P
  ) -> VerificationFixture<P> {
    let subject = PassthroughSubject<Int, Never>()
    return VerificationFixture(
      publisher: make(subject),
      start: {
        for value in 0..<count { subject.send(value) }
        subject.send(completion: .finished)
      })
  }

  /// A publisher on a virtual-time scheduler: each value is sent, then the clock moves by
  /// 10 ticks; after the completion the scheduler runs dry.
  static func timedFixture<P: Publisher>(
    _ count: Int, _ make: (PassthroughSubject<Int, Never>, VirtualTimeScheduler) -> P
  ) -> VerificationFixture<P> {
    let subject = PassthroughSubject<Int, Never>()
    let scheduler = VirtualTimeScheduler()
    return VerificationFixture(
      publisher: make(subject, scheduler),
      start: {
        for value in 0..<count {
          subject.send(value)
          scheduler.advance(by: 10)
        }
        subject.send(completion: .finished)
        scheduler.run()
      },
      // What is due now, not beyond: running the clock on would fire `timeout`'s timer.
      settle: { scheduler.advance(by: 0) })
  }

  static let rows: [AnyPublisherVerification] = publishers + operators + subjects + extras

  /// Where Apple's operator breaks a rule and Confluence's matches Apple's (the conformance
  /// suite records it): the rule's check is expected to fail for that row.
  static let deviations: [String: [ContractRule: String]] = [
    "replaceEmpty": [
      .neverMoreThanDemanded: "as Apple's, replaceEmpty passes upstream's values through as they come, demand or not",
      .demandAccumulates: "as Apple's, replaceEmpty passes upstream's values through as they come, demand or not",
      .requestsFromOtherThreads: "as Apple's, replaceEmpty passes upstream's values through as they come, demand or not",
    ]
  ]

  /// A cold publisher that runs its requests on a virtual-time scheduler; settling runs it.
  static func scheduledFixture<P: Publisher>(
    _ make: (VirtualTimeScheduler) -> P
  ) -> VerificationFixture<P> {
    let scheduler = VirtualTimeScheduler()
    return VerificationFixture(publisher: make(scheduler), settle: { scheduler.run() })
  }

  static let publishers: [AnyPublisherVerification] = [
    cold("Publishers.Sequence", requestNone: .ignored) { (0..<$0).publisher },
    cold("Just", 1...1) { _ in Just(1) },
    cold("Empty", 0...0) { _ in Empty<Int, Never>() },
    cold("Fail", 0...0) { _ in Fail<Int, TestError>(error: TestError()) },
    cold("Optional.Publisher", 0...1) { Optional<Int>.Publisher($0 == 1 ? 1 : nil) },
    cold("Result.Publisher", 1...1) { _ in Result<Int, TestError>.Publisher(1) },
    cold("Deferred") { count in Deferred { (0..<count).publisher } },
    cold("Record") { Record<Int, Never>(output: Array(0..<$0), completion: .finished) },
    cold("Future", 1...1) { _ in Future<Int, Never> { $0(.success(1)) } },
    cold("AnyPublisher") { source($0) },
  ]

  static let operators: [AnyPublisherVerification] = [
    cold("map") { source($0).map { $0 * 2 } },
    cold("tryMap") { failing($0).tryMap { $0 * 2 } },
    cold("compactMap") { source($0).compactMap { $0 } },
    cold("tryCompactMap") { failing($0).tryCompactMap { $0 } },
    cold("filter") { source($0 * 2).filter { $0 % 2 == 0 } },
    cold("tryFilter") { failing($0 * 2).tryFilter { $0 % 2 == 0 } },
    cold("mapError") { failing($0).mapError { $0 } },
    cold("setFailureType") { source($0).setFailureType(to: TestError.self) },
    cold("scan") { source($0).scan(0, +) },
    cold("tryScan") { failing($0).tryScan(0, +) },
    cold("removeDuplicates") { source($0).removeDuplicates() },
    cold("tryRemoveDuplicates") { failing($0).tryRemoveDuplicates { $0 == $1 } },
    cold("handleEvents", requestNone: .ignored) { source($0).handleEvents() },
    cold("replaceError") { failing($0).replaceError(with: -1) },
    cold("replaceEmpty", 1...64) { count in source(count == 1 ? 0 : count).replaceEmpty(with: -1) },
    cold("replaceNil") { count in (0..<count).map { Optional($0) }.publisher.eraseToAnyPublisher().replaceNil(with: 0) },
    cold("dropFirst") { source($0 + 2).dropFirst(2) },
    cold("drop(while:)") { source($0 + 2).drop { $0 < 2 } },
    cold("tryDrop(while:)") { failing($0 + 2).tryDrop { $0 < 2 } },
    cold("prefix") { source($0 + 2).prefix($0) },
    cold("prefix(while:)") { count in source(count + 2).prefix { $0 < count } },
    cold("tryPrefix(while:)") { count in failing(count + 2).tryPrefix { $0 < count } },
    cold("output(in:)") { source($0 + 1).output(in: 1..<($0 + 1)) },
    cold("first", 1...1) { _ in source(5).first() },
    cold("first(where:)", 1...1) { _ in source(5).first { $0 > 2 } },
    cold("last", 1...1) { _ in source(5).last() },
    cold("collect", 1...1) { _ in source(5).collect() },
    cold("collect(count)") { source($0 * 2).collect(2) },
    cold("reduce", 1...1) { _ in source(5).reduce(0, +) },
    cold("tryReduce", 1...1) { _ in failing(5).tryReduce(0, +) },
    cold("count", 1...1) { _ in source(5).count() },
    cold("max", 1...1) { _ in source(5).max() },
    cold("contains", 1...1) { _ in source(5).contains(3) },
    cold("allSatisfy", 1...1) { _ in source(5).allSatisfy { $0 < 9 } },
    cold("ignoreOutput", 0...0) { _ in source(5).ignoreOutput() },
    cold("append (Concatenate)", requestNone: .ignored) { count in
      source(count / 2).append(source(count - count / 2))
    },
    cold("merge") { count in source(count / 2).merge(with: source(count - count / 2)) },
    cold("zip") { source($0).zip(source($0)) },
    cold("combineLatest", 1...1) { _ in Just(1).combineLatest(Just(2)) },
    cold("flatMap") { source($0).flatMap { Just($0) } },
    // Each new inner publisher replaces the last: only one sent while there is demand
    // delivers, so the outer values come from a subject, after the requests.
    hot("switchToLatest") { count in subjectFixture(count) { $0.map { Just($0) }.switchToLatest() } },
    cold("catch", requestNone: .ignored) { failing($0).catch { _ in Empty<Int, TestError>() } },
    cold("tryCatch") { failing($0).tryCatch { _ in Empty<Int, TestError>() } },
    cold("retry") { failing($0).retry(1) },
    cold("buffer", requestNone: .ignored) { source($0).buffer(size: 100, prefetch: .byRequest, whenFull: .dropNewest) },
    cold("receive(on:) Immediate") { source($0).receive(on: ImmediateScheduler.shared) },
    // On the immediate scheduler, a request from inside receive(_:) re-enters the request
    // it came from, which traps as Apple's does: verified on a scheduler that queues.
    hot("subscribe(on:)") { count in scheduledFixture { source(count).subscribe(on: $0) } },
    cold("eraseToAnyPublisher") { source($0).map { $0 }.eraseToAnyPublisher() },
    cold("print") { source($0).print("verified", to: Discard()) },
    cold("breakpoint") { source($0).breakpoint() },
    cold("assertNoFailure") { failing($0).assertNoFailure() },
    cold("map(keyPath)") { source($0).map(\.self) },
    cold("map(keyPath, keyPath)") { source($0).map(\.self, \.bitWidth) },
    cold("encode") { source($0).setFailureType(to: Error.self).encode(encoder: JSONEncoder()) },
    cold("decode") { count in
      source(count).map { Data("\($0)".utf8) }.setFailureType(to: Error.self).decode(type: Int.self, decoder: JSONDecoder())
    },
    cold("drop(untilOutputFrom:)") { source($0).drop(untilOutputFrom: Just(0)) },
    cold("prefix(untilOutputFrom:)") { source($0).prefix(untilOutputFrom: Empty<Int, Never>(completeImmediately: false)) },
    cold("last(where:)", 1...1) { _ in source(5).last { $0 < 3 } },
    cold("tryLast(where:)", 1...1) { _ in failing(5).tryLast { $0 < 3 } },
    cold("tryFirst(where:)", 1...1) { _ in failing(5).tryFirst { $0 > 2 } },
    cold("tryMin", 1...1) { _ in failing(5).tryMin { $0 < $1 } },
    cold("contains(where:)", 1...1) { _ in source(5).contains { $0 == 3 } },
    cold("tryContains(where:)", 1...1) { _ in failing(5).tryContains { $0 == 3 } },
    cold("tryAllSatisfy", 1...1) { _ in failing(5).tryAllSatisfy { $0 < 9 } },
    cold("merge(with:_:)") { count in
      source(count / 3).merge(with: source(count / 3), source(count - 2 * (count / 3)))
    },
    cold("MergeMany") { count in Publishers.MergeMany((0..<count).map { Just($0) }) },
    cold("zip3") { source($0).zip(source($0), source($0)) },
    // Connected when subscribed: a cold upstream would send everything before any demand.
    hot("makeConnectable.autoconnect") { count in subjectFixture(count) { $0.makeConnectable().autoconnect() } },
    hot("collect(byTime)") { count in
      timedFixture(count) { subject, scheduler in subject.collect(.byTime(scheduler, 5)) }
    },
    hot("delay") { count in timedFixture(count) { subject, scheduler in subject.delay(for: 5, scheduler: scheduler) } },
    hot("debounce") { count in timedFixture(count) { subject, scheduler in subject.debounce(for: 5, scheduler: scheduler) } },
    hot("throttle") { count in
      timedFixture(count) { subject, scheduler in subject.throttle(for: 5, scheduler: scheduler, latest: true) }
    },
    hot("receive(on:) TestScheduler") { count in timedFixture(count) { subject, scheduler in subject.receive(on: scheduler) } },
    hot("timeout") { count in
      timedFixture(count) { subject, scheduler in subject.timeout(100, scheduler: scheduler) }
    },
    hot("measureInterval") { count in
      timedFixture(count) { subject, scheduler in subject.measureInterval(using: scheduler) }
    },
    hot("share") { count in subjectFixture(count) { $0.share() } },
    hot("multicast.autoconnect") { count in
      subjectFixture(count) { $0.multicast { PassthroughSubject<Int, Never>() }.autoconnect() }
    },
  ]

  static let subjects: [AnyPublisherVerification] = [
    hot("PassthroughSubject") { count in subjectFixture(count) { $0 } },
    hot("CurrentValueSubject", 1...64) { count in
      let subject = CurrentValueSubject<Int, Never>(0)
      return VerificationFixture(
        publisher: subject,
        start: {
          for value in 1..<count { subject.send(value) }
          subject.send(completion: .finished)
        })
    },
  ]

  static let extras: [AnyPublisherVerification] = [
    cold("withLatestFrom", 0...64) { source($0).withLatestFrom(Just(1)) },
    cold("concatMap") { source($0).concatMap { Just($0) } },
    hot("flatMapLatest") { count in subjectFixture(count) { $0.flatMapLatest { Just($0) } } },
    cold("materialize", 1...64) { source($0 - 1).materialize() },
    cold("dematerialize") { failing($0).materialize().dematerialize() },
    cold("Publishers.Create") { count in
      Publishers.Create<Int, Never> { emitter in
        for value in 0..<count { emitter.send(value) }
        emitter.send(completion: .finished)
        return AnyCancellable {}
      }
    },
    hot("share(replay:)") { count in subjectFixture(count) { $0.share(replay: 2) } },
    hot("ReplaySubject") { count in
      let subject = ReplaySubject<Int, Never>(bufferSize: 0)
      return VerificationFixture(
        publisher: subject,
        start: {
          for value in 0..<count { subject.send(value) }
          subject.send(completion: .finished)
        })
    },
  ]
}

/// A stream that keeps nothing, for `print(_:to:)`.
private struct Discard: TextOutputStream {
  mutating func write(_ string: String) {}
}
