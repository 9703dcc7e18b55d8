/// What a pipeline must deliver, computed with plain Swift on arrays: the reference that
/// generated pipelines are checked against.
///
/// A model exists only where the answer does not depend on timing or on when demand was
/// granted: cold, finite sources and operators with a plain meaning on sequences. Where
/// the answer depends on timing (`debounce`, `combineLatest`, a hot subject, a small
/// `buffer` that drops, …) there is no model and the pipeline is checked against the
/// contract only. Where values from two sources interleave in an order that depends on
/// demand (`merge`, `flatMap` of several inners), the model compares the values as a
/// multiset (`isOrdered == false`), and an order-sensitive stage after that gives up.
struct PipelineModel: Equatable, CustomStringConvertible {
  enum End: Equatable, CustomStringConvertible {
    case finished
    case failure(String)

    var description: String {
      switch self {
      case .finished: return "finished"
      case .failure(let tag): return "failure(\(tag))"
      }
    }
  }

  var values: [Int]
  var end: End
  var isOrdered = true

  var description: String { "\(isOrdered ? "" : "unordered ")\(values) then \(end)" }

  var isFailure: Bool {
    if case .failure = end { return true }
    return false
  }

  /// The expected outcome of `pipeline`, or `nil` where it depends on timing or demand.
  static func expected(for pipeline: Pipeline) -> PipelineModel? {
    guard var model = source(pipeline.source) else { return nil }
    for stage in pipeline.stages {
      guard let next = model.applying(stage) else { return nil }
      model = next
    }
    return model
  }

  static func source(_ source: Source) -> PipelineModel? {
    switch source {
    case .sequence(let values): return PipelineModel(values: values, end: .finished)
    case .eagerSequence(let values): return PipelineModel(values: values.map { $0 &* 2 }, end: .finished)
    case .record(let values, let fails):
      return PipelineModel(values: values, end: fails ? .failure("source") : .finished)
    case .sequenceThenFail(let values): return PipelineModel(values: values, end: .failure("source"))
    case .just(let value): return PipelineModel(values: [value], end: .finished)
    case .empty: return PipelineModel(values: [], end: .finished)
    case .fail: return PipelineModel(values: [], end: .failure("source"))
    case .future(let value, _):
      return value.map { PipelineModel(values: [$0], end: .finished) }
        ?? PipelineModel(values: [], end: .failure("future"))
    case .passthrough, .currentValue, .testable, .thirdPartyPublisher, .thirdPartySubject:
      return nil
    }
  }

  private func with(_ values: [Int], _ end: End? = nil) -> PipelineModel {
    var copy = self
    copy.values = values
    copy.end = end ?? self.end
    return copy
  }

  /// The outcome of a stage that publishes one result when upstream finishes (and nothing
  /// but the failure when it fails).
  private func reducing(_ result: ([Int]) -> Int?) -> PipelineModel? {
    if isFailure { return with([], end) }
    return with(result(values).map { [$0] } ?? [], .finished)
  }

  /// `output(in: lower..<upper)` (and `prefix`): whether the stage finishes early is known
  /// for certain only once a value past the range arrives, or upstream finishes.
  private func output(_ lower: Int, _ upper: Int) -> PipelineModel? {
    guard isOrdered else { return nil }
    let kept = Array(values.enumerated().filter { $0.offset >= lower && $0.offset < upper }.map(\.element))
    if values.count > upper { return with(kept, .finished) }
    if values.count == upper { return isFailure ? nil : with(kept, .finished) }
    return with(kept)
  }

  // One case per operator: the table of what each stage means on a sequence.
  // swiftlint:disable:next cyclomatic_complexity function_body_length
  func applying(_ stage: Stage) -> PipelineModel? {
    switch stage {
    case .map(let k):
      return with(values.map { $0 &* k &+ 1 })
    case .filter(let m):
      return with(values.filter { $0 % m != 0 })
    case .compactMap(let m):
      return with(values.compactMap { $0 % m == 0 ? nil : $0 &+ 1 })
    case .tryMap(let m):
      guard isOrdered else { return nil }
      if let index = values.firstIndex(where: { abs($0 % m) == 1 }) {
        return with(Array(values[..<index]), .failure("tryMap"))
      }
      return self
    case .tryFilter(let m):
      guard isOrdered else { return nil }
      if let index = values.firstIndex(where: { abs($0 % m) == 2 }) {
        return with(values[..<index].filter { $0 % 2 == 0 }, .failure("tryFilter"))
      }
      return with(values.filter { $0 % 2 == 0 })
    case .scan:
      guard isOrdered else { return nil }
      var sum = 0
      return with(
        values.map {
          sum = sum &+ $0; return sum
        })
    case .removeDuplicates:
      guard isOrdered else { return nil }
      var out: [Int] = []
      for value in values where out.last.map({ $0 / 2 != value / 2 }) ?? true {
        out.append(value)
      }
      return with(out)
    case .replaceNil(let value):
      return with(values.map { $0 % 3 == 0 ? value : $0 })
    case .mapError:
      if case .failure(let tag) = end { return with(values, .failure("mapped-\(tag)")) }
      return self
    case .handleEvents, .print, .materializeDematerialize, .receiveOn, .receiveOnQueue, .subscribeOn, .delay:
      return self
    case .prefix(let k):
      return output(0, k)
    case .output(let lower, let upper):
      return output(lower, upper)
    case .dropFirst(let k):
      guard isOrdered else { return nil }
      return with(Array(values.dropFirst(k)))
    case .prefixWhile(let x):
      guard isOrdered else { return nil }
      if let index = values.firstIndex(where: { $0 >= x }) { return with(Array(values[..<index]), .finished) }
      return self
    case .dropWhile(let x):
      guard isOrdered else { return nil }
      return with(Array(values.drop { $0 < x }))
    case .first:
      guard isOrdered else { return nil }
      if let first = values.first { return with([first], .finished) }
      return self
    case .last:
      guard isOrdered else { return nil }
      return reducing { $0.last }
    case .reduce:
      return reducing { $0.reduce(0, &+) }
    case .count:
      return reducing { $0.count }
    case .collect:
      return reducing { $0.reduce(0, &+) }
    case .collectCount(let k):
      guard isOrdered else { return nil }
      var chunks: [Int] = []
      var index = 0
      while index + k <= values.count {
        chunks.append(values[index..<(index + k)].reduce(0, &+))
        index += k
      }
      if !isFailure, index < values.count {
        chunks.append(values[index...].reduce(0, &+))
      }
      return with(chunks)
    case .ignoreOutput:
      return with([])
    case .min:
      return reducing { $0.min() }
    case .max:
      return reducing { $0.max() }
    case .contains(let x):
      if values.contains(x) { return isOrdered || !isFailure ? with([1], .finished) : nil }
      return reducing { _ in 0 }
    case .allSatisfy(let x):
      if values.contains(where: { $0 >= x }) { return isOrdered || !isFailure ? with([0], .finished) : nil }
      return reducing { _ in 1 }
    case .replaceEmpty(let value):
      return values.isEmpty && !isFailure ? with([value], .finished) : self
    case .replaceError(let value), .catchJust(let value):
      return isFailure ? with(values + [value], .finished) : self
    case .retry(let k):
      guard isFailure else { return self }
      return with(Array(Array(repeating: values, count: k + 1).joined()))
    case .buffer(let size, _, _):
      // A buffer large enough never drops; when a failure overtakes what is buffered is
      // Apple's detail, not modelled.
      return size >= 1000 && !isFailure ? self : nil
    case .flatMapJust(let max):
      // flatMap asks upstream for `maxPublishers` values as soon as it is subscribed, so an
      // upstream failure can overtake inner publishers still waiting for downstream demand
      // (and cancel them); several inners waiting at once are served in an order the model
      // does not fix.
      guard !isFailure else { return nil }
      var copy = self
      if max != 1 { copy.isOrdered = false }
      return copy
    case .flatMapSequence(let k, let max):
      guard !isFailure else { return nil }
      var copy = with(values.flatMap { value in (0..<k).map { value &+ $0 } })
      if max != 1 { copy.isOrdered = false }
      return copy
    case .concatMapJust:
      return isFailure ? nil : self
    case .switchToLatestJust, .flatMapLatestJust, .share, .multicastAutoconnect, .makeConnectableAutoconnect,
      .shareReplay, .multicastThirdPartyAutoconnect, .subscribeThirdPartySubject:
      // What these deliver depends on whether demand reached them before the values did:
      // a subject drops values nobody asked for, a newer inner replaces one still waiting.
      return nil
    case .append(let other):
      guard let second = PipelineModel.source(other) else { return nil }
      if isFailure { return self }
      return with(values + second.values, second.end)
    case .prepend(let other):
      guard let first = PipelineModel.source(other) else { return nil }
      if first.isFailure { return with(first.values, first.end) }
      return with(first.values + values)
    case .merge(let other):
      guard let second = PipelineModel.source(other), !isFailure, !second.isFailure else { return nil }
      var copy = with(values + second.values, .finished)
      copy.isOrdered = false
      return copy
    case .zip(let other):
      guard isOrdered, let second = PipelineModel.source(other), !isFailure, !second.isFailure else { return nil }
      return with(zip(values, second.values).map { $0 &* 100 &+ $1 }, .finished)
    case .combineLatest, .withLatestFrom, .dropUntilOutput, .prefixUntilOutput, .debounce, .throttle, .timeout,
      .collectByTime, .measureInterval:
      return nil
    }
  }

  /// Whether `actual` is what this model allows after a cancel: a prefix of the values
  /// (or, unordered, a sub-multiset).
  func allows(cancelledWith actual: [Int]) -> Bool {
    if isOrdered { return Array(values.prefix(actual.count)) == actual }
    var remaining = values
    for value in actual {
      guard let index = remaining.firstIndex(of: value) else { return false }
      remaining.remove(at: index)
    }
    return true
  }

  func matches(_ actual: [Int]) -> Bool {
    isOrdered ? values == actual : values.sorted() == actual.sorted()
  }
}
