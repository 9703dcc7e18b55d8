import BenchSupport
import Confluence

// Two threads sending at once, each N / 2 ones: the subject's and `flatMap`'s locks
// contended. The same source text as the other workload module's Contended.swift, over
// Confluence. Keep the two in step.

extension ConfluenceWorkloads {
  static var contended: [Implementation] {
    [
      .sync(.confluence, .contendedSubject2, note: "PassthroughSubject → 2 × Sink, two senders", contendedSubject2),
      .sync(
        .confluence, .contendedFlatMap, note: "PassthroughSubject → FlatMap<Just> → Sink, two senders", contendedFlatMap
      ),
    ]
  }

  @inline(never)
  static func contendedSubject2(_ n: Int) -> UInt64 {
    let first = Accumulator()
    let second = Accumulator()
    let subject = PassthroughSubject<Int, Never>()
    let a = subject.sink { first.add($0) }
    let b = subject.sink { second.add($0) }
    onTwoThreads { _ in
      for _ in 0..<(n / 2) { subject.send(1) }
    }
    a.cancel()
    b.cancel()
    return Work.combine([first.finish(), second.finish()])
  }

  @inline(never)
  static func contendedFlatMap(_ n: Int) -> UInt64 {
    let sum = Accumulator()
    let subject = PassthroughSubject<Int, Never>()
    let subscription = subject.flatMap { Just($0) }.sink { sum.add($0) }
    onTwoThreads { _ in
      for _ in 0..<(n / 2) { subject.send(1) }
    }
    subscription.cancel()
    return sum.finish()
  }
}
