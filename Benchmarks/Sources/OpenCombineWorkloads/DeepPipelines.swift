import BenchSupport
import OpenCombine

// Deep pipelines (issue 35): nested flattening and fan-in, each beside the same shape at
// depth 1. The same source text as ConfluenceWorkloads/DeepPipelines.swift, over
// OpenCombine. Keep the two in step.

extension OpenCombineWorkloads {
  static var deepPipelines: [Implementation] {
    var result: [Implementation] = [
      .sync(.openCombine, .erasedFlatMap1, note: "AnyPublisher → FlatMap<Just> → Sink") { erasedFlatMap($0, depth: 1) },
      .sync(.openCombine, .erasedFlatMap5, note: "AnyPublisher → 5 × FlatMap<Just> → Sink") {
        erasedFlatMap($0, depth: 5)
      },
      .sync(.openCombine, .erasedFlatMapMax1x1, note: "AnyPublisher → FlatMap<Just>(max 1) → Sink") {
        erasedFlatMapMax1($0, depth: 1)
      },
      .sync(.openCombine, .erasedFlatMapMax1x5, note: "AnyPublisher → 5 × FlatMap<Just>(max 1) → Sink") {
        erasedFlatMapMax1($0, depth: 5)
      },
      .sync(.openCombine, .zipChain1, note: "Zip<PassthroughSubject, PassthroughSubject> → Map → Sink") {
        zipChain($0, depth: 1)
      },
      .sync(.openCombine, .zipChain6, note: "6 × (Zip → Map) → Sink") { zipChain($0, depth: 6) },
      .sync(.openCombine, .zipTreeBuild1, note: "AnyPublisher(Zip4 → Map) → Sink, cancel") {
        zipTreeBuild($0, depth: 1)
      },
      .sync(.openCombine, .zipTreeBuild7, note: "7 × AnyPublisher(Zip4 → Map) → Sink, cancel") {
        zipTreeBuild($0, depth: 7)
      },
      .sync(
        .openCombine, .zipJustTree1, note: "AnyPublisher(Zip4<AnyPublisher, Just, Just, Just> → Map) → Sink, cancel"
      ) {
        zipJustTree($0, depth: 1)
      },
      .sync(
        .openCombine, .zipJustTree7, note: "7 × AnyPublisher(Zip4<AnyPublisher, Just, Just, Just> → Map) → Sink, cancel"
      ) {
        zipJustTree($0, depth: 7)
      },
      .sync(
        .openCombine, .flatMapChainBuild1, note: "AnyPublisher → FlatMap<Just> → Sink, cancel", flatMapChainBuild1),
      .sync(
        .openCombine, .flatMapChainBuild, note: "AnyPublisher → 5 × FlatMap<Just> → Sink, cancel", flatMapChainBuild),
      .sync(
        .openCombine, .switchToLatestChainBuild1, note: "AnyPublisher → Map<Just> → SwitchToLatest → Sink, cancel",
        switchToLatestChainBuild1),
      .sync(
        .openCombine, .switchToLatestChainBuild, note: "AnyPublisher → 5 × (Map<Just> → SwitchToLatest) → Sink, cancel",
        switchToLatestChainBuild),
      .sync(.openCombine, .generic12, note: "sum<PassthroughSubject>: 6 × (Map → Filter) → Sink", generic12),
      .sync(
        .openCombine, .generic12Unspecialised, note: "sum<P>, not specialised: 6 × (Map → Filter) → Sink",
        generic12Unspecialised),
      .sync(
        .openCombine, .genericCompactMapUnspecialised,
        note: "compactSum<P>, not specialised: Map → 6 × CompactMap (the maps fused into them) → Sink",
        genericCompactMapUnspecialised),
      .sync(
        .openCombine, .genericTryFilterUnspecialised,
        note: "trySum<P>, not specialised: 6 × (Map → TryFilter) → Sink", genericTryFilterUnspecialised),
      .sync(
        .openCombine, .genericZipFlatMapUnspecialised,
        note: "zipFlatSum<P>, not specialised: Zip(Map, Map) → Map → FlatMap<Just> → Filter → Sink",
        genericZipFlatMapUnspecialised),
      .missing(.openCombine, .genericCombineLatestUnspecialised, "no CombineLatest in this library"),
    ]
    #if HAS_MERGE
      result += [
        .sync(.openCombine, .mergeChain1, note: "Merge<PassthroughSubject, PassthroughSubject> → Sink") {
          mergeChain($0, depth: 1)
        },
        .sync(.openCombine, .mergeChain6, note: "6 × Merge → Sink") { mergeChain($0, depth: 6) },
        .sync(.openCombine, .mergeTreeBuild1, note: "AnyPublisher(Merge4) → Sink, cancel") {
          mergeTreeBuild($0, depth: 1)
        },
        .sync(.openCombine, .mergeTreeBuild7, note: "7 × AnyPublisher(Merge4) → Sink, cancel") {
          mergeTreeBuild($0, depth: 7)
        },
      ]
    #else
      for workload in [WorkloadID.mergeChain1, .mergeChain6, .mergeTreeBuild1, .mergeTreeBuild7] {
        result.append(.missing(.openCombine, workload, "no Merge in this library"))
      }
    #endif
    #if HAS_COMBINE_LATEST
      result += [
        .sync(.openCombine, .combineLatestTreeBuild1, note: "AnyPublisher(CombineLatest4 → Map) → Sink, cancel") {
          combineLatestTreeBuild($0, depth: 1)
        },
        .sync(.openCombine, .combineLatestTreeBuild7, note: "7 × AnyPublisher(CombineLatest4 → Map) → Sink, cancel") {
          combineLatestTreeBuild($0, depth: 7)
        },
        .sync(
          .openCombine, .combineLatestJustTree1,
          note: "AnyPublisher(CombineLatest4<AnyPublisher, Just, Just, Just> → Map) → Sink, cancel"
        ) {
          combineLatestJustTree($0, depth: 1)
        },
        .sync(
          .openCombine, .combineLatestJustTree7,
          note: "7 × AnyPublisher(CombineLatest4<AnyPublisher, Just, Just, Just> → Map) → Sink, cancel"
        ) {
          combineLatestJustTree($0, depth: 7)
        },
      ]
    #else
      for workload in [
        WorkloadID.combineLatestTreeBuild1, .combineLatestTreeBuild7, .combineLatestJustTree1, .combineLatestJustTree7,
      ] {
        result.append(.missing(.openCombine, workload, "no CombineLatest in this library"))
      }
    #endif
    return result
  }

  /// A subject as an API hands it out: behind an `AnyPublisher`, built where the caller
  /// cannot see it.
  @inline(never)
  static func erased(_ subject: PassthroughSubject<Int, Never>) -> AnyPublisher<Int, Never> {
    subject.eraseToAnyPublisher()
  }

  @inline(never)
  static func erasedFlatMap(_ n: Int, depth: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    let sum = Accumulator()
    let cancellable: AnyCancellable
    if depth == 1 {
      cancellable = erased(subject).flatMap { Just($0) }.sink { sum.add($0) }
    } else {
      cancellable = erased(subject).flatMap { Just($0) }.flatMap { Just($0) }.flatMap { Just($0) }
        .flatMap { Just($0) }.flatMap { Just($0) }.sink { sum.add($0) }
    }
    for i in 0..<n { subject.send(i) }
    subject.send(completion: .finished)
    blackHole(cancellable)
    return sum.finish()
  }

  @inline(never)
  static func erasedFlatMapMax1(_ n: Int, depth: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    let sum = Accumulator()
    let cancellable: AnyCancellable
    if depth == 1 {
      cancellable = erased(subject).flatMap(maxPublishers: .max(1)) { Just($0) }.sink { sum.add($0) }
    } else {
      cancellable = erased(subject).flatMap(maxPublishers: .max(1)) { Just($0) }
        .flatMap(maxPublishers: .max(1)) { Just($0) }.flatMap(maxPublishers: .max(1)) { Just($0) }
        .flatMap(maxPublishers: .max(1)) { Just($0) }.flatMap(maxPublishers: .max(1)) { Just($0) }
        .sink { sum.add($0) }
    }
    for i in 0..<n { subject.send(i) }
    subject.send(completion: .finished)
    blackHole(cancellable)
    return sum.finish()
  }

  /// `depth + 1` subjects; round `r` sends `r` to the last `depth` of them, then to the first.
  @inline(__always)
  static func sendRounds(_ n: Int, _ subjects: [PassthroughSubject<Int, Never>]) {
    for round in 0..<n {
      for subject in subjects.reversed() { subject.send(round) }
    }
    for subject in subjects { subject.send(completion: .finished) }
  }

  @inline(never)
  static func zipChain(_ n: Int, depth: Int) -> UInt64 {
    let s = (0...depth).map { _ in PassthroughSubject<Int, Never>() }
    let sum = Accumulator()
    let cancellable: AnyCancellable
    if depth == 1 {
      cancellable = s[0].zip(s[1]).map { Work.pair($0, $1) }.sink { sum.add($0) }
    } else {
      cancellable = s[0].zip(s[1]).map { Work.pair($0, $1) }.zip(s[2]).map { Work.pair($0, $1) }
        .zip(s[3]).map { Work.pair($0, $1) }.zip(s[4]).map { Work.pair($0, $1) }
        .zip(s[5]).map { Work.pair($0, $1) }.zip(s[6]).map { Work.pair($0, $1) }.sink { sum.add($0) }
    }
    sendRounds(n, s)
    blackHole(cancellable)
    return sum.finish()
  }

  /// The leaves of a tree of `depth` levels: `1 + 3 × depth` subjects holding 1, 2, ….
  static func treeLeaves(depth: Int) -> [CurrentValueSubject<Int, Never>] {
    (0..<(1 + 3 * depth)).map { CurrentValueSubject<Int, Never>($0 + 1) }
  }

  /// A leaf as an API hands it out.
  @inline(never)
  static func erasedLeaf(_ subject: CurrentValueSubject<Int, Never>) -> AnyPublisher<Int, Never> {
    subject.eraseToAnyPublisher()
  }

  /// Builds `depth` levels of `level` over `leaves` (level k combines level k − 1 with three
  /// new leaves), sinks the top, cancels it.
  @inline(__always)
  static func buildTrees(
    _ n: Int, depth: Int,
    _ level: (AnyPublisher<Int, Never>, AnyPublisher<Int, Never>, AnyPublisher<Int, Never>, AnyPublisher<Int, Never>)
      -> AnyPublisher<Int, Never>
  ) -> UInt64 {
    let leaves = treeLeaves(depth: depth)
    let sum = Accumulator()
    for _ in 0..<n {
      var top = erasedLeaf(leaves[0])
      var next = 1
      for _ in 0..<depth {
        top = level(top, erasedLeaf(leaves[next]), erasedLeaf(leaves[next + 1]), erasedLeaf(leaves[next + 2]))
        next += 3
      }
      let cancellable = top.sink { sum.add($0) }
      cancellable.cancel()
    }
    return sum.finish()
  }

  @inline(never)
  static func zipLevel(
    _ a: AnyPublisher<Int, Never>, _ b: AnyPublisher<Int, Never>, _ c: AnyPublisher<Int, Never>,
    _ d: AnyPublisher<Int, Never>
  ) -> AnyPublisher<Int, Never> {
    a.zip(b, c, d).map { $0 &+ $1 &+ $2 &+ $3 }.eraseToAnyPublisher()
  }

  @inline(never)
  static func zipTreeBuild(_ n: Int, depth: Int) -> UInt64 {
    buildTrees(n, depth: depth, zipLevel)
  }

  /// Builds `depth` levels of `level` over an erased `CurrentValueSubject(1)` (each level
  /// combines the one below with three `Just(1)`s and passes the first value on), sinks the
  /// top, cancels it.
  @inline(__always)
  static func buildJustTrees(
    _ n: Int, depth: Int, _ level: (AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never>
  ) -> UInt64 {
    let root = CurrentValueSubject<Int, Never>(1)
    let sum = Accumulator()
    for _ in 0..<n {
      var top = erasedLeaf(root)
      for _ in 0..<depth { top = level(top) }
      let cancellable = top.sink { sum.add($0) }
      cancellable.cancel()
    }
    return sum.finish()
  }

  @inline(never)
  static func zipJustLevel(_ below: AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never> {
    Publishers.Zip4(below, Just(1), Just(1), Just(1)).map { x, _, _, _ in x }.eraseToAnyPublisher()
  }

  @inline(never)
  static func zipJustTree(_ n: Int, depth: Int) -> UInt64 {
    buildJustTrees(n, depth: depth, zipJustLevel)
  }

  #if HAS_MERGE
    @inline(never)
    static func mergeChain(_ n: Int, depth: Int) -> UInt64 {
      let s = (0...depth).map { _ in PassthroughSubject<Int, Never>() }
      let sum = Accumulator()
      let cancellable: AnyCancellable
      // Spelled out: `merge(with:)` on a `Merge` makes a `Merge3` (… `Merge8`), one level.
      if depth == 1 {
        cancellable = Publishers.Merge(s[0], s[1]).sink { sum.add($0) }
      } else {
        let two = Publishers.Merge(Publishers.Merge(s[0], s[1]), s[2])
        let four = Publishers.Merge(Publishers.Merge(two, s[3]), s[4])
        cancellable = Publishers.Merge(Publishers.Merge(four, s[5]), s[6]).sink { sum.add($0) }
      }
      for i in 0..<n { s[0].send(i) }
      for subject in s { subject.send(completion: .finished) }
      blackHole(cancellable)
      return sum.finish()
    }

    @inline(never)
    static func mergeLevel(
      _ a: AnyPublisher<Int, Never>, _ b: AnyPublisher<Int, Never>, _ c: AnyPublisher<Int, Never>,
      _ d: AnyPublisher<Int, Never>
    ) -> AnyPublisher<Int, Never> {
      a.merge(with: b, c, d).eraseToAnyPublisher()
    }

    @inline(never)
    static func mergeTreeBuild(_ n: Int, depth: Int) -> UInt64 {
      buildTrees(n, depth: depth, mergeLevel)
    }
  #endif

  #if HAS_COMBINE_LATEST
    @inline(never)
    static func combineLatestLevel(
      _ a: AnyPublisher<Int, Never>, _ b: AnyPublisher<Int, Never>, _ c: AnyPublisher<Int, Never>,
      _ d: AnyPublisher<Int, Never>
    ) -> AnyPublisher<Int, Never> {
      a.combineLatest(b, c, d).map { $0 &+ $1 &+ $2 &+ $3 }.eraseToAnyPublisher()
    }

    @inline(never)
    static func combineLatestTreeBuild(_ n: Int, depth: Int) -> UInt64 {
      buildTrees(n, depth: depth, combineLatestLevel)
    }

    @inline(never)
    static func combineLatestJustLevel(_ below: AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never> {
      Publishers.CombineLatest4(below, Just(1), Just(1), Just(1)).map { x, _, _, _ in x }.eraseToAnyPublisher()
    }

    @inline(never)
    static func combineLatestJustTree(_ n: Int, depth: Int) -> UInt64 {
      buildJustTrees(n, depth: depth, combineLatestJustLevel)
    }
  #endif

  /// Builds `erased(CurrentValueSubject(1))` → five `flatMap { Just($0) }` → `sink` (one value
  /// passes all five levels), then cancels it: a pipeline built and dropped per item.
  @inline(never)
  static func flatMapChainBuild(_ n: Int) -> UInt64 {
    let root = CurrentValueSubject<Int, Never>(1)
    let sum = Accumulator()
    for _ in 0..<n {
      let cancellable = erasedLeaf(root).flatMap { Just($0) }.flatMap { Just($0) }.flatMap { Just($0) }
        .flatMap { Just($0) }.flatMap { Just($0) }.sink { sum.add($0) }
      cancellable.cancel()
    }
    return sum.finish()
  }

  /// ``flatMapChainBuild(_:)`` at depth 1.
  @inline(never)
  static func flatMapChainBuild1(_ n: Int) -> UInt64 {
    let root = CurrentValueSubject<Int, Never>(1)
    let sum = Accumulator()
    for _ in 0..<n {
      let cancellable = erasedLeaf(root).flatMap { Just($0) }.sink { sum.add($0) }
      cancellable.cancel()
    }
    return sum.finish()
  }

  /// ``switchToLatestChainBuild(_:)`` at depth 1.
  @inline(never)
  static func switchToLatestChainBuild1(_ n: Int) -> UInt64 {
    let root = CurrentValueSubject<Int, Never>(1)
    let sum = Accumulator()
    for _ in 0..<n {
      let cancellable = erasedLeaf(root).map { Just($0) }.switchToLatest().sink { sum.add($0) }
      cancellable.cancel()
    }
    return sum.finish()
  }

  /// As ``flatMapChainBuild(_:)`` with five `map { Just($0) }.switchToLatest()`.
  @inline(never)
  static func switchToLatestChainBuild(_ n: Int) -> UInt64 {
    let root = CurrentValueSubject<Int, Never>(1)
    let sum = Accumulator()
    for _ in 0..<n {
      let cancellable = erasedLeaf(root).map { Just($0) }.switchToLatest().map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest().map { Just($0) }.switchToLatest().map { Just($0) }.switchToLatest()
        .sink { sum.add($0) }
      cancellable.cancel()
    }
    return sum.finish()
  }

  /// Twelve stages built inside a generic helper, as an app's `func sum<P: Publisher>(_ p: P)`
  /// writes them: 6 × (`map` → `filter`), then `sink`.
  @inline(never)
  static func sum<P: Publisher>(_ p: P, into sum: Accumulator) -> AnyCancellable
  where P.Output == Int, P.Failure == Never {
    p.map { Work.transform($0) }.filter { Work.isIncluded($0) }
      .map { Work.step($0) }.filter { Work.keep($0) }
      .map { Work.step($0) }.filter { Work.keep($0) }
      .map { Work.step($0) }.filter { Work.keep($0) }
      .map { Work.step($0) }.filter { Work.keep($0) }
      .map { Work.step($0) }.filter { Work.keep($0) }
      .sink { sum.add($0) }
  }

  @inline(never)
  static func generic12(_ n: Int) -> UInt64 {
    sendThrough(n) { sum($0, into: $1) }
  }

  /// `sum` as a caller in another module gets it from a helper that is not `@inlinable`:
  /// this function is compiled once for every `P`, so its call reaches `sum`'s generic body,
  /// not a copy specialised for the subject.
  @inline(never)
  @_semantics("optimize.sil.specialize.generic.never")
  static func sumUnspecialised<P: Publisher>(_ p: P, into accumulator: Accumulator) -> AnyCancellable
  where P.Output == Int, P.Failure == Never {
    sum(p, into: accumulator)
  }

  @inline(never)
  static func generic12Unspecialised(_ n: Int) -> UInt64 {
    sendThrough(n) { sumUnspecialised($0, into: $1) }
  }

  /// As ``sum(_:into:)`` with `compactMap` in place of `filter`. `compactMap` followed by
  /// `map` fuses into one `compactMap`, as Apple's does, so the pipeline is one `map` and six
  /// `compactMap`s, five of them holding a fused closure.
  @inline(never)
  @_semantics("optimize.sil.specialize.generic.never")
  static func compactSumUnspecialised<P: Publisher>(_ p: P, into sum: Accumulator) -> AnyCancellable
  where P.Output == Int, P.Failure == Never {
    p.map { Work.transform($0) }.compactMap { Work.isIncluded($0) ? $0 : nil }
      .map { Work.step($0) }.compactMap { Work.keep($0) ? $0 : nil }
      .map { Work.step($0) }.compactMap { Work.keep($0) ? $0 : nil }
      .map { Work.step($0) }.compactMap { Work.keep($0) ? $0 : nil }
      .map { Work.step($0) }.compactMap { Work.keep($0) ? $0 : nil }
      .map { Work.step($0) }.compactMap { Work.keep($0) ? $0 : nil }
      .sink { sum.add($0) }
  }

  @inline(never)
  static func genericCompactMapUnspecialised(_ n: Int) -> UInt64 {
    sendThrough(n) { compactSumUnspecialised($0, into: $1) }
  }

  /// As ``sum(_:into:)`` with `tryFilter` in place of `filter` (a subscription with its own
  /// state machine, as `tryMap`, `removeDuplicates` and `prefix(while:)` have).
  @inline(never)
  @_semantics("optimize.sil.specialize.generic.never")
  static func trySumUnspecialised<P: Publisher>(_ p: P, into sum: Accumulator) -> AnyCancellable
  where P.Output == Int, P.Failure == Never {
    p.map { Work.transform($0) }.tryFilter { Work.isIncluded($0) }
      .map { Work.step($0) }.tryFilter { Work.keep($0) }
      .map { Work.step($0) }.tryFilter { Work.keep($0) }
      .map { Work.step($0) }.tryFilter { Work.keep($0) }
      .map { Work.step($0) }.tryFilter { Work.keep($0) }
      .map { Work.step($0) }.tryFilter { Work.keep($0) }
      .sink(receiveCompletion: { _ in }, receiveValue: { sum.add($0) })
  }

  @inline(never)
  static func genericTryFilterUnspecialised(_ n: Int) -> UInt64 {
    sendThrough(n) { trySumUnspecialised($0, into: $1) }
  }

  /// A fan-in and a flattening built by generic code: the subject zipped with itself
  /// (two `map`s), each pair folded, each result through `flatMap { Just($0) }`, filtered.
  @inline(never)
  @_semantics("optimize.sil.specialize.generic.never")
  static func zipFlatSumUnspecialised<P: Publisher>(_ p: P, into sum: Accumulator) -> AnyCancellable
  where P.Output == Int, P.Failure == Never {
    let pairs = p.map { Work.transform($0) }.zip(p.map { Work.step($0) })
    let folded = pairs.map { Work.pair($0.0, $0.1) }
    return folded.flatMap { Just($0) }.filter { Work.keep($0) }.sink { sum.add($0) }
  }

  @inline(never)
  static func genericZipFlatMapUnspecialised(_ n: Int) -> UInt64 {
    sendThrough(n) { zipFlatSumUnspecialised($0, into: $1) }
  }

  /// Sends `0..<n` to a subject through what `helper` built on it, then finishes it.
  @inline(__always)
  static func sendThrough(
    _ n: Int, _ helper: (PassthroughSubject<Int, Never>, Accumulator) -> AnyCancellable
  ) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    let accumulator = Accumulator()
    let cancellable = helper(subject, accumulator)
    for i in 0..<n { subject.send(i) }
    subject.send(completion: .finished)
    blackHole(cancellable)
    return accumulator.finish()
  }

}
