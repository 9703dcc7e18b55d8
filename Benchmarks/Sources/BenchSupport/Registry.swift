/// The libraries compared, in table order.
public enum Library: String, CaseIterable, Sendable {
  case loop = "hand-written loop"
  case confluence = "Confluence"
  case openCombine = "OpenCombine 0.14"
  case asyncSequence = "AsyncSequence (stdlib)"
  case asyncAlgorithms = "swift-async-algorithms"
}

/// The workloads, in table order. `perItem` names what one measured unit is.
public enum WorkloadID: String, CaseIterable, Sendable {
  case sequenceEager = "sequence-eager"
  case sequenceStreaming = "sequence-streaming"
  case sequenceCapturedVar = "sequence-captured-var"
  case subject1 = "subject-1"
  case subject10 = "subject-10"
  case flatMapJust = "flatMap-just"
  case justBuildDrop = "just-build-drop"
  case subjectSubscribeCancel = "subject-subscribe-cancel"
  // Operator catalogue I: streaming operator types over `(0..<N).publisher`, spelled out.
  case scan = "scan"
  case removeDuplicates = "removeDuplicates"
  case compactMap = "compactMap"
  case reduce = "reduce"
  // Operator catalogue II: fan-in over two subjects, bounded flatMap, share fan-out.
  case merge2 = "merge-2"
  case zip2 = "zip-2"
  case combineLatest2 = "combineLatest-2"
  case flatMapMax1Just = "flatMap-max1-just"
  case share10 = "share-10"
  // Schedulers: a thread hop per value.
  case receiveOnDispatch = "receiveOn-dispatch"
  // Type erasure at API boundaries (issue 12).
  case erasedBuildDrop = "erased-build-drop"
  case erasedZipTree = "erased-zip-tree"
  case erasedCombineLatestTree = "erased-combineLatest-tree"
  // Long pipelines (issue 21): the speed must hold for pipelines as long as apps write them.
  case subject12 = "subject-12"
  case erasedSubject12 = "erased-subject-12"
  case anySubscriber12 = "anySubscriber-12"
  case sequence12 = "sequence-12"
  case switchToLatest5 = "switchToLatest-5"
  case longFlatMap = "long-flatMap"
  case longMerge = "long-merge"
  case longCombineLatest = "long-combineLatest"
  case subject12Called = "subject-12-called"
  case erasedSubject12Called = "erased-subject-12-called"
  case subject12Mixed = "subject-12-mixed"
  // Streams over HTTP (issue 36): lines of a response from a server on 127.0.0.1.
  case httpLines = "http-lines"
  // Deep pipelines (issue 35): nested flattening and fan-in, each beside the same shape at
  // depth 1, so that the cost per level can be compared with one level's.
  case erasedFlatMap1 = "erased-flatMap-1"
  case erasedFlatMap5 = "erased-flatMap-5"
  case erasedFlatMapMax1x1 = "erased-flatMap-max1-1"
  case erasedFlatMapMax1x5 = "erased-flatMap-max1-5"
  case mergeChain1 = "merge-chain-1"
  case mergeChain6 = "merge-chain-6"
  case zipChain1 = "zip-chain-1"
  case zipChain6 = "zip-chain-6"
  case mergeTreeBuild1 = "merge-tree-build-1"
  case mergeTreeBuild7 = "merge-tree-build-7"
  case zipTreeBuild1 = "zip-tree-build-1"
  case zipTreeBuild7 = "zip-tree-build-7"
  case combineLatestTreeBuild1 = "combineLatest-tree-build-1"
  case combineLatestTreeBuild7 = "combineLatest-tree-build-7"
  case zipJustTree1 = "zip-just-tree-1"
  case zipJustTree7 = "zip-just-tree-7"
  case combineLatestJustTree1 = "combineLatest-just-tree-1"
  case combineLatestJustTree7 = "combineLatest-just-tree-7"
  case flatMapChainBuild1 = "flatMap-chain-build-1"
  case flatMapChainBuild = "flatMap-chain-build-5"
  case switchToLatestChainBuild1 = "switchToLatest-chain-build-1"
  case switchToLatestChainBuild = "switchToLatest-chain-build-5"
  case generic12 = "generic-12"
  case generic12Unspecialised = "generic-12-unspecialised"
  case genericCompactMapUnspecialised = "generic-compactMap-unspecialised"
  case genericTryFilterUnspecialised = "generic-tryFilter-unspecialised"
  case genericZipFlatMapUnspecialised = "generic-zip-flatMap-unspecialised"
  case genericCombineLatestUnspecialised = "generic-combineLatest-unspecialised"
  // RxSwift's benchmarks as ports to Combine write them (issue 35): values pumped through one
  // pipeline, and a pipeline created per item, for each of its five families.
  case rxSubjectPumping = "rx-subject-pumping"
  case rxSubjectPumping2 = "rx-subject-pumping-2"
  case rxSubjectCreating = "rx-subject-creating"
  case rxMapFilterPumping = "rx-mapFilter-pumping"
  case rxMapFilterCreating = "rx-mapFilter-creating"
  case rxFlatMapsPumping = "rx-flatMaps-pumping"
  case rxFlatMapsCreating = "rx-flatMaps-creating"
  case rxFlatMapLatestPumping = "rx-flatMapLatest-pumping"
  case rxFlatMapLatestCreating = "rx-flatMapLatest-creating"
  case rxCombineLatestPumping = "rx-combineLatest-pumping"
  case rxCombineLatestCreating = "rx-combineLatest-creating"

  // Two threads sending at once: what a lock costs when it is contended.
  case contendedSubject2 = "contended-subject-2"
  case contendedFlatMap = "contended-flatMap"

  /// The rows shaped as RxSwift's benchmarks.
  public var isRxSuite: Bool { rawValue.hasPrefix("rx-") }

  /// The twelve stages built inside a generic helper (issue 21's 15× applies to them).
  public var isGenericHelper: Bool {
    self == .generic12 || self == .generic12Unspecialised || self == .genericCompactMapUnspecialised
      || self == .genericTryFilterUnspecialised || self == .genericZipFlatMapUnspecialised
      || self == .genericCombineLatestUnspecialised
  }

  /// What the workload does, for the table.
  public var title: String {
    switch self {
    case .sequenceEager:
      return
        "`(0..<N).publisher.map{}.filter{}.sink{}`, the overloads the compiler picks (Apple's: eager `Publishers.Sequence`)"
    case .sequenceStreaming:
      return "`Publishers.Filter(Publishers.Map((0..<N).publisher))` → `sink`, streaming operator types forced"
    case .sequenceCapturedVar:
      // The loop row here calls an escaping closure that folds into a captured `var`: what
      // a `sink` with a captured var costs with no library at all.
      return
        "as sequence-streaming, but the sink closure folds into a captured `var` (pays a dynamic exclusivity check per value)"
    case .subject1:
      return "`PassthroughSubject.send` → `map` → `filter` → `sink`, 1 subscriber"
    case .subject10:
      return "`PassthroughSubject.send` → `map` → `filter` → `sink`, 10 subscribers"
    case .flatMapJust:
      return "`(0..<N).publisher.flatMap { Just($0) }.sink{}`"
    case .justBuildDrop:
      return "build `Just(i).map{}.sink{}` (delivers 1 value), then drop the AnyCancellable"
    case .subjectSubscribeCancel:
      return "`subject.map{}.sink{}` on a live subject, `send` one value, `cancel()`"
    case .scan:
      return "`Publishers.Scan((0..<N).publisher, 0) { $0 &+ map($1) }` → `sink`"
    case .removeDuplicates:
      return "`Publishers.RemoveDuplicates((0..<N).publisher) { $0 >> 1 == $1 >> 1 }` → `sink` (drops half)"
    case .compactMap:
      return "`Publishers.CompactMap((0..<N).publisher) { filter(map($0)) ? map($0) : nil }` → `sink` (drops half)"
    case .reduce:
      return "`Publishers.Reduce((0..<N).publisher, seed) { mix($0, map($1)) }` → `sink` (one value at the end)"
    case .merge2:
      return "`a.merge(with: b)` → `sink`, two `PassthroughSubject`s sent to alternately"
    case .zip2:
      return "`a.zip(b)` → `sink`, two `PassthroughSubject`s sent to alternately (N/2 pairs)"
    case .combineLatest2:
      return "`a.combineLatest(b)` → `sink`, two `PassthroughSubject`s sent to alternately (N−1 pairs)"
    case .flatMapMax1Just:
      return "`(0..<N).publisher.flatMap(maxPublishers: .max(1)) { Just($0) }.sink{}`"
    case .share10:
      return "`subject.share()` → 10 × (`map` → `filter` → `sink`)"
    case .receiveOnDispatch:
      return
        "a producer thread sends N values into `subject.receive(on: DispatchQueue)` → `sink` counting on the queue; waits for completion"
    case .erasedBuildDrop:
      return
        "build `Just(i).map{}` behind an `AnyPublisher` returned by a non-inlined function, `sink{}`, drop the AnyCancellable"
    case .erasedZipTree:
      return
        "N erased `Just([i])` zipped four at a time (`zip(b, c, d).map(+).eraseToAnyPublisher()`), level by level, to one publisher; `sink` (build and run)"
    case .erasedCombineLatestTree:
      return "as erased-zip-tree with `combineLatest(b, c, d)`"
    case .subject12:
      return "`PassthroughSubject.send` → `map` → `filter` → 5 × (`map` → `filter`) → `sink`: 12 stages"
    case .erasedSubject12:
      return "the 12 stages of subject-12 behind an `AnyPublisher` returned by a non-inlined function → `sink`"
    case .anySubscriber12:
      return
        "the 12 stages of subject-12 → `subscribe(AnySubscriber(receiveSubscription:receiveValue:receiveCompletion:))`"
    case .sequence12:
      return "`Publishers.Map((0..<N).publisher)` → `filter` → 5 × (`map` → `filter`) → `sink`: 12 streaming stages"
    case .switchToLatest5:
      return "`PassthroughSubject.send` → 5 × (`map { Just($0) }` → `switchToLatest()`) → `sink`"
    case .longFlatMap:
      return "subject → 2 × (`map` → `filter`) → `flatMap { Just($0) }` → 3 × (`map` → `filter`) → `sink`"
    case .longMerge:
      return
        "two subjects, each → 2 × (`map` → `filter`), `merge` → 3 × (`map` → `filter`) → `sink`, sent to alternately"
    case .longCombineLatest:
      return
        "two subjects, each → 2 × (`map` → `filter`), `combineLatest` → `map(pair)` → `filter` → 3 × (`map` → `filter`) → `sink`"
    case .subject12Called:
      return "subject-12 with each `keep` filter calling a non-inlined function (`Work.keepCalled`)"
    case .erasedSubject12Called:
      return "erased-subject-12 with each `keep` filter calling a non-inlined function (`Work.keepCalled`)"
    case .subject12Mixed:
      return
        "`PassthroughSubject.send` → `map` → `filter` → `compactMap` → `removeDuplicates` → `map` → `handleEvents` → `scan` → `filter` → `drop(while:)` → `map` → `filter` → `map` → `sink`: 12 mixed stages"
    case .erasedFlatMap1, .erasedFlatMap5:
      return
        "`PassthroughSubject` behind an `AnyPublisher` (a non-inlined function) → \(depth) × `flatMap { Just($0) }` → `sink`"
    case .erasedFlatMapMax1x1, .erasedFlatMapMax1x5:
      return
        "`PassthroughSubject` behind an `AnyPublisher` → \(depth) × `flatMap(maxPublishers: .max(1)) { Just($0) }` → `sink`"
    case .mergeChain1, .mergeChain6:
      return
        "`Merge(Merge(s0, s1), s2)` … (\(depth) nested `Publishers.Merge`s of subjects, spelled out: `merge(with:)` on a `Merge` makes one `Merge3`) → `sink`, every value sent to `s0`, so it passes all \(depth)"
    case .zipChain1, .zipChain6:
      return
        "`s0.zip(s1).map(pair)` … `.zip(s\(depth)).map(pair)` → `sink`; a round sends `r` to s\(depth) … s1, then s0, which makes one value pass all \(depth) levels"
    case .mergeTreeBuild1, .mergeTreeBuild7:
      return
        "build \(depth) level(s) of `a.merge(with: b, c, d).eraseToAnyPublisher()` (a: the level below) over erased `CurrentValueSubject`s (non-inlined functions), `sink` (\(1 + 3 * depth) values), `cancel()`"
    case .zipTreeBuild1, .zipTreeBuild7:
      return
        "as merge-tree-build-\(depth) with `a.zip(b, c, d).map(+)` (one value)"
    case .combineLatestTreeBuild1, .combineLatestTreeBuild7:
      return
        "as merge-tree-build-\(depth) with `a.combineLatest(b, c, d).map(+)` (one value): \(4 * depth) fan-in subscriptions"
    case .zipJustTree1, .zipJustTree7:
      return
        "build \(depth) level(s) of `Publishers.Zip4(a, Just(1), Just(1), Just(1)).map { x, _, _, _ in x }.eraseToAnyPublisher()` (a: the level below; at the bottom an erased `CurrentValueSubject(1)`), `sink` (one value), `cancel()`: \(depth) erased levels over \(3 * depth) `Just`s"
    case .combineLatestJustTree1, .combineLatestJustTree7:
      return
        "as zip-just-tree-\(depth) with `Publishers.CombineLatest4` (the shape of RxSwift's `testCombineLatestCreating` at depth 7: \(4 * depth) subscriptions)"
    case .flatMapChainBuild1:
      return "as flatMap-chain-build-5 with one `flatMap { Just($0) }`"
    case .flatMapChainBuild:
      return
        "build `erased(CurrentValueSubject(1))` → 5 × `flatMap { Just($0) }` → `sink` (one value through five levels), `cancel()` (the shape of RxSwift's `testFlatMapsCreating`)"
    case .switchToLatestChainBuild1:
      return "as switchToLatest-chain-build-5 with one `map { Just($0) }` → `switchToLatest()`"
    case .switchToLatestChainBuild:
      return
        "as flatMap-chain-build-5 with 5 × (`map { Just($0) }` → `switchToLatest()`) (RxSwift's `testFlatMapLatestCreating`)"
    case .generic12:
      return
        "the 12 stages of subject-12 built inside `func sum<P: Publisher>(_ p: P) -> AnyCancellable` (appends 6 × (`map` → `filter`) and sinks), called with a `PassthroughSubject`"
    case .generic12Unspecialised:
      return
        "as generic-12, with `sum` compiled once for every `P` (`@_semantics(\"optimize.sil.specialize.generic.never\")`, as a helper in another module that is not `@inlinable` is): the stages are built by generic code"
    case .genericCompactMapUnspecialised:
      return
        "as generic-12-unspecialised with `compactMap { keep($0) ? $0 : nil }` in place of each `filter`: one `map`, then six `compactMap`s (each following `map` fused into the one before it)"
    case .genericTryFilterUnspecialised:
      return
        "as generic-12-unspecialised with `tryFilter` in place of each `filter` (a subscription with a state machine of its own, as `tryMap`, `removeDuplicates` and `prefix(while:)` have)"
    case .genericZipFlatMapUnspecialised:
      return
        "built by a generic helper compiled once for every `P`, as generic-12-unspecialised: `p.map(transform).zip(p.map(step))` → `map(pair)` → `flatMap { Just($0) }` → `filter(keep)` → `sink`"
    case .genericCombineLatestUnspecialised:
      return
        "built by a generic helper compiled once for every `P`, as generic-12-unspecialised: `p.map(transform).combineLatest(p.map(step))` → `map(pair)` → `filter(keep)` → `sink` (two combinations per value sent)"
    case .rxSubjectPumping:
      return "a `PassthroughSubject` → `sink`, N values sent (RxSwift's `testPublishSubjectPumping`)"
    case .rxSubjectPumping2:
      return "as rx-subject-pumping with two sinks (`testPublishSubjectPumpingTwoSubscriptions`)"
    case .rxSubjectCreating:
      return "per item a new `PassthroughSubject` → `sink`, one value, `cancel()` (`testPublishSubjectCreating`)"
    case .rxMapFilterPumping:
      return
        "a closure publisher (its own `Subscription`, an `AnySubscriber` handed to a closure that sends N values, demand ignored), erased → 6 × (`map { $0 }` → `filter { _ in true }`) → `sink` (`testMapFilterPumping`)"
    case .rxMapFilterCreating:
      return "as rx-mapFilter-pumping, built per item, one value, `cancel()` (`testMapFilterCreating`)"
    case .rxFlatMapsPumping:
      return "the closure publisher, erased → 5 × `flatMap { Just($0) }` → `sink` (`testFlatMapsPumping`)"
    case .rxFlatMapsCreating:
      return "as rx-flatMaps-pumping, built per item, one value, `cancel()` (`testFlatMapsCreating`)"
    case .rxFlatMapLatestPumping:
      return
        "the closure publisher, erased → 5 × (`map { Just($0) }` → `switchToLatest()`) → `sink` (`testFlatMapLatestPumping`)"
    case .rxFlatMapLatestCreating:
      return "as rx-flatMapLatest-pumping, built per item, one value, `cancel()` (`testFlatMapLatestCreating`)"
    case .rxCombineLatestPumping:
      return
        "seven erased levels of `Just(1).combineLatest(Just(1), Just(1), last) { x, _, _, _ in x }`, the bottom one over an array of N ones' `publisher` → `sink` (`testCombineLatestPumping`)"
    case .contendedSubject2:
      return "a `PassthroughSubject` → 2 × `sink`, N values sent from two threads at once (N / 2 each)"
    case .contendedFlatMap:
      return
        "a `PassthroughSubject` → `flatMap { Just($0) }` → `sink`, N values sent from two threads at once (N / 2 each)"
    case .rxCombineLatestCreating:
      return
        "per item: the closure publisher (one value)`.combineLatest(Just(1), Just(1), Just(1))`, then six levels as in rx-combineLatest-pumping → `sink`, `cancel()` (`testCombineLatestCreating`)"
    case .httpLines:
      return
        "N lines of a 127.0.0.1 HTTP response (Content-Length, ~62 bytes a line), a `String` each, folded: ConfluenceNetworking's `linesPublisher(for:)` → `sink`, and as the hand-written reference a `URLSession` data delegate splitting each `Data` at its newlines"
    }
  }

  /// The unit the time and allocations are divided by.
  public var unit: String {
    switch self {
    case .sequenceEager, .sequenceStreaming, .sequenceCapturedVar, .subject1: return "element"
    case .scan, .removeDuplicates, .compactMap, .reduce: return "element"
    case .merge2, .zip2, .combineLatest2: return "element sent"
    case .receiveOnDispatch: return "element"
    case .subject10, .share10: return "send (10 deliveries)"
    case .flatMapJust, .flatMapMax1Just: return "inner publisher"
    case .justBuildDrop, .subjectSubscribeCancel, .erasedBuildDrop: return "subscription"
    case .erasedZipTree, .erasedCombineLatestTree: return "leaf"
    case .subject12, .erasedSubject12, .anySubscriber12, .sequence12, .switchToLatest5, .longFlatMap: return "element"
    case .subject12Called, .erasedSubject12Called, .subject12Mixed: return "element"
    case .longMerge, .longCombineLatest: return "element sent"
    case .httpLines: return "line"
    case .erasedFlatMap1, .erasedFlatMap5, .erasedFlatMapMax1x1, .erasedFlatMapMax1x5, .mergeChain1, .mergeChain6:
      return "element"
    case .zipChain1, .zipChain6: return "round"
    case .mergeTreeBuild1, .mergeTreeBuild7, .zipTreeBuild1, .zipTreeBuild7, .combineLatestTreeBuild1,
      .combineLatestTreeBuild7, .zipJustTree1, .zipJustTree7, .combineLatestJustTree1, .combineLatestJustTree7:
      return "tree"
    case .flatMapChainBuild, .switchToLatestChainBuild, .flatMapChainBuild1, .switchToLatestChainBuild1:
      return "pipeline"
    case .generic12, .generic12Unspecialised, .genericCompactMapUnspecialised, .genericTryFilterUnspecialised,
      .genericZipFlatMapUnspecialised, .genericCombineLatestUnspecialised:
      return "element"
    case .rxSubjectPumping, .rxMapFilterPumping, .rxFlatMapsPumping, .rxFlatMapLatestPumping, .rxCombineLatestPumping:
      return "element"
    case .rxSubjectPumping2: return "send (2 deliveries)"
    case .contendedSubject2: return "send (2 deliveries)"
    case .contendedFlatMap: return "element"
    case .rxSubjectCreating, .rxMapFilterCreating, .rxFlatMapsCreating, .rxFlatMapLatestCreating,
      .rxCombineLatestCreating:
      return "pipeline"
    }
  }

  /// The nesting depth of the deep-pipeline workloads (issue 35), 1 for the others.
  public var depth: Int {
    switch self {
    case .erasedFlatMap5, .erasedFlatMapMax1x5, .flatMapChainBuild, .switchToLatestChainBuild: return 5
    case .mergeChain6, .zipChain6: return 6
    case .mergeTreeBuild7, .zipTreeBuild7, .combineLatestTreeBuild7, .zipJustTree7, .combineLatestJustTree7: return 7
    default: return 1
    }
  }

  /// For a deep-pipeline workload, the same shape at depth 1.
  public var depthOne: WorkloadID? {
    switch self {
    case .erasedFlatMap5: return .erasedFlatMap1
    case .erasedFlatMapMax1x5: return .erasedFlatMapMax1x1
    case .mergeChain6: return .mergeChain1
    case .zipChain6: return .zipChain1
    case .mergeTreeBuild7: return .mergeTreeBuild1
    case .zipTreeBuild7: return .zipTreeBuild1
    case .combineLatestTreeBuild7: return .combineLatestTreeBuild1
    case .zipJustTree7: return .zipJustTree1
    case .combineLatestJustTree7: return .combineLatestJustTree1
    case .flatMapChainBuild: return .flatMapChainBuild1
    case .switchToLatestChainBuild: return .switchToLatestChainBuild1
    default: return nil
    }
  }

  /// N for a full run and for quick mode.
  public func count(quick: Bool) -> Int {
    switch self {
    case .sequenceEager, .sequenceStreaming, .sequenceCapturedVar: return quick ? 2_000 : 1_000_000
    // The AsyncStream and AsyncChannel rows cost 1–50 µs per element: smaller N keeps a full run
    // to a few minutes.
    case .subject1: return quick ? 2_000 : 200_000
    case .subject10: return quick ? 500 : 20_000
    case .flatMapJust, .justBuildDrop, .subjectSubscribeCancel: return quick ? 1_000 : 200_000
    case .scan, .removeDuplicates, .compactMap, .reduce: return quick ? 2_000 : 1_000_000
    case .merge2, .zip2, .combineLatest2: return quick ? 2_000 : 200_000
    case .flatMapMax1Just: return quick ? 1_000 : 200_000
    case .share10: return quick ? 500 : 20_000
    case .receiveOnDispatch: return quick ? 2_000 : 200_000
    case .erasedBuildDrop: return quick ? 1_000 : 200_000
    case .erasedZipTree, .erasedCombineLatestTree: return quick ? 1_000 : 100_000
    case .subject12, .erasedSubject12, .anySubscriber12, .longFlatMap, .longMerge, .longCombineLatest:
      return quick ? 2_000 : 200_000
    case .subject12Called, .erasedSubject12Called, .subject12Mixed: return quick ? 2_000 : 200_000
    case .sequence12: return quick ? 2_000 : 1_000_000
    case .switchToLatest5: return quick ? 500 : 50_000
    case .httpLines: return quick ? 2_000 : 1_000_000
    case .erasedFlatMap1, .erasedFlatMapMax1x1, .mergeChain1, .zipChain1: return quick ? 1_000 : 200_000
    case .erasedFlatMap5, .erasedFlatMapMax1x5, .mergeChain6, .zipChain6: return quick ? 500 : 50_000
    case .mergeTreeBuild1, .zipTreeBuild1, .combineLatestTreeBuild1: return quick ? 200 : 50_000
    case .mergeTreeBuild7, .zipTreeBuild7, .combineLatestTreeBuild7: return quick ? 100 : 10_000
    case .zipJustTree1, .combineLatestJustTree1: return quick ? 200 : 50_000
    case .zipJustTree7, .combineLatestJustTree7: return quick ? 100 : 10_000
    case .flatMapChainBuild, .switchToLatestChainBuild: return quick ? 200 : 50_000
    case .flatMapChainBuild1, .switchToLatestChainBuild1: return quick ? 500 : 100_000
    case .generic12, .generic12Unspecialised, .genericCompactMapUnspecialised, .genericTryFilterUnspecialised:
      return quick ? 2_000 : 200_000
    case .genericZipFlatMapUnspecialised, .genericCombineLatestUnspecialised: return quick ? 2_000 : 50_000
    case .rxSubjectPumping, .rxSubjectPumping2, .rxMapFilterPumping: return quick ? 2_000 : 1_000_000
    case .rxFlatMapsPumping, .rxFlatMapLatestPumping, .rxCombineLatestPumping: return quick ? 500 : 100_000
    case .rxSubjectCreating: return quick ? 1_000 : 200_000
    case .rxMapFilterCreating, .rxFlatMapsCreating, .rxFlatMapLatestCreating: return quick ? 200 : 50_000
    case .rxCombineLatestCreating: return quick ? 100 : 10_000
    case .contendedSubject2, .contendedFlatMap: return quick ? 2_000 : 400_000
    }
  }

  /// Whether the table also shows values per second (the thread-hopping workloads).
  public var reportsRate: Bool {
    self == .receiveOnDispatch || self == .httpLines
  }

  /// Whether ARCHITECTURE.md's "0 allocations per element in steady state" applies: the run's
  /// allocations must not grow with N.
  public var isSteadyState: Bool {
    switch self {
    case .sequenceEager, .sequenceStreaming, .sequenceCapturedVar, .subject1, .subject10: return true
    case .scan, .removeDuplicates, .compactMap, .reduce: return true
    case .merge2, .zip2, .combineLatest2, .share10: return true
    case .flatMapJust, .flatMapMax1Just, .justBuildDrop, .subjectSubscribeCancel, .receiveOnDispatch: return false
    case .erasedBuildDrop, .erasedZipTree, .erasedCombineLatestTree: return false
    case .subject12, .erasedSubject12, .anySubscriber12, .sequence12, .longMerge, .longCombineLatest: return true
    case .subject12Called, .erasedSubject12Called, .subject12Mixed: return true
    // A `Just` and its subscription per value per level.
    case .switchToLatest5, .longFlatMap: return false
    // A `String` per line, and the network's buffers.
    case .httpLines: return false
    case .mergeChain1, .mergeChain6, .zipChain1, .zipChain6, .generic12, .generic12Unspecialised,
      .genericCompactMapUnspecialised, .genericTryFilterUnspecialised, .genericCombineLatestUnspecialised:
      return true
    // A `Just` per value per level; a tree per item.
    case .erasedFlatMap1, .erasedFlatMap5, .erasedFlatMapMax1x1, .erasedFlatMapMax1x5, .genericZipFlatMapUnspecialised:
      return false
    case .mergeTreeBuild1, .mergeTreeBuild7, .zipTreeBuild1, .zipTreeBuild7, .combineLatestTreeBuild1,
      .combineLatestTreeBuild7, .zipJustTree1, .zipJustTree7, .combineLatestJustTree1, .combineLatestJustTree7:
      return false
    case .flatMapChainBuild, .switchToLatestChainBuild, .flatMapChainBuild1, .switchToLatestChainBuild1: return false
    case .rxSubjectPumping, .rxSubjectPumping2, .rxMapFilterPumping, .rxCombineLatestPumping: return true
    case .contendedSubject2: return true
    // A `Just` per value.
    case .contendedFlatMap: return false
    // A `Just` per value per level; a pipeline per item.
    case .rxFlatMapsPumping, .rxFlatMapLatestPumping, .rxSubjectCreating, .rxMapFilterCreating, .rxFlatMapsCreating,
      .rxFlatMapLatestCreating, .rxCombineLatestCreating:
      return false
    }
  }
}

/// One library's implementation of one workload: runs it over `n` items and returns the
/// checksum of what was delivered.
public enum Body: Sendable {
  case sync(@Sendable (Int) -> UInt64)
  case async(@Sendable (Int) async -> UInt64)
}

/// A registered implementation, or the reason there is none.
public struct Implementation: Sendable {
  public let library: Library
  public let workload: WorkloadID
  /// nil when the library cannot run this workload (yet); `note` says why.
  public let body: Body?
  /// What was measured (the pipeline's static type, or the reason it is missing).
  public let note: String

  public init(_ library: Library, _ workload: WorkloadID, note: String, body: Body?) {
    self.library = library
    self.workload = workload
    self.note = note
    self.body = body
  }

  public static func sync(
    _ library: Library, _ workload: WorkloadID, note: String, _ body: @escaping @Sendable (Int) -> UInt64
  ) -> Implementation {
    Implementation(library, workload, note: note, body: .sync(body))
  }

  public static func async(
    _ library: Library, _ workload: WorkloadID, note: String, _ body: @escaping @Sendable (Int) async -> UInt64
  ) -> Implementation {
    Implementation(library, workload, note: note, body: .async(body))
  }

  public static func missing(_ library: Library, _ workload: WorkloadID, _ reason: String) -> Implementation {
    Implementation(library, workload, note: reason, body: nil)
  }
}

/// The name of a type, without module prefixes, for the notes column.
public func typeName<T>(_ type: T.Type) -> String {
  var name = String(reflecting: type)
  for module in [
    "(extension in OpenCombineDispatch):", "Confluence.", "OpenCombine.", "Swift.", "AsyncAlgorithms.", "BenchSupport.",
    "Dispatch.",
  ] {
    name = name.replacingOccurrences(of: module, with: "")
  }
  return name
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    var result = ""
    var rest = self[...]
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    result += rest
    return result
  }
}
