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

  /// Every public publisher and subject type declared in Confluence, ConfluenceFoundation
  /// and ConfluenceExtras has a row — found by the source file named after it (one public
  /// type per file) — or a stated reason for having none: a new type without either fails.
  @Test func everyPublicPublisherType_hasARow() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources")
    let declaration = try Regex(
      #"(?m)^\s*public (final )?(struct|class) \w+(<[^>]*>)?\s*:[^{]*\b(Publisher|Subject|ConnectablePublisher)\b"#)
    var types: Set<String> = []
    for module in ["Confluence", "ConfluenceFoundation", "ConfluenceExtras"] {
      let folder = sources.appendingPathComponent(module)
      let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
      while let file = files?.nextObject() as? URL {
        guard file.pathExtension == "swift" else { continue }
        let text = try String(contentsOf: file, encoding: .utf8)
        if text.contains(declaration) { types.insert(file.deletingPathExtension().lastPathComponent) }
      }
    }
    #expect(types.count > 100, "found only \(types.count) publisher types under \(sources.path)")
    let covered = Set(ContractCatalogue.rows.map { $0.name.components(separatedBy: " (")[0] })
    let missing = types.subtracting(covered).subtracting(ContractCatalogue.withoutARow.keys)
    #expect(missing.isEmpty, "public publisher types without a verification row: \(missing.sorted())")
  }

  @Test func theCatalogueNamesEachRowOnce() {
    let names = ContractCatalogue.rows.map(\.name)
    #expect(Set(names).count == names.count)
    #expect(Set(ContractCatalogue.deviations.keys).isSubset(of: Set(names)))
  }
}

/// The rows: (name, factory) pairs, erased. Each row is named after the public type it
/// verifies, as the source declares it (`Publishers.Map`), with the way it was built in
/// parentheses where one type has several rows — the names the lifetime matrix's rows use,
/// so that the two tables can be joined by name.
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
    AnyPublisherVerification(
      PublisherVerification(name, valueCounts: counts, requestNone: requestNone, makePublisher: make))
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
    "Publishers.ReplaceEmpty": [
      .neverMoreThanDemanded: "as Apple's, replaceEmpty passes upstream's values through as they come, demand or not",
      .demandAccumulates: "as Apple's, replaceEmpty passes upstream's values through as they come, demand or not",
      .requestsFromOtherThreads:
        "as Apple's, replaceEmpty passes upstream's values through as they come, demand or not",
    ]
  ]

  /// Public publisher types with no row, and why.
  static let withoutARow: [String: String] = [
    "Publishers.Autoconnect":
      "verified through Publishers.MakeConnectable (autoconnect) and Publishers.Multicast (autoconnect)",
    "NotificationCenter.Publisher": "never completes, and every rule but 1 and 2 needs a completion",
    "Timer.TimerPublisher": "never completes",
    "ObservableObjectPublisher": "never completes",
    "Published.Publisher": "never completes",
    "ObservationPublisher": "never completes",
    "URLSession.DataTaskPublisher": "needs a server; DataTaskPublisherTests checks it against a local one",
    "Publishers.FromAsync": "delivers from a task, which the synchronous checks cannot wait for",
    "Publishers.FromAsyncSequence": "delivers from a task, which the synchronous checks cannot wait for",
    "NSObject+KeyValueObserving": "a porting hint: KVO's publisher, unavailable where there is no Objective-C runtime",
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
    cold("Publishers.Map") { source($0).map { $0 * 2 } },
    cold("Publishers.TryMap") { failing($0).tryMap { $0 * 2 } },
    cold("Publishers.CompactMap") { source($0).compactMap { $0 } },
    cold("Publishers.TryCompactMap") { failing($0).tryCompactMap { $0 } },
    cold("Publishers.Filter") { source($0 * 2).filter { $0 % 2 == 0 } },
    cold("Publishers.TryFilter") { failing($0 * 2).tryFilter { $0 % 2 == 0 } },
    cold("Publishers.MapError") { failing($0).mapError { $0 } },
    cold("Publishers.SetFailureType") { source($0).setFailureType(to: TestError.self) },
    cold("Publishers.Scan") { source($0).scan(0, +) },
    cold("Publishers.TryScan") { failing($0).tryScan(0, +) },
    cold("Publishers.RemoveDuplicates") { source($0).removeDuplicates() },
    cold("Publishers.TryRemoveDuplicates") { failing($0).tryRemoveDuplicates { $0 == $1 } },
    cold("Publishers.HandleEvents", requestNone: .ignored) { source($0).handleEvents() },
    cold("Publishers.ReplaceError") { failing($0).replaceError(with: -1) },
    cold("Publishers.ReplaceEmpty", 1...64) { count in source(count == 1 ? 0 : count).replaceEmpty(with: -1) },
    cold("Publishers.Map (replaceNil)") { count in
      (0..<count).map { Optional($0) }.publisher.eraseToAnyPublisher().replaceNil(with: 0)
    },
    cold("Publishers.Drop") { source($0 + 2).dropFirst(2) },
    cold("Publishers.DropWhile") { source($0 + 2).drop { $0 < 2 } },
    cold("Publishers.TryDropWhile") { failing($0 + 2).tryDrop { $0 < 2 } },
    cold("Publishers.Output (prefix)") { source($0 + 2).prefix($0) },
    cold("Publishers.PrefixWhile") { count in source(count + 2).prefix { $0 < count } },
    cold("Publishers.TryPrefixWhile") { count in failing(count + 2).tryPrefix { $0 < count } },
    cold("Publishers.Output") { source($0 + 1).output(in: 1..<($0 + 1)) },
    cold("Publishers.First", 1...1) { _ in source(5).first() },
    cold("Publishers.FirstWhere", 1...1) { _ in source(5).first { $0 > 2 } },
    cold("Publishers.Last", 1...1) { _ in source(5).last() },
    cold("Publishers.Collect", 1...1) { _ in source(5).collect() },
    cold("Publishers.CollectByCount") { source($0 * 2).collect(2) },
    cold("Publishers.Reduce", 1...1) { _ in source(5).reduce(0, +) },
    cold("Publishers.TryReduce", 1...1) { _ in failing(5).tryReduce(0, +) },
    cold("Publishers.Count", 1...1) { _ in source(5).count() },
    cold("Publishers.Comparison", 1...1) { _ in source(5).max() },
    cold("Publishers.Contains", 1...1) { _ in source(5).contains(3) },
    cold("Publishers.AllSatisfy", 1...1) { _ in source(5).allSatisfy { $0 < 9 } },
    cold("Publishers.IgnoreOutput", 0...0) { _ in source(5).ignoreOutput() },
    cold("Publishers.Concatenate", requestNone: .ignored) { count in
      source(count / 2).append(source(count - count / 2))
    },
    cold("Publishers.Merge") { count in source(count / 2).merge(with: source(count - count / 2)) },
    cold("Publishers.Zip") { source($0).zip(source($0)) },
    cold("Publishers.CombineLatest", 1...1) { _ in Just(1).combineLatest(Just(2)) },
    cold("Publishers.FlatMap") { source($0).flatMap { Just($0) } },
    // Each new inner publisher replaces the last: only one sent while there is demand
    // delivers, so the outer values come from a subject, after the requests.
    hot("Publishers.SwitchToLatest") { count in subjectFixture(count) { $0.map { Just($0) }.switchToLatest() } },
    cold("Publishers.Catch", requestNone: .ignored) { failing($0).catch { _ in Empty<Int, TestError>() } },
    cold("Publishers.TryCatch") { failing($0).tryCatch { _ in Empty<Int, TestError>() } },
    cold("Publishers.Retry") { failing($0).retry(1) },
    cold("Publishers.Buffer", requestNone: .ignored) {
      source($0).buffer(size: 100, prefetch: .byRequest, whenFull: .dropNewest)
    },
    cold("Publishers.ReceiveOn (ImmediateScheduler)") { source($0).receive(on: ImmediateScheduler.shared) },
    // On the immediate scheduler, a request from inside receive(_:) re-enters the request
    // it came from, which traps as Apple's does: verified on a scheduler that queues.
    hot("Publishers.SubscribeOn") { count in scheduledFixture { source(count).subscribe(on: $0) } },
    cold("AnyPublisher (erasing a map)") { source($0).map { $0 }.eraseToAnyPublisher() },
    cold("Publishers.Print") { source($0).print("verified", to: Discard()) },
    cold("Publishers.Breakpoint") { source($0).breakpoint() },
    cold("Publishers.AssertNoFailure") { failing($0).assertNoFailure() },
    cold("Publishers.MapKeyPath") { source($0).map(\.self) },
    cold("Publishers.MapKeyPath2") { source($0).map(\.self, \.bitWidth) },
    cold("Publishers.Encode") { source($0).setFailureType(to: Error.self).encode(encoder: JSONEncoder()) },
    cold("Publishers.Decode") { count in
      source(count).map { Data("\($0)".utf8) }.setFailureType(to: Error.self).decode(
        type: Int.self, decoder: JSONDecoder())
    },
    cold("Publishers.DropUntilOutput") { source($0).drop(untilOutputFrom: Just(0)) },
    cold("Publishers.PrefixUntilOutput") {
      source($0).prefix(untilOutputFrom: Empty<Int, Never>(completeImmediately: false))
    },
    cold("Publishers.LastWhere", 1...1) { _ in source(5).last { $0 < 3 } },
    cold("Publishers.TryLastWhere", 1...1) { _ in failing(5).tryLast { $0 < 3 } },
    cold("Publishers.TryFirstWhere", 1...1) { _ in failing(5).tryFirst { $0 > 2 } },
    cold("Publishers.TryComparison", 1...1) { _ in failing(5).tryMin { $0 < $1 } },
    cold("Publishers.ContainsWhere", 1...1) { _ in source(5).contains { $0 == 3 } },
    cold("Publishers.TryContainsWhere", 1...1) { _ in failing(5).tryContains { $0 == 3 } },
    cold("Publishers.TryAllSatisfy", 1...1) { _ in failing(5).tryAllSatisfy { $0 < 9 } },
    cold("Publishers.Merge3") { count in
      source(count / 3).merge(with: source(count / 3), source(count - 2 * (count / 3)))
    },
    cold("Publishers.MergeMany") { count in Publishers.MergeMany((0..<count).map { Just($0) }) },
    cold("Publishers.Zip3") { source($0).zip(source($0), source($0)) },
    // Connected when subscribed: a cold upstream would send everything before any demand.
    hot("Publishers.MakeConnectable (autoconnect)") { count in
      subjectFixture(count) { $0.makeConnectable().autoconnect() }
    },
    cold("Publishers.MapKeyPath3") { source($0).map(\.self, \.bitWidth, \.description) },
    cold("Publishers.CombineLatest3", 1...1) { _ in Just(1).combineLatest(Just(2), Just(3)) },
    cold("Publishers.CombineLatest4", 1...1) { _ in Just(1).combineLatest(Just(2), Just(3), Just(4)) },
    cold("Publishers.Zip4") { source($0).zip(source($0), source($0), source($0)) },
    cold("Publishers.Merge4", 4...4) { _ in Just(0).merge(with: Just(1), Just(2), Just(3)) },
    cold("Publishers.Merge5", 5...5) { _ in Just(0).merge(with: Just(1), Just(2), Just(3), Just(4)) },
    cold("Publishers.Merge6", 6...6) { _ in Just(0).merge(with: Just(1), Just(2), Just(3), Just(4), Just(5)) },
    cold("Publishers.Merge7", 7...7) { _ in Just(0).merge(with: Just(1), Just(2), Just(3), Just(4), Just(5), Just(6)) },
    cold("Publishers.Merge8", 8...8) { _ in
      Just(0).merge(with: Just(1), Just(2), Just(3), Just(4), Just(5), Just(6), Just(7))
    },
    hot("Publishers.CollectByTime") { count in
      timedFixture(count) { subject, scheduler in subject.collect(.byTime(scheduler, 5)) }
    },
    hot("Publishers.Delay") { count in
      timedFixture(count) { subject, scheduler in subject.delay(for: 5, scheduler: scheduler) }
    },
    hot("Publishers.Debounce") { count in
      timedFixture(count) { subject, scheduler in subject.debounce(for: 5, scheduler: scheduler) }
    },
    hot("Publishers.Throttle") { count in
      timedFixture(count) { subject, scheduler in subject.throttle(for: 5, scheduler: scheduler, latest: true) }
    },
    hot("Publishers.ReceiveOn (TestScheduler)") { count in
      timedFixture(count) { subject, scheduler in subject.receive(on: scheduler) }
    },
    hot("Publishers.Timeout") { count in
      timedFixture(count) { subject, scheduler in subject.timeout(100, scheduler: scheduler) }
    },
    hot("Publishers.MeasureInterval") { count in
      timedFixture(count) { subject, scheduler in subject.measureInterval(using: scheduler) }
    },
    hot("Publishers.Share") { count in subjectFixture(count) { $0.share() } },
    hot("Publishers.Multicast (autoconnect)") { count in
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
    cold("Publishers.WithLatestFrom", 0...64) { source($0).withLatestFrom(Just(1)) },
    cold("Publisher.concatMap") { source($0).concatMap { Just($0) } },
    hot("Publisher.flatMapLatest") { count in subjectFixture(count) { $0.flatMapLatest { Just($0) } } },
    cold("Publishers.Materialize", 1...64) { source($0 - 1).materialize() },
    cold("Publishers.Dematerialize") { failing($0).materialize().dematerialize() },
    cold("Publishers.Create") { count in
      Publishers.Create<Int, Never> { emitter in
        for value in 0..<count { emitter.send(value) }
        emitter.send(completion: .finished)
        return AnyCancellable {}
      }
    },
    hot("Publishers.DelayedRetry") { count in
      scheduledFixture { failing(count).retry(1, initialDelay: 5, scheduler: $0) }
    },
    hot("Publisher.share(replay:)") { count in subjectFixture(count) { $0.share(replay: 2) } },
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
