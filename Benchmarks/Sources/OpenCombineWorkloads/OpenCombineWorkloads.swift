import BenchSupport
import Dispatch
import OpenCombine
import OpenCombineDispatch

// The same source text as ConfluenceWorkloads.swift, over OpenCombine. Keep the two in step.

public enum OpenCombineWorkloads {
  public static var all: [Implementation] {
    var result: [Implementation] = [
      .sync(.openCombine, .sequenceEager, note: typeName(type(of: eagerPipeline(0))), sequenceEager),
      .sync(.openCombine, .sequenceStreaming, note: typeName(type(of: streamingPipeline(0))), sequenceStreaming),
      .sync(
        .openCombine, .sequenceCapturedVar, note: "as sequence-streaming, sink { hash = mix(hash, $0) }",
        sequenceCapturedVar),
      .sync(.openCombine, .justBuildDrop, note: typeName(type(of: Just(0).map { Work.transform($0) })), justBuildDrop),
      .sync(.openCombine, .scan, note: typeName(type(of: scanPipeline(0))), scan),
      .sync(.openCombine, .removeDuplicates, note: typeName(type(of: removeDuplicatesPipeline(0))), removeDuplicates),
      .sync(.openCombine, .compactMap, note: typeName(type(of: compactMapPipeline(0))), compactMap),
      .sync(.openCombine, .reduce, note: typeName(type(of: reducePipeline(0))), reduce),
    ]
    #if HAS_PASSTHROUGH_SUBJECT
      result += [
        .sync(.openCombine, .subject1, note: "PassthroughSubject → Map → Filter → Sink") {
          subjects(n: $0, subscribers: 1)
        },
        .sync(.openCombine, .subject10, note: "PassthroughSubject → Map → Filter → Sink") {
          subjects(n: $0, subscribers: 10)
        },
        .sync(.openCombine, .subjectSubscribeCancel, note: "PassthroughSubject → Map → Sink", subjectSubscribeCancel),
      ]
    #else
      result += [
        .missing(.openCombine, .subject1, "PassthroughSubject not on this branch yet"),
        .missing(.openCombine, .subject10, "PassthroughSubject not on this branch yet"),
        .missing(.openCombine, .subjectSubscribeCancel, "PassthroughSubject not on this branch yet"),
      ]
    #endif
    #if HAS_FLATMAP
      result.append(.sync(.openCombine, .flatMapJust, note: "Sequence → FlatMap<Just> → Sink", flatMapJust))
      result.append(
        .sync(
          .openCombine, .flatMapMax1Just, note: "Sequence → FlatMap<Just>(maxPublishers: .max(1)) → Sink",
          flatMapMax1Just))
    #else
      result.append(.missing(.openCombine, .flatMapJust, "flatMap not on this branch yet"))
      result.append(.missing(.openCombine, .flatMapMax1Just, "flatMap not on this branch yet"))
    #endif
    #if HAS_MERGE
      result.append(.sync(.openCombine, .merge2, note: "PassthroughSubject ×2 → Merge → Sink", merge2))
    #else
      result.append(.missing(.openCombine, .merge2, "OpenCombine 0.14 has no Merge"))
    #endif
    #if HAS_ZIP
      result.append(.sync(.openCombine, .zip2, note: "PassthroughSubject ×2 → Zip → Sink", zip2))
    #else
      result.append(.missing(.openCombine, .zip2, "Zip not on this branch yet"))
    #endif
    #if HAS_COMBINE_LATEST
      result.append(
        .sync(.openCombine, .combineLatest2, note: "PassthroughSubject ×2 → CombineLatest → Sink", combineLatest2))
    #else
      result.append(.missing(.openCombine, .combineLatest2, "OpenCombine 0.14 has no CombineLatest"))
    #endif
    #if HAS_RECEIVE_ON
      result.append(
        .sync(
          .openCombine, .receiveOnDispatch,
          note:
            "PassthroughSubject → ReceiveOn<\(typeName(type(of: scheduler(for: DispatchQueue(label: "name")))))> → Sink",
          receiveOnDispatch))
    #else
      result.append(
        .missing(.openCombine, .receiveOnDispatch, "receive(on:) or the DispatchQueue scheduler not on this branch yet")
      )
    #endif
    #if HAS_SHARE
      result.append(
        .sync(.openCombine, .share10, note: "PassthroughSubject → Share → 10 × (Map → Filter → Sink)", share10))
    #else
      result.append(.missing(.openCombine, .share10, "Share not on this branch yet"))
    #endif
    result.append(
      .sync(
        .openCombine, .erasedBuildDrop, note: "AnyPublisher<Int, Never> from a non-inlined function → Sink",
        erasedBuildDrop))
    #if HAS_ZIP
      result.append(
        .sync(
          .openCombine, .erasedZipTree, note: "AnyPublisher<[Int], Never> × N → Zip4 → Map → erased, level by level",
          erasedZipTree))
    #else
      result.append(.missing(.openCombine, .erasedZipTree, "Zip not on this branch yet"))
    #endif
    #if HAS_COMBINE_LATEST
      result.append(
        .sync(
          .openCombine, .erasedCombineLatestTree,
          note: "AnyPublisher<[Int], Never> × N → CombineLatest4 → Map → erased, level by level",
          erasedCombineLatestTree))
    #else
      result.append(.missing(.openCombine, .erasedCombineLatestTree, "CombineLatest not in this library"))
    #endif
    #if HAS_PASSTHROUGH_SUBJECT
      result += [
        .sync(.openCombine, .subject12, note: "PassthroughSubject → 6 × (Map → Filter) → Sink", subject12),
        .sync(
          .openCombine, .erasedSubject12,
          note: "AnyPublisher<Int, Never> (12 stages) from a non-inlined function → Sink", erasedSubject12),
        .sync(
          .openCombine, .anySubscriber12, note: "PassthroughSubject → 6 × (Map → Filter) → AnySubscriber",
          anySubscriber12),
        .sync(
          .openCombine, .switchToLatest5, note: "PassthroughSubject → 5 × (Map<Just> → SwitchToLatest) → Sink",
          switchToLatest5),
        .sync(
          .openCombine, .subject12Called, note: "PassthroughSubject → 6 × (Map → Filter), keep calls a function → Sink",
          subject12Called),
        .sync(
          .openCombine, .erasedSubject12Called,
          note: "AnyPublisher<Int, Never> (12 stages, keep calls a function) from a non-inlined function → Sink",
          erasedSubject12Called),
        .sync(
          .openCombine, .subject12Mixed,
          note:
            "PassthroughSubject → Map → Filter → CompactMap → RemoveDuplicates → Map → HandleEvents → Scan → Filter → DropWhile → Map → Filter → Map → Sink",
          subject12Mixed),
      ]
    #else
      result += [
        .missing(.openCombine, .subject12, "PassthroughSubject not on this branch yet"),
        .missing(.openCombine, .erasedSubject12, "PassthroughSubject not on this branch yet"),
        .missing(.openCombine, .anySubscriber12, "PassthroughSubject not on this branch yet"),
        .missing(.openCombine, .switchToLatest5, "PassthroughSubject not on this branch yet"),
        .missing(.openCombine, .subject12Called, "PassthroughSubject not on this branch yet"),
        .missing(.openCombine, .erasedSubject12Called, "PassthroughSubject not on this branch yet"),
        .missing(.openCombine, .subject12Mixed, "PassthroughSubject not on this branch yet"),
      ]
    #endif
    result.append(.sync(.openCombine, .sequence12, note: "Sequence → 6 × (Map → Filter) → Sink", sequence12))
    #if HAS_PASSTHROUGH_SUBJECT && HAS_FLATMAP
      result.append(
        .sync(
          .openCombine, .longFlatMap,
          note: "PassthroughSubject → 2 × (Map → Filter) → FlatMap<Just> → 3 × (Map → Filter) → Sink", longFlatMap))
    #else
      result.append(.missing(.openCombine, .longFlatMap, "flatMap not in this library"))
    #endif
    #if HAS_MERGE
      result.append(
        .sync(
          .openCombine, .longMerge,
          note: "2 × (PassthroughSubject → 2 × (Map → Filter)) → Merge → 3 × (Map → Filter) → Sink", longMerge))
    #else
      result.append(.missing(.openCombine, .longMerge, "Merge not in this library"))
    #endif
    #if HAS_COMBINE_LATEST
      result.append(
        .sync(
          .openCombine, .longCombineLatest,
          note: "2 × (PassthroughSubject → 2 × (Map → Filter)) → CombineLatest → 4 × (Map → Filter) → Sink",
          longCombineLatest))
    #else
      result.append(.missing(.openCombine, .longCombineLatest, "CombineLatest not in this library"))
    #endif
    result.append(.missing(.openCombine, .httpLines, "OpenCombine has no networking publishers"))
    result += deepPipelines
    result += rxSuite
    result += contended
    return result
  }

  /// Whatever `map` and `filter` overloads the compiler picks on a `Publishers.Sequence`:
  /// Apple's eager ones (returning `Publishers.Sequence<[Int], Never>`) once Confluence has
  /// them, the streaming operator types before.
  @inline(__always)
  static func eagerPipeline(_ n: Int) -> some Publisher<Int, Never> {
    (0..<n).publisher.map { Work.transform($0) }.filter { Work.isIncluded($0) }
  }

  /// The streaming operator types, spelled out so no eager overload can be chosen.
  @inline(__always)
  static func streamingPipeline(_ n: Int)
    -> Publishers.Filter<Publishers.Map<Publishers.Sequence<Range<Int>, Never>, Int>>
  {
    Publishers.Filter(
      upstream: Publishers.Map(upstream: (0..<n).publisher, transform: { Work.transform($0) }),
      isIncluded: { Work.isIncluded($0) })
  }

  @inline(never)
  static func sequenceEager(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    let cancellable = eagerPipeline(n).sink { sum.add($0) }
    blackHole(cancellable)
    return sum.finish()
  }

  @inline(never)
  static func sequenceStreaming(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    let cancellable = streamingPipeline(n).sink { sum.add($0) }
    blackHole(cancellable)
    return sum.finish()
  }

  /// The streaming pipeline with the sink folding into a captured `var`, as users write it.
  @inline(never)
  static func sequenceCapturedVar(_ n: Int) -> UInt64 {
    var hash = Work.seed
    let cancellable = streamingPipeline(n).sink { hash = Work.mix(hash, $0) }
    blackHole(cancellable)
    return hash
  }

  @inline(never)
  static func justBuildDrop(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    for i in 0..<n {
      let cancellable = Just(i).map { Work.transform($0) }.sink { sum.add($0) }
      _ = cancellable
    }
    return sum.finish()
  }

  // MARK: Operator catalogue I
  //
  // The operator types are spelled out over `(0..<N).publisher`, as in `streamingPipeline`, so
  // the eager `Publishers.Sequence` overloads (which return a `Publishers.Sequence`) cannot be
  // picked: these measure the streaming subscribers.

  @inline(__always)
  static func scanPipeline(_ n: Int) -> Publishers.Scan<Publishers.Sequence<Range<Int>, Never>, Int> {
    Publishers.Scan(upstream: (0..<n).publisher, initialResult: 0, nextPartialResult: { $0 &+ Work.transform($1) })
  }

  @inline(__always)
  static func removeDuplicatesPipeline(_ n: Int) -> Publishers.RemoveDuplicates<Publishers.Sequence<Range<Int>, Never>>
  {
    Publishers.RemoveDuplicates(upstream: (0..<n).publisher, predicate: { Work.isDuplicate($0, $1) })
  }

  @inline(__always)
  static func compactMapPipeline(_ n: Int) -> Publishers.CompactMap<Publishers.Sequence<Range<Int>, Never>, Int> {
    Publishers.CompactMap(
      upstream: (0..<n).publisher,
      transform: { value in
        let mapped = Work.transform(value)
        return Work.isIncluded(mapped) ? mapped : nil
      })
  }

  @inline(__always)
  static func reducePipeline(_ n: Int) -> Publishers.Reduce<Publishers.Sequence<Range<Int>, Never>, UInt64> {
    Publishers.Reduce(
      upstream: (0..<n).publisher, initial: Work.seed, nextPartialResult: { Work.mix($0, Work.transform($1)) })
  }

  @inline(never)
  static func scan(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    let cancellable = scanPipeline(n).sink { sum.add($0) }
    blackHole(cancellable)
    return sum.finish()
  }

  @inline(never)
  static func removeDuplicates(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    let cancellable = removeDuplicatesPipeline(n).sink { sum.add($0) }
    blackHole(cancellable)
    return sum.finish()
  }

  @inline(never)
  static func compactMap(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    let cancellable = compactMapPipeline(n).sink { sum.add($0) }
    blackHole(cancellable)
    return sum.finish()
  }

  @inline(never)
  static func reduce(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    let cancellable = reducePipeline(n).sink { sum.store($0) }
    blackHole(cancellable)
    return sum.finish()
  }

  #if HAS_PASSTHROUGH_SUBJECT
    @inline(never)
    static func subjects(n: Int, subscribers: Int) -> UInt64 {
      let subject = PassthroughSubject<Int, Never>()
      let sums = (0..<subscribers).map { _ in Accumulator() }
      let cancellables = (0..<subscribers).map { k in
        let sum = sums[k]
        return subject.map { Work.transform($0) &+ k }.filter { Work.isIncluded($0) }.sink { sum.add($0) }
      }
      for i in 0..<n { subject.send(i) }
      subject.send(completion: .finished)
      blackHole(cancellables)
      return Work.combine(sums.map { $0.finish() })
    }

    @inline(never)
    static func subjectSubscribeCancel(_ n: Int) -> UInt64 {
      let subject = PassthroughSubject<Int, Never>()
      let sum = Accumulator()
      for i in 0..<n {
        let cancellable = subject.map { Work.transform($0) }.sink { sum.add($0) }
        subject.send(i)
        cancellable.cancel()
      }
      return sum.finish()
    }
  #endif

  #if HAS_FLATMAP
    @inline(never)
    static func flatMapJust(_ n: Int) -> UInt64 {
      let sum = Accumulator()
      let cancellable = (0..<n).publisher.flatMap { Just($0) }.sink { sum.add($0) }
      blackHole(cancellable)
      return sum.finish()
    }

    @inline(never)
    static func flatMapMax1Just(_ n: Int) -> UInt64 {
      let sum = Accumulator()
      let cancellable = (0..<n).publisher.flatMap(maxPublishers: .max(1)) { Just($0) }.sink { sum.add($0) }
      blackHole(cancellable)
      return sum.finish()
    }
  #endif

  // MARK: Operator catalogue II
  //
  // Two subjects sent to alternately (even values to `a`, odd values to `b`), so every
  // library sees the same interleaving and the fan-in result is deterministic.

  #if HAS_PASSTHROUGH_SUBJECT
    @inline(__always)
    static func sendAlternately(_ n: Int, _ a: PassthroughSubject<Int, Never>, _ b: PassthroughSubject<Int, Never>) {
      for i in 0..<n {
        if i & 1 == 0 { a.send(i) } else { b.send(i) }
      }
      a.send(completion: .finished)
      b.send(completion: .finished)
    }
  #endif

  #if HAS_MERGE
    @inline(never)
    static func merge2(_ n: Int) -> UInt64 {
      let a = PassthroughSubject<Int, Never>()
      let b = PassthroughSubject<Int, Never>()
      let sum = Accumulator()
      let cancellable = a.merge(with: b).sink { sum.add($0) }
      sendAlternately(n, a, b)
      blackHole(cancellable)
      return sum.finish()
    }
  #endif

  #if HAS_ZIP
    @inline(never)
    static func zip2(_ n: Int) -> UInt64 {
      let a = PassthroughSubject<Int, Never>()
      let b = PassthroughSubject<Int, Never>()
      let sum = Accumulator()
      let cancellable = a.zip(b).sink { sum.add(Work.pair($0.0, $0.1)) }
      sendAlternately(n, a, b)
      blackHole(cancellable)
      return sum.finish()
    }
  #endif

  #if HAS_COMBINE_LATEST
    @inline(never)
    static func combineLatest2(_ n: Int) -> UInt64 {
      let a = PassthroughSubject<Int, Never>()
      let b = PassthroughSubject<Int, Never>()
      let sum = Accumulator()
      let cancellable = a.combineLatest(b).sink { sum.add(Work.pair($0.0, $0.1)) }
      sendAlternately(n, a, b)
      blackHole(cancellable)
      return sum.finish()
    }
  #endif

  // MARK: Schedulers

  #if HAS_RECEIVE_ON
    /// The library's `DispatchQueue` scheduler: the queue itself (Confluence, as Apple's), or
    /// OpenCombineDispatch's wrapper.
    static func scheduler(for queue: DispatchQueue) -> some Scheduler {
      queue.ocombine
    }

    /// A producer thread sends N values through `receive(on:)`; the sink folds them on the
    /// queue; the caller waits for the completion to arrive there.
    @inline(never)
    static func receiveOnDispatch(_ n: Int) -> UInt64 {
      let subject = PassthroughSubject<Int, Never>()
      let sum = Accumulator()
      let done = DispatchSemaphore(value: 0)
      let cancellable = subject.receive(on: scheduler(for: DispatchQueue(label: "bench.receive-on")))
        .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { sum.add($0) })
      let producer = Unchecked(subject)
      runOnNewThread {
        for i in 0..<n { producer.value.send(i) }
        producer.value.send(completion: .finished)
      }
      done.wait()
      blackHole(cancellable)
      return sum.finish()
    }
  #endif

  #if HAS_SHARE
    /// As `subjects(n:subscribers: 10)`, with `share()` between the subject and the 10 pipelines.
    @inline(never)
    static func share10(_ n: Int) -> UInt64 {
      let subject = PassthroughSubject<Int, Never>()
      let shared = subject.share()
      let sums = (0..<10).map { _ in Accumulator() }
      let cancellables = (0..<10).map { k in
        let sum = sums[k]
        return shared.map { Work.transform($0) &+ k }.filter { Work.isIncluded($0) }.sink { sum.add($0) }
      }
      for i in 0..<n { subject.send(i) }
      subject.send(completion: .finished)
      blackHole(cancellables)
      return Work.combine(sums.map { $0.finish() })
    }
  #endif

  // MARK: Type erasure at API boundaries

  /// What an API returns: the pipeline behind an `AnyPublisher`, built where the caller
  /// cannot see it.
  @inline(never)
  static func erasedJust(_ i: Int) -> AnyPublisher<Int, Never> {
    Just(i).map { Work.transform($0) }.eraseToAnyPublisher()
  }

  @inline(never)
  static func erasedBuildDrop(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    for i in 0..<n {
      let cancellable = erasedJust(i).sink { sum.add($0) }
      blackHole(cancellable)
    }
    return sum.finish()
  }

  /// One level of the tree: groups of four (a shorter last group as it comes) combined by
  /// `combine` and erased.
  @inline(never)
  static func erasedLevel(
    _ publishers: [AnyPublisher<[Int], Never>],
    four: (
      AnyPublisher<[Int], Never>, AnyPublisher<[Int], Never>, AnyPublisher<[Int], Never>, AnyPublisher<[Int], Never>
    )
      -> AnyPublisher<[Int], Never>,
    three: (AnyPublisher<[Int], Never>, AnyPublisher<[Int], Never>, AnyPublisher<[Int], Never>) -> AnyPublisher<
      [Int], Never
    >,
    two: (AnyPublisher<[Int], Never>, AnyPublisher<[Int], Never>) -> AnyPublisher<[Int], Never>
  ) -> [AnyPublisher<[Int], Never>] {
    var next: [AnyPublisher<[Int], Never>] = []
    next.reserveCapacity(publishers.count / 4 + 1)
    var i = 0
    while i < publishers.count {
      switch publishers.count - i {
      case 1: next.append(publishers[i]); i += 1
      case 2: next.append(two(publishers[i], publishers[i + 1])); i += 2
      case 3: next.append(three(publishers[i], publishers[i + 1], publishers[i + 2])); i += 3
      default: next.append(four(publishers[i], publishers[i + 1], publishers[i + 2], publishers[i + 3])); i += 4
      }
    }
    return next
  }

  @inline(never)
  static func erasedLeaves(_ n: Int) -> [AnyPublisher<[Int], Never>] {
    (0..<n).map { Just([$0]).eraseToAnyPublisher() }
  }

  #if HAS_ZIP
    @inline(never)
    static func erasedZipTree(_ n: Int) -> UInt64 {
      var level = erasedLeaves(n)
      while level.count > 1 {
        level = erasedLevel(
          level,
          four: { $0.zip($1, $2, $3).map { $0 + $1 + $2 + $3 }.eraseToAnyPublisher() },
          three: { $0.zip($1, $2).map { $0 + $1 + $2 }.eraseToAnyPublisher() },
          two: { $0.zip($1).map { $0 + $1 }.eraseToAnyPublisher() })
      }
      let sum = Accumulator()
      let cancellable = level[0].sink { values in for value in values { sum.add(value) } }
      blackHole(cancellable)
      return sum.finish()
    }
  #endif

  #if HAS_COMBINE_LATEST
    @inline(never)
    static func erasedCombineLatestTree(_ n: Int) -> UInt64 {
      var level = erasedLeaves(n)
      while level.count > 1 {
        level = erasedLevel(
          level,
          four: { $0.combineLatest($1, $2, $3).map { $0 + $1 + $2 + $3 }.eraseToAnyPublisher() },
          three: { $0.combineLatest($1, $2).map { $0 + $1 + $2 }.eraseToAnyPublisher() },
          two: { $0.combineLatest($1).map { $0 + $1 }.eraseToAnyPublisher() })
      }
      let sum = Accumulator()
      let cancellable = level[0].sink { values in for value in values { sum.add(value) } }
      blackHole(cancellable)
      return sum.finish()
    }
  #endif

  // MARK: Long pipelines (issue 21)
  //
  // Twelve stages as apps chain them: `map` → `filter` (keeps half), then five times `map`
  // (`step`) → `filter` (`keep`, keeps all). `Publishers.Map.map` and `Publishers.Filter.filter`
  // compose consecutive maps or filters into one stage, so the stages alternate.

  #if HAS_PASSTHROUGH_SUBJECT
    /// The twelve stages after `source`, as a function so that every long workload builds the
    /// same chain; `Keep` decides the five `keep` filters (`Work.keep` inlined, or
    /// `Work.keepCalled`).
    static func twelveStages<Source: Publisher, Keep: KeepPredicate>(
      _ source: Source, keeping _: Keep.Type = InlinedKeep.self
    ) -> some Publisher<Int, Never> where Source.Output == Int, Source.Failure == Never {
      source.map { Work.transform($0) }.filter { Work.isIncluded($0) }
        .map { Work.step($0) }.filter { Keep.keep($0) }
        .map { Work.step($0) }.filter { Keep.keep($0) }
        .map { Work.step($0) }.filter { Keep.keep($0) }
        .map { Work.step($0) }.filter { Keep.keep($0) }
        .map { Work.step($0) }.filter { Keep.keep($0) }
    }

    /// What an API returns: the twelve stages behind an `AnyPublisher`, built where the
    /// caller cannot see them.
    @inline(never)
    static func erasedTwelveStages<Keep: KeepPredicate>(
      _ subject: PassthroughSubject<Int, Never>, keeping _: Keep.Type
    ) -> AnyPublisher<Int, Never> {
      twelveStages(subject, keeping: Keep.self).eraseToAnyPublisher()
    }

    /// Sends `0..<n` through `subject` into what `build` makes of it, folded by a `sink`.
    @inline(__always)
    static func sendThrough<Built: Publisher>(
      _ n: Int, _ build: (PassthroughSubject<Int, Never>) -> Built
    ) -> UInt64 where Built.Output == Int, Built.Failure == Never {
      let subject = PassthroughSubject<Int, Never>()
      let sum = Accumulator()
      let cancellable = build(subject).sink { sum.add($0) }
      for i in 0..<n { subject.send(i) }
      subject.send(completion: .finished)
      blackHole(cancellable)
      return sum.finish()
    }

    @inline(never)
    static func subject12(_ n: Int) -> UInt64 {
      sendThrough(n) { twelveStages($0, keeping: InlinedKeep.self) }
    }

    @inline(never)
    static func erasedSubject12(_ n: Int) -> UInt64 {
      sendThrough(n) { erasedTwelveStages($0, keeping: InlinedKeep.self) }
    }

    @inline(never)
    static func subject12Called(_ n: Int) -> UInt64 {
      sendThrough(n) { twelveStages($0, keeping: CalledKeep.self) }
    }

    @inline(never)
    static func erasedSubject12Called(_ n: Int) -> UInt64 {
      sendThrough(n) { erasedTwelveStages($0, keeping: CalledKeep.self) }
    }

    /// Twelve stages as apps write them, with mixed operators rather than alternating
    /// `map` → `filter`: every value passes all of them but `filter { isIncluded }`. `scan`'s
    /// closure names its parameter types: with `{ $0 &+ $1 }` the whole chain takes OpenCombine
    /// over the type checker's time limit (Confluence about a second).
    static func mixedTwelveStages<Source: Publisher>(
      _ source: Source
    ) -> some Publisher<Int, Never> where Source.Output == Int, Source.Failure == Never {
      source
        .map { Work.transform($0) }
        .filter { Work.isIncluded($0) }
        .compactMap { Work.keep($0) ? Work.step($0) : nil }
        .removeDuplicates()
        .map { Work.step($0) }
        .handleEvents(receiveOutput: { _ in })
        .scan(0) { (sum: Int, value: Int) in sum &+ value }
        .filter { Work.keep($0) }
        .drop(while: { $0 < 0 })
        .map { Work.step($0) }
        .filter { Work.keep($0) }
        .map { Work.step($0) }
    }

    @inline(never)
    static func subject12Mixed(_ n: Int) -> UInt64 {
      sendThrough(n) { mixedTwelveStages($0) }
    }

    @inline(never)
    static func anySubscriber12(_ n: Int) -> UInt64 {
      let subject = PassthroughSubject<Int, Never>()
      let sum = Accumulator()
      twelveStages(subject).subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: { $0.request(.unlimited) },
          receiveValue: {
            sum.add($0)
            return .none
          },
          receiveCompletion: { _ in }))
      for i in 0..<n { subject.send(i) }
      subject.send(completion: .finished)
      return sum.finish()
    }

    @inline(never)
    static func switchToLatest5(_ n: Int) -> UInt64 {
      let subject = PassthroughSubject<Int, Never>()
      let sum = Accumulator()
      let cancellable = subject.map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .sink { sum.add($0) }
      for i in 0..<n { subject.send(i) }
      subject.send(completion: .finished)
      blackHole(cancellable)
      return sum.finish()
    }
  #endif

  /// The twelve stages over `(0..<N).publisher`; the first spelled out, so that no eager
  /// `Publishers.Sequence` overload is chosen.
  @inline(never)
  static func sequence12(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    let first = Publishers.Map(upstream: (0..<n).publisher) { Work.transform($0) }
    let cancellable = first.filter { Work.isIncluded($0) }
      .map { Work.step($0) }.filter { Work.keep($0) }
      .map { Work.step($0) }.filter { Work.keep($0) }
      .map { Work.step($0) }.filter { Work.keep($0) }
      .map { Work.step($0) }.filter { Work.keep($0) }
      .map { Work.step($0) }.filter { Work.keep($0) }
      .sink { sum.add($0) }
    blackHole(cancellable)
    return sum.finish()
  }

  #if HAS_PASSTHROUGH_SUBJECT && HAS_FLATMAP
    @inline(never)
    static func longFlatMap(_ n: Int) -> UInt64 {
      let subject = PassthroughSubject<Int, Never>()
      let sum = Accumulator()
      let cancellable = subject.map { Work.transform($0) }.filter { Work.isIncluded($0) }
        .map { Work.step($0) }.filter { Work.keep($0) }
        .flatMap { Just($0) }
        .map { Work.step($0) }.filter { Work.keep($0) }
        .map { Work.step($0) }.filter { Work.keep($0) }
        .map { Work.step($0) }.filter { Work.keep($0) }
        .sink { sum.add($0) }
      for i in 0..<n { subject.send(i) }
      subject.send(completion: .finished)
      blackHole(cancellable)
      return sum.finish()
    }
  #endif

  #if HAS_PASSTHROUGH_SUBJECT
    /// Two stages on one side of a fan-in.
    static func twoStages(_ subject: PassthroughSubject<Int, Never>) -> some Publisher<Int, Never> {
      subject.map { Work.transform($0) }.filter { Work.isIncluded($0) }.map { Work.step($0) }.filter { Work.keep($0) }
    }
  #endif

  #if HAS_MERGE
    @inline(never)
    static func longMerge(_ n: Int) -> UInt64 {
      let a = PassthroughSubject<Int, Never>()
      let b = PassthroughSubject<Int, Never>()
      let sum = Accumulator()
      let cancellable = twoStages(a).merge(with: twoStages(b))
        .map { Work.step($0) }.filter { Work.keep($0) }
        .map { Work.step($0) }.filter { Work.keep($0) }
        .map { Work.step($0) }.filter { Work.keep($0) }
        .sink { sum.add($0) }
      sendAlternately(n, a, b)
      blackHole(cancellable)
      return sum.finish()
    }
  #endif

  #if HAS_COMBINE_LATEST
    @inline(never)
    static func longCombineLatest(_ n: Int) -> UInt64 {
      let a = PassthroughSubject<Int, Never>()
      let b = PassthroughSubject<Int, Never>()
      let sum = Accumulator()
      let cancellable = twoStages(a).combineLatest(twoStages(b))
        .map { Work.pair($0, $1) }.filter { Work.keep($0) }
        .map { Work.step($0) }.filter { Work.keep($0) }
        .map { Work.step($0) }.filter { Work.keep($0) }
        .map { Work.step($0) }.filter { Work.keep($0) }
        .sink { sum.add($0) }
      sendAlternately(n, a, b)
      blackHole(cancellable)
      return sum.finish()
    }
  #endif
}
