import AsyncAlgorithms
import BenchSupport

// The same workloads over Swift concurrency, where one exists: stdlib AsyncSequence operators
// (map, filter, flatMap) and AsyncStream, and swift-async-algorithms' AsyncChannel. A subject
// with several subscribers is written the way it is done by hand: one AsyncStream per consumer.

public enum AsyncWorkloads {
  public static var all: [Implementation] {
    [
      .missing(.asyncSequence, .sequenceEager, "no eager form"),
      .async(
        .asyncSequence, .sequenceStreaming,
        note: "(0..<N).async (async-algorithms) → AsyncMapSequence → AsyncFilterSequence, for await"
      ) {
        await sequenceStreaming($0)
      },
      .async(.asyncSequence, .subject1, note: "AsyncStream (unbounded) → map → filter, consumer task") {
        await streams(n: $0, subscribers: 1)
      },
      .async(.asyncSequence, .subject10, note: "10 AsyncStreams (unbounded) → map → filter, 10 consumer tasks") {
        await streams(n: $0, subscribers: 10)
      },
      .async(.asyncSequence, .flatMapJust, note: "(0..<N).async.flatMap { one-element AsyncSequence }") {
        await flatMapJust($0)
      },
      .missing(.asyncSequence, .justBuildDrop, "no equivalent"),
      .missing(.asyncSequence, .subjectSubscribeCancel, "no equivalent"),
      .async(.asyncAlgorithms, .subject1, note: "AsyncChannel.send (rendezvous) → map → filter, consumer task") {
        await channel($0)
      },
      .async(.asyncAlgorithms, .scan, note: "(0..<N).async.reductions(0) { $0 &+ map($1) }, for await") {
        await scan($0)
      },
      .async(.asyncAlgorithms, .removeDuplicates, note: "(0..<N).async.removeDuplicates(by:), for await") {
        await removeDuplicates($0)
      },
      .async(.asyncSequence, .compactMap, note: "(0..<N).async (async-algorithms) → AsyncCompactMapSequence, for await")
      {
        await compactMap($0)
      },
      .async(.asyncSequence, .reduce, note: "await (0..<N).async (async-algorithms).reduce(seed) { mix($0, map($1)) }")
      {
        await reduce($0)
      },
      .missing(.asyncAlgorithms, .merge2, "merge(_:_:) interleaves two streams by timing: no deterministic checksum"),
      .async(.asyncAlgorithms, .zip2, note: "zip(AsyncStream, AsyncStream) (unbounded), consumer task") {
        await zip2($0)
      },
      .missing(.asyncAlgorithms, .combineLatest2, "combineLatest(_:_:) pairs by timing: no deterministic checksum"),
      // AsyncSequence.flatMap runs one inner sequence at a time: it is maxPublishers: .max(1).
      .async(.asyncSequence, .flatMapMax1Just, note: "(0..<N).async.flatMap { one-element AsyncSequence }") {
        await flatMapJust($0)
      },
      .async(
        .asyncSequence, .receiveOnDispatch,
        note: "producer thread yields into an AsyncStream (unbounded); for await in a task"
      ) {
        await streamFromThread($0)
      },
      .missing(.asyncAlgorithms, .share10, "share() not compared: its consumers join a running source by timing"),
    ]
  }

  @inline(never)
  static func sequenceStreaming(_ n: Int) async -> UInt64 {
    let sum = Accumulator()
    for await value in (0..<n).async.map({ Work.transform($0) }).filter({ Work.isIncluded($0) }) {
      sum.add(value)
    }
    return sum.finish()
  }

  @inline(never)
  static func scan(_ n: Int) async -> UInt64 {
    let sum = Accumulator()
    for await value in (0..<n).async.reductions(0, { $0 &+ Work.transform($1) }) {
      sum.add(value)
    }
    return sum.finish()
  }

  @inline(never)
  static func removeDuplicates(_ n: Int) async -> UInt64 {
    let sum = Accumulator()
    for await value in (0..<n).async.removeDuplicates(by: { Work.isDuplicate($0, $1) }) {
      sum.add(value)
    }
    return sum.finish()
  }

  @inline(never)
  static func compactMap(_ n: Int) async -> UInt64 {
    let sum = Accumulator()
    let values = (0..<n).async.compactMap { value -> Int? in
      let mapped = Work.transform(value)
      return Work.isIncluded(mapped) ? mapped : nil
    }
    for await value in values {
      sum.add(value)
    }
    return sum.finish()
  }

  @inline(never)
  static func reduce(_ n: Int) async -> UInt64 {
    await (0..<n).async.reduce(Work.seed) { Work.mix($0, Work.transform($1)) }
  }

  @inline(never)
  static func streams(n: Int, subscribers: Int) async -> UInt64 {
    await withTaskGroup(of: UInt64.self) { group in
      var continuations: [AsyncStream<Int>.Continuation] = []
      for k in 0..<subscribers {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        continuations.append(continuation)
        group.addTask {
          var hash = Work.seed
          for await value in stream.map({ Work.transform($0) &+ k }).filter({ Work.isIncluded($0) }) {
            hash = Work.mix(hash, value)
          }
          return hash
        }
      }
      for i in 0..<n {
        for continuation in continuations { continuation.yield(i) }
      }
      for continuation in continuations { continuation.finish() }
      var hashes: [UInt64] = []
      for await hash in group { hashes.append(hash) }
      return Work.combine(hashes)
    }
  }

  @inline(never)
  static func zip2(_ n: Int) async -> UInt64 {
    let (a, aContinuation) = AsyncStream.makeStream(of: Int.self)
    let (b, bContinuation) = AsyncStream.makeStream(of: Int.self)
    let consumer = Task {
      var hash = Work.seed
      for await (x, y) in zip(a, b) {
        hash = Work.mix(hash, Work.pair(x, y))
      }
      return hash
    }
    for i in 0..<n {
      if i & 1 == 0 { aContinuation.yield(i) } else { bContinuation.yield(i) }
    }
    aContinuation.finish()
    bContinuation.finish()
    return await consumer.value
  }

  /// The Swift concurrency way to hop threads: a producer thread yields into an AsyncStream and
  /// the calling task consumes it on the cooperative pool.
  @inline(never)
  static func streamFromThread(_ n: Int) async -> UInt64 {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    runOnNewThread {
      for i in 0..<n { continuation.yield(i) }
      continuation.finish()
    }
    let sum = Accumulator()
    for await value in stream {
      sum.add(value)
    }
    return sum.finish()
  }

  @inline(never)
  static func channel(_ n: Int) async -> UInt64 {
    let channel = AsyncChannel<Int>()
    let consumer = Task {
      var hash = Work.seed
      for await value in channel.map({ Work.transform($0) }).filter({ Work.isIncluded($0) }) {
        hash = Work.mix(hash, value)
      }
      return hash
    }
    for i in 0..<n { await channel.send(i) }
    channel.finish()
    return await consumer.value
  }

  /// The AsyncSequence counterpart of `Just`: one element, then the end.
  struct AsyncJust: AsyncSequence, Sendable {
    typealias Element = Int
    let value: Int

    struct AsyncIterator: AsyncIteratorProtocol {
      var value: Int?
      mutating func next() async -> Int? {
        defer { value = nil }
        return value
      }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(value: value) }
  }

  @inline(never)
  static func flatMapJust(_ n: Int) async -> UInt64 {
    let sum = Accumulator()
    for await value in (0..<n).async.flatMap({ AsyncJust(value: $0) }) {
      sum.add(value)
    }
    return sum.finish()
  }
}
