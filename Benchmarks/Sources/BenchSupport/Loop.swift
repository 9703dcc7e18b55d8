import Dispatch

/// The hand-written loops: the same work with no framework, the physical limit, and the
/// reference checksum every library must reproduce.
public enum LoopWorkloads {
  /// A heap object, for the per-subscription workloads: the loop allocates and frees one
  /// per item, the least a subscription that owns state could cost.
  final class Box {
    var value: Int
    init(_ value: Int) { self.value = value }
  }

  public static var all: [Implementation] {
    deepPipelines + rxSuite + contended + [
      .sync(.loop, .sequenceEager, note: "for i in 0..<N { map; filter; mix }") { mapFilter($0) },
      .sync(.loop, .sequenceStreaming, note: "for i in 0..<N { map; filter; mix }") { mapFilter($0) },
      .sync(
        .loop, .sequenceCapturedVar,
        note: "for i in 0..<N { map; filter; body(value) }, body an escaping closure folding into a captured var"
      ) {
        capturedClosure($0)
      },
      .sync(.loop, .subject1, note: "for i in 0..<N { map; filter; mix }") { subjects(n: $0, subscribers: 1) },
      .sync(.loop, .subject10, note: "for i in 0..<N { for k in 0..<10 { map; filter; mix } }") {
        subjects(n: $0, subscribers: 10)
      },
      .sync(.loop, .flatMapJust, note: "for i in 0..<N { mix }") { n in
        var hash = Work.seed
        for i in 0..<n { hash = Work.mix(hash, i) }
        return hash
      },
      .sync(.loop, .justBuildDrop, note: "for i in 0..<N { one object allocated and freed; map; mix }") {
        boxes(n: $0, send: { Work.transform($0) })
      },
      .sync(.loop, .subjectSubscribeCancel, note: "for i in 0..<N { one object allocated and freed; map; mix }") {
        boxes(n: $0, send: { Work.transform($0) })
      },
      .sync(.loop, .scan, note: "for i in 0..<N { acc &+= map(i); mix(acc) }") { n in
        var hash = Work.seed
        var accumulated = 0
        for i in 0..<n {
          accumulated = accumulated &+ Work.transform(i)
          hash = Work.mix(hash, accumulated)
        }
        return hash
      },
      .sync(.loop, .removeDuplicates, note: "for i in 0..<N { if !isDuplicate(last, i) { mix(i) }; last = i }") { n in
        var hash = Work.seed
        var last: Int? = nil
        for i in 0..<n {
          if let last, Work.isDuplicate(last, i) {
          } else {
            hash = Work.mix(hash, i)
          }
          last = i
        }
        return hash
      },
      .sync(.loop, .compactMap, note: "for i in 0..<N { map; filter; mix }") { mapFilter($0) },
      .sync(.loop, .reduce, note: "for i in 0..<N { hash = mix(hash, map(i)) }") { n in
        var hash = Work.seed
        for i in 0..<n { hash = Work.mix(hash, Work.transform(i)) }
        return hash
      },
      .sync(.loop, .merge2, note: "for i in 0..<N { mix(i) }") { n in
        var hash = Work.seed
        for i in 0..<n { hash = Work.mix(hash, i) }
        return hash
      },
      .sync(.loop, .zip2, note: "for i in stride(from: 0, to: N - 1, by: 2) { mix(pair(i, i + 1)) }") { n in
        var hash = Work.seed
        for i in stride(from: 0, to: n - 1, by: 2) { hash = Work.mix(hash, Work.pair(i, i + 1)) }
        return hash
      },
      .sync(.loop, .combineLatest2, note: "for i in 0..<N { latest[i & 1] = i; if both { mix(pair(a, b)) } }") { n in
        var hash = Work.seed
        var a: Int? = nil
        var b: Int? = nil
        for i in 0..<n {
          if i & 1 == 0 { a = i } else { b = i }
          if let a, let b { hash = Work.mix(hash, Work.pair(a, b)) }
        }
        return hash
      },
      .sync(.loop, .flatMapMax1Just, note: "for i in 0..<N { mix }") { n in
        var hash = Work.seed
        for i in 0..<n { hash = Work.mix(hash, i) }
        return hash
      },
      .sync(.loop, .share10, note: "for i in 0..<N { for k in 0..<10 { map; filter; mix } }") {
        subjects(n: $0, subscribers: 10)
      },
      .sync(.loop, .receiveOnDispatch, note: "producer thread: queue.async { mix(i) } per value, then a semaphore") {
        dispatchPerValue($0)
      },
      .sync(
        .loop, .httpLines,
        note: "URLSession data delegate: memchr each Data for newlines, String(decoding:) per line, mix"
      ) { HTTPLines.urlSessionDelegate($0) },
      .sync(.loop, .erasedBuildDrop, note: "for i in 0..<N { one object allocated and freed; map; mix }") {
        boxes(n: $0, send: { Work.transform($0) })
      },
      .sync(.loop, .erasedZipTree, note: "for i in 0..<N { mix(i) }") { n in
        var hash = Work.seed
        for i in 0..<n { hash = Work.mix(hash, i) }
        return hash
      },
      .sync(.loop, .erasedCombineLatestTree, note: "for i in 0..<N { mix(i) }") { n in
        var hash = Work.seed
        for i in 0..<n { hash = Work.mix(hash, i) }
        return hash
      },
      .sync(.loop, .subject12, note: "for i in 0..<N { map; filter; 5 × (step; keep); mix }") {
        longChain($0, steps: 5)
      },
      .sync(.loop, .erasedSubject12, note: "for i in 0..<N { map; filter; 5 × (step; keep); mix }") {
        longChain($0, steps: 5)
      },
      .sync(.loop, .anySubscriber12, note: "for i in 0..<N { map; filter; 5 × (step; keep); mix }") {
        longChain($0, steps: 5)
      },
      .sync(.loop, .subject12Called, note: "for i in 0..<N { map; filter; 5 × (step; keepCalled); mix }") {
        longChainCalled($0, steps: 5)
      },
      .sync(.loop, .erasedSubject12Called, note: "for i in 0..<N { map; filter; 5 × (step; keepCalled); mix }") {
        longChainCalled($0, steps: 5)
      },
      .sync(
        .loop, .subject12Mixed,
        note:
          "for i in 0..<N { map; filter; keep ? step; skip if == last; step; sum &+=; keep; skip while < 0; step; keep; step; mix }"
      ) {
        mixedChain($0)
      },
      .sync(.loop, .sequence12, note: "for i in 0..<N { map; filter; 5 × (step; keep); mix }") {
        longChain($0, steps: 5)
      },
      .sync(.loop, .switchToLatest5, note: "for i in 0..<N { mix(i) }") { n in
        var hash = Work.seed
        for i in 0..<n { hash = Work.mix(hash, i) }
        return hash
      },
      .sync(.loop, .longFlatMap, note: "for i in 0..<N { map; filter; 4 × (step; keep); mix }") {
        longChain($0, steps: 4)
      },
      .sync(.loop, .longMerge, note: "for i in 0..<N { map; filter; 4 × (step; keep); mix }") {
        longChain($0, steps: 4)
      },
      .sync(
        .loop, .longCombineLatest,
        note: "for i in 0..<N { latest[i & 1] = map(i) + 1 if kept; if both { mix(pair + 3) } }"
      ) {
        n in
        var hash = Work.seed
        var a: Int? = nil
        var b: Int? = nil
        for i in 0..<n {
          let value = Work.transform(i)
          guard Work.isIncluded(value), Work.keep(Work.step(value)) else { continue }
          if i & 1 == 0 { a = Work.step(value) } else { b = Work.step(value) }
          guard let a, let b else { continue }
          var paired = Work.pair(a, b)
          var kept = Work.keep(paired)
          for _ in 0..<3 {
            paired = Work.step(paired)
            kept = kept && Work.keep(paired)
          }
          if kept { hash = Work.mix(hash, paired) }
        }
        return hash
      },
    ]
  }

  /// `map`, `filter`, then `steps` × (`step`, `keep`), then `mix`: the long pipelines' work.
  @inline(never)
  static func longChain(_ n: Int, steps: Int) -> UInt64 {
    chain(n, steps: steps, keep: Work.keep)
  }

  /// `longChain` with `Work.keepCalled` for `keep`.
  @inline(never)
  static func longChainCalled(_ n: Int, steps: Int) -> UInt64 {
    chain(n, steps: steps, keep: Work.keepCalled)
  }

  /// The loop of `longChain` and `longChainCalled`; inlined into each, so that `keep` is a
  /// direct call (inlined for `Work.keep`).
  @inline(__always)
  static func chain(_ n: Int, steps: Int, keep: (Int) -> Bool) -> UInt64 {
    var hash = Work.seed
    for i in 0..<n {
      var value = Work.transform(i)
      guard Work.isIncluded(value) else { continue }
      var kept = true
      for _ in 0..<steps {
        value = Work.step(value)
        kept = kept && keep(value)
      }
      if kept { hash = Work.mix(hash, value) }
    }
    return hash
  }

  /// subject-12-mixed's twelve stages by hand: `map`, `filter`, `compactMap` (`keep` ? `step`),
  /// `removeDuplicates` (against the last value it received), `map`, `handleEvents` (nothing),
  /// `scan` (a wrapping running sum from 0), `filter`, `drop(while: < 0)` (only while the
  /// leading sums are negative), `map`, `filter`, `map`, then `mix`.
  @inline(never)
  static func mixedChain(_ n: Int) -> UInt64 {
    var hash = Work.seed
    var last: Int? = nil
    var sum = 0
    var dropping = true
    for i in 0..<n {
      var value = Work.transform(i)
      guard Work.isIncluded(value), Work.keep(value) else { continue }
      value = Work.step(value)
      if let last, last == value { continue }
      last = value
      sum = sum &+ Work.step(value)
      guard Work.keep(sum) else { continue }
      if dropping {
        guard sum >= 0 else { continue }
        dropping = false
      }
      value = Work.step(sum)
      guard Work.keep(value) else { continue }
      hash = Work.mix(hash, Work.step(value))
    }
    return hash
  }

  /// The hand-written thread hop: one `DispatchQueue.async` per value from a producer thread
  /// onto a serial queue (FIFO, so the checksum sees the values in order).
  @inline(never)
  static func dispatchPerValue(_ n: Int) -> UInt64 {
    let queue = DispatchQueue(label: "bench.loop.receive-on")
    let sum = Accumulator()
    let done = DispatchSemaphore(value: 0)
    runOnNewThread {
      for i in 0..<n {
        queue.async { sum.add(i) }
      }
      queue.async { done.signal() }
    }
    done.wait()
    return sum.finish()
  }

  /// The body of a `sink` with a captured `var`, without the library: an escaping closure,
  /// handed through `opaque` so the optimiser cannot see through it, folding into a
  /// captured `var` (boxed, with a dynamic exclusivity check per call, as in any `sink`).
  /// (Until 2026-11-25 the closure went through a static variable written and read in this
  /// same function; the optimiser forwarded the store to the load, inlined the body and
  /// measured the plain loop, 1.4 ns.)
  @inline(never)
  static func capturedClosure(_ n: Int) -> UInt64 {
    var hash = Work.seed
    let body: (Int) -> Void = opaque({ hash = Work.mix(hash, $0) })
    for i in 0..<n {
      let value = Work.transform(i)
      if Work.isIncluded(value) { body(value) }
    }
    return hash
  }

  @inline(never)
  static func mapFilter(_ n: Int) -> UInt64 {
    var hash = Work.seed
    for i in 0..<n {
      let value = Work.transform(i)
      if Work.isIncluded(value) { hash = Work.mix(hash, value) }
    }
    return hash
  }

  @inline(never)
  static func subjects(n: Int, subscribers: Int) -> UInt64 {
    var hashes = [UInt64](repeating: Work.seed, count: subscribers)
    for i in 0..<n {
      for k in 0..<subscribers {
        let value = Work.transform(i) &+ k
        if Work.isIncluded(value) { hashes[k] = Work.mix(hashes[k], value) }
      }
    }
    return Work.combine(hashes)
  }

  nonisolated(unsafe) static var retained: Box?

  @inline(never)
  static func boxes(n: Int, send: (Int) -> Int) -> UInt64 {
    var hash = Work.seed
    for i in 0..<n {
      let box = Box(send(i))
      retained = box  // escapes, so it is a real heap allocation; frees the previous one
      hash = Work.mix(hash, box.value)
    }
    retained = nil
    return hash
  }
}
