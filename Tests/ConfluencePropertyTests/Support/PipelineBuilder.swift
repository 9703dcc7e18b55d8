import Confluence
import ConfluenceExtras
import ConfluenceFoundation
import ConfluenceTesting

typealias ItemPublisher = AnyPublisher<Item, TestError>

/// Turns a ``Pipeline`` description into a real publisher chain. Every closure captures a
/// tracked token (or the tracker that makes the items it returns), so a closure or value
/// that outlives the pipeline is a counted leak. Stages are erased one by one: the chain
/// runs through `AnyPublisher` boxes, the way apps compose publishers across API boundaries.
struct PipelineBuilder {
  let context: PipelineContext

  private var tracker: LifetimeTracker { context.tracker }
  private var scheduler: VirtualTimeScheduler { context.scheduler }

  func build(_ pipeline: Pipeline) -> ItemPublisher {
    pipeline.stages.reduce(source(pipeline.source)) { upstream, stage in self.stage(stage, upstream) }
  }

  // MARK: Sources

  func source(_ source: Source) -> ItemPublisher {
    let tracker = self.tracker
    switch source {
    case .sequence(let values):
      return values.map(context.item).publisher.setFailureType(to: TestError.self).eraseToAnyPublisher()
    case .eagerSequence(let values):
      // Publishers.Sequence's own map and filter (Apple's eager overloads) before erasure.
      return values.publisher
        .map { $0 &* 2 }
        .filter { $0 % 2 == 0 }
        .map { Item(n: $0, token: tracker.make()) }
        .setFailureType(to: TestError.self)
        .eraseToAnyPublisher()
    case .record(let values, let fails):
      return Record(output: values.map(context.item), completion: fails ? .failure(TestError("source")) : .finished)
        .eraseToAnyPublisher()
    case .sequenceThenFail(let values):
      return values.map(context.item).publisher.setFailureType(to: TestError.self)
        .append(Fail(error: TestError("source")))
        .eraseToAnyPublisher()
    case .just(let value):
      return Just(context.item(value)).setFailureType(to: TestError.self).eraseToAnyPublisher()
    case .empty:
      return Empty().eraseToAnyPublisher()
    case .fail:
      return Fail(error: TestError("source")).eraseToAnyPublisher()
    case .future(let value, let delay):
      let scheduler = self.scheduler
      let result: Result<Item, TestError> = value.map { .success(context.item($0)) } ?? .failure(TestError("future"))
      return Future { promise in
        if let delay {
          scheduler.schedule(after: scheduler.now.advanced(by: VirtualTimeInterval(delay))) { promise(result) }
        } else {
          promise(result)
        }
      }
      .eraseToAnyPublisher()
    case .passthrough(let values, let fails):
      let subject = PassthroughSubject<Item, TestError>()
      context.register(
        SubjectDriver(
          values: values, fails: fails, sendValue: { subject.send(Item(n: $0, token: tracker.make())) },
          sendCompletion: { subject.send(completion: $0) }))
      return subject.eraseToAnyPublisher()
    case .thirdPartyPublisher(let values, let fails):
      let publisher = ThirdPartyPublisher<Item, TestError>()
      context.register(
        SubjectDriver(
          values: values, fails: fails, sendValue: { publisher.send(Item(n: $0, token: tracker.make())) },
          sendCompletion: { publisher.send(completion: $0) }))
      return publisher.eraseToAnyPublisher()
    case .thirdPartySubject(let values, let fails):
      let subject = ThirdPartySubject<Item, TestError>()
      context.register(
        SubjectDriver(
          values: values, fails: fails, sendValue: { subject.send(Item(n: $0, token: tracker.make())) },
          sendCompletion: { subject.send(completion: $0) }))
      return subject.eraseToAnyPublisher()
    case .currentValue(let initial, let values, let fails):
      let subject = CurrentValueSubject<Item, TestError>(context.item(initial))
      context.register(
        SubjectDriver(
          values: values, fails: fails, sendValue: { subject.send(Item(n: $0, token: tracker.make())) },
          sendCompletion: { subject.send(completion: $0) }))
      return subject.eraseToAnyPublisher()
    case .testable(let values, let spacing, let fails):
      var script: [(VirtualTime, Signal<Item, TestError>)] = values.enumerated().map { index, value in
        (VirtualTime((index + 1) * spacing), .input(context.item(value)))
      }
      script.append(
        (VirtualTime((values.count + 1) * spacing), .completion(fails ? .failure(TestError("source")) : .finished)))
      return scheduler.createRelativeTestablePublisher(TestSequence(script)).eraseToAnyPublisher()
    }
  }

  // MARK: Stages

  // One switch over every operator of the catalogue: splitting it would only scatter the
  // table that says how each stage is built.
  // swiftlint:disable:next cyclomatic_complexity function_body_length
  func stage(_ stage: Stage, _ upstream: ItemPublisher) -> ItemPublisher {
    let tracker = self.tracker
    let scheduler = self.scheduler
    let token = context.token()
    func make(_ n: Int) -> Item { Item(n: n, token: tracker.make()) }
    func sum(_ items: [Item]) -> Item { make(items.reduce(0) { $0 &+ $1.n }) }
    func just(_ item: Item) -> AnyPublisher<Item, TestError> {
      Just(item).setFailureType(to: TestError.self).eraseToAnyPublisher()
    }
    func asTestError(_ error: any Error) -> TestError { (error as? TestError) ?? TestError("unexpected \(error)") }

    switch stage {
    case .map(let k):
      return upstream.map { make($0.n &* k &+ 1) }.eraseToAnyPublisher()
    case .filter(let m):
      return upstream.filter {
        _ = token; return $0.n % m != 0
      }.eraseToAnyPublisher()
    case .compactMap(let m):
      return upstream.compactMap { $0.n % m == 0 ? nil : make($0.n &+ 1) }.eraseToAnyPublisher()
    case .tryMap(let m):
      return upstream.tryMap { item -> Item in
        if abs(item.n % m) == 1 { throw TestError("tryMap") }
        return item
      }
      .mapError(asTestError).eraseToAnyPublisher()
    case .tryFilter(let m):
      return upstream.tryFilter { item in
        if abs(item.n % m) == 2 { throw TestError("tryFilter") }
        return item.n % 2 == 0
      }
      .mapError(asTestError).eraseToAnyPublisher()
    case .scan:
      return upstream.scan(make(0)) { make($0.n &+ $1.n) }.eraseToAnyPublisher()
    case .removeDuplicates:
      return upstream.removeDuplicates {
        _ = token; return $0.n / 2 == $1.n / 2
      }.eraseToAnyPublisher()
    case .replaceNil(let value):
      return upstream.map { $0.n % 3 == 0 ? nil : Optional($0) }.replaceNil(with: make(value)).eraseToAnyPublisher()
    case .mapError:
      return upstream.mapError {
        _ = token; return TestError("mapped-\($0.tag)")
      }.eraseToAnyPublisher()
    case .handleEvents:
      return upstream.handleEvents(
        receiveSubscription: { _ in _ = token }, receiveOutput: { _ in _ = token },
        receiveCompletion: { _ in _ = token }, receiveCancel: { _ = token }, receiveRequest: { _ in _ = token }
      ).eraseToAnyPublisher()
    case .print:
      return upstream.print("generated", to: NullStream()).eraseToAnyPublisher()
    case .prefix(let k):
      return upstream.prefix(k).eraseToAnyPublisher()
    case .dropFirst(let k):
      return upstream.dropFirst(k).eraseToAnyPublisher()
    case .prefixWhile(let x):
      return upstream.prefix {
        _ = token; return $0.n < x
      }.eraseToAnyPublisher()
    case .dropWhile(let x):
      return upstream.drop {
        _ = token; return $0.n < x
      }.eraseToAnyPublisher()
    case .output(let lower, let upper):
      return upstream.output(in: lower..<upper).eraseToAnyPublisher()
    case .first:
      return upstream.first().eraseToAnyPublisher()
    case .last:
      return upstream.last().eraseToAnyPublisher()
    case .reduce:
      return upstream.reduce(make(0)) { make($0.n &+ $1.n) }.eraseToAnyPublisher()
    case .count:
      return upstream.count().map { make($0) }.eraseToAnyPublisher()
    case .collect:
      return upstream.collect().map(sum).eraseToAnyPublisher()
    case .collectCount(let k):
      return upstream.collect(k).map(sum).eraseToAnyPublisher()
    case .ignoreOutput:
      return upstream.ignoreOutput().map { (never: Never) -> Item in }.eraseToAnyPublisher()
    case .min:
      return upstream.min().eraseToAnyPublisher()
    case .max:
      return upstream.max().eraseToAnyPublisher()
    case .contains(let x):
      return upstream.contains(make(x)).map { make($0 ? 1 : 0) }.eraseToAnyPublisher()
    case .allSatisfy(let x):
      return upstream.allSatisfy { $0.n < x }.map { make($0 ? 1 : 0) }.eraseToAnyPublisher()
    case .replaceEmpty(let value):
      return upstream.replaceEmpty(with: make(value)).eraseToAnyPublisher()
    case .replaceError(let value):
      return upstream.replaceError(with: make(value)).setFailureType(to: TestError.self).eraseToAnyPublisher()
    case .catchJust(let value):
      return upstream.catch { _ in Just(make(value)) }.setFailureType(to: TestError.self).eraseToAnyPublisher()
    case .retry(let k):
      return upstream.retry(k).eraseToAnyPublisher()
    case .buffer(let size, let keepFull, let whenFull):
      let strategy: Publishers.BufferingStrategy<TestError> =
        switch whenFull {
        case 0: .dropNewest
        case 1: .dropOldest
        default:
          .customError {
            _ = token; return TestError("buffer")
          }
        }
      return upstream.buffer(size: size, prefetch: keepFull ? .keepFull : .byRequest, whenFull: strategy)
        .eraseToAnyPublisher()
    case .flatMapJust(let max):
      return upstream.flatMap(maxPublishers: max.map { .max($0) } ?? .unlimited) { just($0) }.eraseToAnyPublisher()
    case .flatMapSequence(let k, let max):
      return upstream.flatMap(maxPublishers: max.map { .max($0) } ?? .unlimited) { item in
        (0..<k).map { make(item.n &+ $0) }.publisher.setFailureType(to: TestError.self)
      }
      .eraseToAnyPublisher()
    case .switchToLatestJust:
      return upstream.map { just($0) }.switchToLatest().eraseToAnyPublisher()
    case .share:
      return upstream.share().eraseToAnyPublisher()
    case .multicastAutoconnect:
      return upstream.multicast { PassthroughSubject<Item, TestError>() }.autoconnect().eraseToAnyPublisher()
    case .multicastThirdPartyAutoconnect:
      return upstream.multicast { ThirdPartySubject<Item, TestError>() }.autoconnect().eraseToAnyPublisher()
    case .subscribeThirdPartySubject:
      let context = self.context
      return Deferred { () -> ThirdPartySubject<Item, TestError> in
        let subject = ThirdPartySubject<Item, TestError>()
        // Connected once the downstream has subscribed (so that it sees the values); the
        // connection lives until the run lets go of its sources.
        context.scheduler.schedule { context.keep(upstream.subscribe(subject)) }
        return subject
      }
      .eraseToAnyPublisher()
    case .makeConnectableAutoconnect:
      // Apple offers `makeConnectable()` only where the failure is `Never`.
      return upstream.materialize().makeConnectable().autoconnect().dematerialize().eraseToAnyPublisher()
    case .merge(let other):
      return upstream.merge(with: source(other)).eraseToAnyPublisher()
    case .zip(let other):
      return upstream.zip(source(other)).map { make($0.n &* 100 &+ $1.n) }.eraseToAnyPublisher()
    case .combineLatest(let other):
      return upstream.combineLatest(source(other)).map { make($0.n &* 100 &+ $1.n) }.eraseToAnyPublisher()
    case .append(let other):
      return upstream.append(source(other)).eraseToAnyPublisher()
    case .prepend(let other):
      return upstream.prepend(source(other)).eraseToAnyPublisher()
    case .dropUntilOutput(let other):
      return upstream.drop(untilOutputFrom: source(other)).eraseToAnyPublisher()
    case .prefixUntilOutput(let other):
      return upstream.prefix(untilOutputFrom: source(other)).eraseToAnyPublisher()
    case .delay(let ticks):
      return upstream.delay(for: VirtualTimeInterval(ticks), scheduler: scheduler).eraseToAnyPublisher()
    case .receiveOn:
      return upstream.receive(on: scheduler).eraseToAnyPublisher()
    case .receiveOnQueue:
      return upstream.receive(on: context.queue).eraseToAnyPublisher()
    case .subscribeOn:
      return upstream.subscribe(on: scheduler).eraseToAnyPublisher()
    case .debounce(let ticks):
      return upstream.debounce(for: VirtualTimeInterval(ticks), scheduler: scheduler).eraseToAnyPublisher()
    case .throttle(let ticks, let latest):
      return upstream.throttle(for: VirtualTimeInterval(ticks), scheduler: scheduler, latest: latest)
        .eraseToAnyPublisher()
    case .timeout(let ticks):
      return upstream.timeout(VirtualTimeInterval(ticks), scheduler: scheduler) {
        _ = token; return TestError("timeout")
      }
      .eraseToAnyPublisher()
    case .collectByTime(let ticks):
      return upstream.collect(.byTime(scheduler, VirtualTimeInterval(ticks))).map(sum).eraseToAnyPublisher()
    case .measureInterval:
      return upstream.measureInterval(using: scheduler).map { make($0.ticks) }.eraseToAnyPublisher()
    case .shareReplay(let k):
      return upstream.share(replay: k).eraseToAnyPublisher()
    case .concatMapJust:
      return upstream.concatMap { just($0) }.eraseToAnyPublisher()
    case .flatMapLatestJust:
      return upstream.flatMapLatest { just($0) }.eraseToAnyPublisher()
    case .withLatestFrom(let other):
      return upstream.withLatestFrom(source(other)) { make($0.n &* 100 &+ $1.n) }.eraseToAnyPublisher()
    case .materializeDematerialize:
      return upstream.materialize().dematerialize().eraseToAnyPublisher()
    }
  }
}
