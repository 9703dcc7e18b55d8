/// Where a generated pipeline's values come from.
indirect enum Source: CustomStringConvertible, Equatable {
  /// `values.publisher`, then finished.
  case sequence([Int])
  /// `values.publisher.map(×2).filter(even)` through `Publishers.Sequence`'s own eager overloads.
  case eagerSequence([Int])
  /// `Record` of the values, then finished or failed.
  case record([Int], fails: Bool)
  /// The values, then `Fail` appended.
  case sequenceThenFail([Int])
  case just(Int)
  case empty
  case fail
  /// A `Future`, fulfilled with the value (or failed, for `nil`) at once or after `delay`
  /// ticks of the virtual clock.
  case future(Int?, delay: Int?)
  /// A `PassthroughSubject` sent the values by the driver, then finished or failed.
  case passthrough([Int], fails: Bool)
  /// A `CurrentValueSubject` holding `initial`, then sent the values by the driver.
  case currentValue(Int, [Int], fails: Bool)
  /// A relative testable publisher: one value every `spacing` ticks, then finished or failed.
  case testable([Int], spacing: Int, fails: Bool)
  /// A ``ThirdPartyPublisher`` (its subscription keeps its subscriber until cancelled, also
  /// after completion) sent the values by the driver, then finished or failed.
  case thirdPartyPublisher([Int], fails: Bool)
  /// A ``ThirdPartySubject`` sent the values by the driver, then finished or failed.
  case thirdPartySubject([Int], fails: Bool)

  var description: String {
    switch self {
    case .sequence(let values): return "\(values).publisher"
    case .eagerSequence(let values): return "\(values).publisher.map(×2).filter(even)"
    case .record(let values, let fails): return "Record(\(values), \(fails ? "fail" : "finish"))"
    case .sequenceThenFail(let values): return "\(values).publisher.append(Fail)"
    case .just(let value): return "Just(\(value))"
    case .empty: return "Empty"
    case .fail: return "Fail"
    case .future(let value, let delay):
      return "Future(\(value.map(String.init) ?? "failure")\(delay.map { ", after \($0)" } ?? ""))"
    case .passthrough(let values, let fails): return "PassthroughSubject(\(values), \(fails ? "fail" : "finish"))"
    case .currentValue(let initial, let values, let fails):
      return "CurrentValueSubject(\(initial), \(values), \(fails ? "fail" : "finish"))"
    case .testable(let values, let spacing, let fails):
      return "Testable(\(values) every \(spacing), \(fails ? "fail" : "finish"))"
    case .thirdPartyPublisher(let values, let fails):
      return "ThirdPartyPublisher(\(values), \(fails ? "fail" : "finish"))"
    case .thirdPartySubject(let values, let fails):
      return "ThirdPartySubject(\(values), \(fails ? "fail" : "finish"))"
    }
  }

  /// Whether the source is hot or drops values without demand, so that what arrives
  /// depends on when demand was granted.
  var isDemandSensitive: Bool {
    switch self {
    case .passthrough, .currentValue, .testable, .thirdPartyPublisher, .thirdPartySubject: return true
    default: return false
    }
  }

  /// Smaller versions of this source, for shrinking a failing pipeline.
  var shrunk: [Source] {
    func smaller(_ values: [Int]) -> [[Int]] {
      guard !values.isEmpty else { return [] }
      var out: [[Int]] = [[], Array(values.prefix(values.count / 2))]
      out.append(Array(values.dropLast()))
      return out.filter { $0.count < values.count }
    }
    var out: [Source] = []
    switch self {
    case .sequence(let values): out = smaller(values).map { .sequence($0) }
    case .eagerSequence(let values): out = [.sequence(values)] + smaller(values).map { .eagerSequence($0) }
    case .record(let values, let fails): out = smaller(values).map { .record($0, fails: fails) }
    case .sequenceThenFail(let values): out = [.fail] + smaller(values).map { .sequenceThenFail($0) }
    case .passthrough(let values, let fails):
      out = [.sequence(values)] + smaller(values).map { .passthrough($0, fails: fails) }
    case .currentValue(let initial, let values, let fails):
      out = [.passthrough(values, fails: fails)] + smaller(values).map { .currentValue(initial, $0, fails: fails) }
    case .testable(let values, let spacing, let fails):
      out = [.sequence(values)] + smaller(values).map { .testable($0, spacing: spacing, fails: fails) }
    case .thirdPartyPublisher(let values, let fails):
      out = [.passthrough(values, fails: fails)] + smaller(values).map { .thirdPartyPublisher($0, fails: fails) }
    case .thirdPartySubject(let values, let fails):
      out = [.passthrough(values, fails: fails)] + smaller(values).map { .thirdPartySubject($0, fails: fails) }
    case .future(let value, .some): out = [.future(value, delay: nil)]
    case .just, .empty, .fail, .future: out = []
    }
    if self != .empty { out.append(.empty) }
    return out
  }

  /// The other publisher of a generated `drop(untilOutputFrom:)`: one that sends a value
  /// and finishes. Apple's operator, as the conformance suite records it, leaves the other's
  /// subscription uncancelled after its first value and completes the downstream when the
  /// other finishes first — completing it a second time when upstream finishes too — so
  /// other sources would break the contract checks by Apple's design, not by a bug
  /// (`FilteringFamilyRulesTests` and `DropUntilOutputTests` pin those edges).
  static func trigger(using rng: inout SplitMix64) -> Source {
    rng.chance(50) ? .just(rng.int(-5...20)) : .future(rng.int(0...9), delay: rng.chance(50) ? rng.int(1...5) : nil)
  }

  static func random(using rng: inout SplitMix64, depth: Int = 0) -> Source {
    let values = (0..<rng.int(0...6)).map { _ in rng.int(-5...20) }
    let fails = rng.chance(30)
    switch rng.int(0...13) {
    case 0, 1: return .sequence(values)
    case 2: return .eagerSequence(values)
    case 3: return .record(values, fails: fails)
    case 4: return .sequenceThenFail(values)
    case 5: return .just(rng.int(-5...20))
    case 6: return rng.chance(50) ? .empty : .fail
    case 7: return .future(rng.chance(80) ? rng.int(0...9) : nil, delay: rng.chance(50) ? rng.int(1...5) : nil)
    case 8, 9: return .passthrough(values, fails: fails)
    case 10: return .currentValue(rng.int(0...9), values, fails: fails)
    case 12: return .thirdPartyPublisher(values, fails: fails)
    case 13: return .thirdPartySubject(values, fails: fails)
    default: return .testable(values, spacing: rng.int(1...4), fails: fails)
    }
  }
}

/// One operator stage of a generated pipeline. Every stage keeps the output `Item` and the
/// failure `TestError`, mapping through its own output type where Apple's operator has
/// another (`collect` sums its array, `count` makes an item of the count, …).
enum Stage: CustomStringConvertible, Equatable {
  // Mapping and filtering
  case map(Int)
  case filter(Int)
  case compactMap(Int)
  case tryMap(Int)
  case tryFilter(Int)
  case scan
  case removeDuplicates
  case replaceNil(Int)
  case mapError
  case handleEvents
  case print
  // Sequence, prefix and drop
  case prefix(Int)
  case dropFirst(Int)
  case prefixWhile(Int)
  case dropWhile(Int)
  case output(Int, Int)
  case first
  case last
  // Reducing and matching
  case reduce
  case count
  case collect
  case collectCount(Int)
  case ignoreOutput
  case min
  case max
  case contains(Int)
  case allSatisfy(Int)
  case replaceEmpty(Int)
  // Errors
  case replaceError(Int)
  case catchJust(Int)
  case retry(Int)
  // Buffering, flattening, sharing
  case buffer(size: Int, keepFull: Bool, whenFull: Int)
  case flatMapJust(maxPublishers: Int?)
  case flatMapSequence(Int, maxPublishers: Int?)
  case switchToLatestJust
  case share
  case multicastAutoconnect
  /// `multicast { ThirdPartySubject() }.autoconnect()`: how libraries build `share(replay:)`.
  case multicastThirdPartyAutoconnect
  /// The downstream subscribed to a ``ThirdPartySubject`` that `subscribe(_:)` connects to
  /// upstream.
  case subscribeThirdPartySubject
  case makeConnectableAutoconnect
  // Combining with a second source
  case merge(Source)
  case zip(Source)
  case combineLatest(Source)
  case append(Source)
  case prepend(Source)
  case dropUntilOutput(Source)
  case prefixUntilOutput(Source)
  // Time, on the virtual-time scheduler
  case delay(Int)
  case receiveOn
  /// `receive(on:)` a serial `DispatchQueue` (threaded runs only).
  case receiveOnQueue
  case subscribeOn
  case debounce(Int)
  case throttle(Int, latest: Bool)
  case timeout(Int)
  case collectByTime(Int)
  case measureInterval
  // ConfluenceExtras
  case shareReplay(Int)
  case concatMapJust
  case flatMapLatestJust
  case withLatestFrom(Source)
  case materializeDematerialize

  var description: String {
    switch self {
    case .map(let k): return "map(×\(k)+1)"
    case .filter(let m): return "filter(%\(m)≠0)"
    case .compactMap(let m): return "compactMap(%\(m)≠0 → +1)"
    case .tryMap(let m): return "tryMap(throws at %\(m)=1)"
    case .tryFilter(let m): return "tryFilter(throws at %\(m)=2)"
    case .scan: return "scan(+)"
    case .removeDuplicates: return "removeDuplicates(by: /2)"
    case .replaceNil(let v): return "map(Optional).replaceNil(\(v))"
    case .mapError: return "mapError"
    case .handleEvents: return "handleEvents"
    case .print: return "print"
    case .prefix(let k): return "prefix(\(k))"
    case .dropFirst(let k): return "dropFirst(\(k))"
    case .prefixWhile(let x): return "prefix(while: <\(x))"
    case .dropWhile(let x): return "drop(while: <\(x))"
    case .output(let a, let b): return "output(in: \(a)..<\(b))"
    case .first: return "first"
    case .last: return "last"
    case .reduce: return "reduce(+)"
    case .count: return "count"
    case .collect: return "collect.sum"
    case .collectCount(let k): return "collect(\(k)).sum"
    case .ignoreOutput: return "ignoreOutput"
    case .min: return "min"
    case .max: return "max"
    case .contains(let x): return "contains(\(x))"
    case .allSatisfy(let x): return "allSatisfy(<\(x))"
    case .replaceEmpty(let v): return "replaceEmpty(\(v))"
    case .replaceError(let v): return "replaceError(\(v))"
    case .catchJust(let v): return "catch{Just(\(v))}"
    case .retry(let k): return "retry(\(k))"
    case .buffer(let size, let keepFull, let whenFull):
      return
        "buffer(\(size), \(keepFull ? "keepFull" : "byRequest"), \(["dropNewest", "dropOldest", "customError"][whenFull]))"
    case .flatMapJust(let max): return "flatMap(max: \(max.map(String.init) ?? "∞")){Just}"
    case .flatMapSequence(let k, let max): return "flatMap(max: \(max.map(String.init) ?? "∞")){\(k) values}"
    case .switchToLatestJust: return "map{Just}.switchToLatest"
    case .share: return "share"
    case .multicastAutoconnect: return "multicast(subject).autoconnect"
    case .multicastThirdPartyAutoconnect: return "multicast(ThirdPartySubject).autoconnect"
    case .subscribeThirdPartySubject: return "subscribe(ThirdPartySubject)"
    case .makeConnectableAutoconnect: return "makeConnectable.autoconnect"
    case .merge(let other): return "merge(\(other))"
    case .zip(let other): return "zip(\(other))"
    case .combineLatest(let other): return "combineLatest(\(other))"
    case .append(let other): return "append(\(other))"
    case .prepend(let other): return "prepend(\(other))"
    case .dropUntilOutput(let other): return "drop(untilOutputFrom: \(other))"
    case .prefixUntilOutput(let other): return "prefix(untilOutputFrom: \(other))"
    case .delay(let t): return "delay(\(t))"
    case .receiveOn: return "receive(on:)"
    case .receiveOnQueue: return "receive(on: DispatchQueue)"
    case .subscribeOn: return "subscribe(on:)"
    case .debounce(let t): return "debounce(\(t))"
    case .throttle(let t, let latest): return "throttle(\(t), latest: \(latest))"
    case .timeout(let t): return "timeout(\(t))"
    case .collectByTime(let t): return "collect(.byTime(\(t))).sum"
    case .measureInterval: return "measureInterval"
    case .shareReplay(let k): return "share(replay: \(k))"
    case .concatMapJust: return "concatMap{Just}"
    case .flatMapLatestJust: return "flatMapLatest{Just}"
    case .withLatestFrom(let other): return "withLatestFrom(\(other))"
    case .materializeDematerialize: return "materialize.dematerialize"
    }
  }

  /// Whether the stage, like Apple's `replaceEmpty(with:)`, asks its upstream for
  /// `.unlimited` as soon as it is subscribed and passes every value on whatever the
  /// downstream asked for. Apple's Combine does this (its `ReplaceEmpty` requests the
  /// downstream's demand and then `.unlimited`), so a pipeline holding such a stage is driven
  /// with unlimited demand: the demand contract cannot hold below it.
  var ignoresDownstreamDemand: Bool {
    if case .replaceEmpty = self { return true }
    return false
  }

  /// Whether the stage, as Apple's, traps when its upstream sends a value beyond the demand
  /// it asked for (`catch`, `retry`, `drop(untilOutputFrom:)`).
  var trapsOnValuesBeyondDemand: Bool {
    switch self {
    case .catchJust, .retry, .dropUntilOutput: return true
    default: return false
    }
  }

  /// `stages` with every stage that traps on values beyond its demand, placed after one
  /// that ignores demand, replaced by `handleEvents`: Apple's Combine traps on such a
  /// pipeline as Confluence does (found by seed 4657 of a 20,000-pipeline run:
  /// `replaceEmpty → print → catch → subscribe(on:)`, where catch's demand arrives late).
  static func withoutDemandTraps(_ stages: [Stage]) -> [Stage] {
    var seenIgnoring = false
    let checked = stages.map { stage in
      defer { seenIgnoring = seenIgnoring || stage.ignoresDownstreamDemand }
      return seenIgnoring && stage.trapsOnValuesBeyondDemand ? .handleEvents : stage
    }
    return withoutEarlyCancelOfDropFirst(checked)
  }

  /// Whether the stage may cancel its upstream while that upstream is still handing over
  /// its subscription (a synchronous trigger, nothing to take).
  var mayCancelWhileSubscribing: Bool {
    switch self {
    case .prefixUntilOutput: return true
    case .prefix(let count): return count == 0
    case .output(let lower, let upper): return upper <= lower
    default: return false
    }
  }

  /// `stages` with each `dropFirst` that could be cancelled before its own upstream
  /// subscription arrives replaced by `handleEvents`. Apple's `Drop` (the conformance suite
  /// records it) forgets such a cancel: it still accepts the late subscription — keeping it
  /// and being kept by it, a cycle nothing ends when no demand was asked — and passes on a
  /// completion that follows. Confluence does the same, so the contract and leak checks
  /// would flag Apple's behaviour, not a bug (seeds 8110, 14187 and 16435 of 20,000-pipeline
  /// runs: `subscribe(on:)` before it with a cancel meanwhile, `prefix(untilOutputFrom:)`
  /// with a synchronous trigger after it).
  static func withoutEarlyCancelOfDropFirst(_ stages: [Stage]) -> [Stage] {
    stages.indices.map { index in
      guard case .dropFirst = stages[index] else { return stages[index] }
      let delayedBefore = stages[..<index].contains { if case .subscribeOn = $0 { return true } else { return false } }
      let cancelledAfter = stages[(index + 1)...].contains(where: \.mayCancelWhileSubscribing)
      return delayedBefore || cancelledAfter ? .handleEvents : stages[index]
    }
  }

  /// Whether the stage means something plain on a sequence (so the model can follow it):
  /// not timing, not sharing, not dropping by demand, not combining with a hot source.
  var hasPlainMeaning: Bool {
    switch self {
    case .debounce, .throttle, .timeout, .collectByTime, .measureInterval, .combineLatest, .withLatestFrom,
      .dropUntilOutput, .prefixUntilOutput, .share, .multicastAutoconnect, .makeConnectableAutoconnect, .shareReplay,
      .multicastThirdPartyAutoconnect, .subscribeThirdPartySubject,
      .switchToLatestJust, .flatMapLatestJust:
      return false
    case .buffer(let size, _, _):
      return size >= 1000
    default:
      return otherSource.map { !$0.isDemandSensitive } ?? true
    }
  }

  /// The second source of a combining stage.
  var otherSource: Source? {
    switch self {
    case .merge(let other), .zip(let other), .combineLatest(let other), .append(let other), .prepend(let other),
      .dropUntilOutput(let other), .prefixUntilOutput(let other), .withLatestFrom(let other):
      return other
    default:
      return nil
    }
  }

  /// This stage with a smaller second source, for shrinking.
  func withOther(_ other: Source) -> Stage {
    switch self {
    case .merge: return .merge(other)
    case .zip: return .zip(other)
    case .combineLatest: return .combineLatest(other)
    case .append: return .append(other)
    case .prepend: return .prepend(other)
    case .dropUntilOutput: return .dropUntilOutput(other)
    case .prefixUntilOutput: return .prefixUntilOutput(other)
    case .withLatestFrom: return .withLatestFrom(other)
    default: return self
    }
  }

  /// How many kinds of stage ``random(using:includeExtras:)`` chooses from.
  static let kindCount = 57
  static let extrasKindCount = 4

  // One case per kind of stage, with its random parameters.
  // swiftlint:disable:next cyclomatic_complexity function_body_length
  static func random(using rng: inout SplitMix64, includeExtras: Bool) -> Stage {
    let maxPublishers: Int? = rng.chance(50) ? nil : rng.int(1...3)
    let kind = rng.int(0...(kindCount + (includeExtras ? extrasKindCount : 0) - 1))
    switch kind {
    case 0: return .map(rng.int(-3...5))
    case 1: return .filter(rng.int(2...4))
    case 2: return .compactMap(rng.int(2...4))
    case 3: return .tryMap(rng.int(3...7))
    case 4: return .tryFilter(rng.int(3...7))
    case 5: return .scan
    case 6: return .removeDuplicates
    case 7: return .replaceNil(rng.int(0...9))
    case 8: return .mapError
    case 9: return .handleEvents
    case 10: return .print
    case 11: return .prefix(rng.int(0...4))
    case 12: return .dropFirst(rng.int(0...3))
    case 13: return .prefixWhile(rng.int(0...15))
    case 14: return .dropWhile(rng.int(0...15))
    case 15:
      let lower = rng.int(0...3)
      return .output(lower, lower + rng.int(0...3))
    case 16: return .first
    case 17: return .last
    case 18: return .reduce
    case 19: return .count
    case 20: return .collect
    case 21: return .collectCount(rng.int(1...3))
    case 22: return .ignoreOutput
    case 23: return .min
    case 24: return .max
    case 25: return .contains(rng.int(0...15))
    case 26: return .allSatisfy(rng.int(0...20))
    case 27: return .replaceEmpty(rng.int(0...9))
    case 28: return .replaceError(rng.int(0...9))
    case 29: return .catchJust(rng.int(0...9))
    case 30: return .retry(rng.int(0...2))
    case 31: return .buffer(size: rng.int(1...4), keepFull: rng.chance(50), whenFull: rng.int(0...2))
    case 32: return .buffer(size: 1000, keepFull: rng.chance(50), whenFull: rng.int(0...1))
    case 33: return .flatMapJust(maxPublishers: maxPublishers)
    case 34: return .flatMapSequence(rng.int(0...3), maxPublishers: maxPublishers)
    case 35: return .switchToLatestJust
    case 36: return .share
    case 37: return .multicastAutoconnect
    case 38: return .makeConnectableAutoconnect
    case 39: return .merge(Source.random(using: &rng))
    case 40: return .zip(Source.random(using: &rng))
    case 41: return .combineLatest(Source.random(using: &rng))
    case 42: return .append(Source.random(using: &rng))
    case 43: return .prepend(Source.random(using: &rng))
    case 44: return .dropUntilOutput(Source.trigger(using: &rng))
    case 45: return .prefixUntilOutput(Source.random(using: &rng))
    case 46: return .delay(rng.int(0...4))
    case 47: return .receiveOn
    case 48: return .subscribeOn
    case 49: return .debounce(rng.int(1...4))
    case 50: return .throttle(rng.int(1...4), latest: rng.chance(50))
    case 51: return .timeout(rng.int(1...8))
    case 52: return .collectByTime(rng.int(1...4))
    case 53: return .measureInterval
    case 54: return .concatMapJust
    case 55: return .multicastThirdPartyAutoconnect
    case 56: return .subscribeThirdPartySubject
    // ConfluenceExtras
    case 57: return .shareReplay(rng.int(0...3))
    case 58: return .flatMapLatestJust
    case 59: return .withLatestFrom(Source.random(using: &rng))
    case 60: return .materializeDematerialize
    default: return .materializeDematerialize
    }
  }
}

/// How the driver treats the pipeline: what it requests and when, what it sends to the
/// hot sources, and where it cancels.
struct DemandPlan: CustomStringConvertible, Equatable {
  enum Step: CustomStringConvertible, Equatable {
    case request(Int)
    case advance(Int)
    case send(subject: Int, count: Int)
    case cancel

    var description: String {
      switch self {
      case .request(let k): return "request(\(k))"
      case .advance(let t): return "advance(\(t))"
      case .send(let subject, let count): return "send(#\(subject) ×\(count))"
      case .cancel: return "cancel"
      }
    }
  }

  /// What the subscriber requests on subscription: `nil` is `.unlimited`, 0 is nothing.
  var initialDemand: Int?
  /// What `receive(_:)` returns, value after value (cycled).
  var perValue: [Int]
  var steps: [Step]
  /// Cancel from inside `receive(_:)` of this value (counting from 1).
  var cancelAtValue: Int?

  var description: String {
    var parts = ["initial \(initialDemand.map { "max(\($0))" } ?? "unlimited")", "per value \(perValue)"]
    if !steps.isEmpty { parts.append("steps \(steps)") }
    if let cancelAtValue { parts.append("cancel at value \(cancelAtValue)") }
    return parts.joined(separator: ", ")
  }

  static let unlimited = DemandPlan(initialDemand: nil, perValue: [0], steps: [], cancelAtValue: nil)

  static func random(using rng: inout SplitMix64) -> DemandPlan {
    let initial: Int? = rng.chance(30) ? nil : rng.int(0...3)
    let perValue = (0..<rng.int(1...3)).map { _ in rng.int(0...2) }
    var steps: [Step] = []
    for _ in 0..<rng.int(0...8) {
      switch rng.int(0...9) {
      case 0, 1, 2: steps.append(.request(rng.int(1...3)))
      case 3, 4: steps.append(.advance(rng.int(1...4)))
      case 5, 6, 7: steps.append(.send(subject: rng.int(0...2), count: rng.int(1...3)))
      case 8: if rng.chance(40) { steps.append(.cancel) }
      default: steps.append(.request(100))
      }
    }
    let cancelAtValue: Int? = rng.chance(15) ? rng.int(1...4) : nil
    return DemandPlan(initialDemand: initial, perValue: perValue, steps: steps, cancelAtValue: cancelAtValue)
  }

  /// Simpler plans, for shrinking.
  var shrunk: [DemandPlan] {
    var out: [DemandPlan] = []
    if self != .unlimited { out.append(.unlimited) }
    for index in steps.indices {
      var copy = self
      copy.steps.remove(at: index)
      out.append(copy)
    }
    if cancelAtValue != nil {
      var copy = self
      copy.cancelAtValue = nil
      out.append(copy)
    }
    if initialDemand != nil {
      var copy = self
      copy.initialDemand = nil
      out.append(copy)
    }
    if perValue != [0] {
      var copy = self
      copy.perValue = [0]
      out.append(copy)
    }
    return out
  }
}

/// A whole generated case: a source, up to eight stages, and how to drive it.
struct Pipeline: CustomStringConvertible, Equatable {
  var source: Source
  var stages: [Stage]
  var plan: DemandPlan

  var description: String {
    ([source.description] + stages.map(\.description)).joined(separator: " → ") + "   [\(plan)]"
  }

  /// Whether Apple's Combine itself may send the completion after a cancel made inside the
  /// last value: its single-value publishers (`Just`, the `Just` or `Result.Publisher` its
  /// specialised operators return, `Future`) hand the value and then `.finished` to their
  /// subscriber without looking in between, and `collect(_:)` forwards a completion that
  /// arrives after a cancel (the conformance suite records both). Values after a cancel
  /// are still violations everywhere.
  var mayCompleteAfterCancel: Bool {
    switch source {
    case .just, .future: return true
    default:
      // Apple's receive(on:) and delay deliver a completion scheduled before the cancel.
      return stages.contains {
        switch $0 {
        case .collectCount, .delay, .receiveOn, .receiveOnQueue: return true
        default: return false
        }
      }
    }
  }

  /// A random pipeline. Two in five are drawn from cold sources and stages with a plain
  /// meaning on sequences only, so that a good share of the runs also has its values
  /// checked against the model; the rest use the whole catalogue.
  static func random(seed: UInt64, maxStages: Int = 8, includeExtras: Bool = true) -> Pipeline {
    var rng = SplitMix64(seed: seed)
    let plain = rng.chance(40)
    var source = Source.random(using: &rng)
    while plain && source.isDemandSensitive { source = Source.random(using: &rng) }
    var stages: [Stage] = []
    for _ in 0..<rng.int(1...maxStages) {
      var stage = Stage.random(using: &rng, includeExtras: includeExtras)
      while plain && !stage.hasPlainMeaning { stage = Stage.random(using: &rng, includeExtras: includeExtras) }
      stages.append(stage)
    }
    stages = Stage.withoutDemandTraps(stages)
    var plan = DemandPlan.random(using: &rng)
    if stages.contains(where: \.ignoresDownstreamDemand) { plan.initialDemand = nil }
    return Pipeline(source: source, stages: stages, plan: plan)
  }

  /// Smaller pipelines, simplest first, for shrinking a failure.
  var shrunk: [Pipeline] {
    var out: [Pipeline] = []
    for index in stages.indices where stages.count > 1 {
      var copy = self
      copy.stages.remove(at: index)
      out.append(copy)
    }
    for plan in plan.shrunk {
      var copy = self
      copy.plan = plan
      out.append(copy)
    }
    for source in source.shrunk {
      var copy = self
      copy.source = source
      out.append(copy)
    }
    for (index, stage) in stages.enumerated() {
      guard let other = stage.otherSource else { continue }
      for smaller in other.shrunk {
        var copy = self
        copy.stages[index] = stage.withOther(smaller)
        out.append(copy)
      }
    }
    return out
  }
}
