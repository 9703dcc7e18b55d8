import Dispatch

/// The hand-written loops of the contended rows: every value sent is a one, so each sink's
/// checksum is `mix(1)` once per value it receives, whichever thread sent it.
extension LoopWorkloads {
  static var contended: [Implementation] {
    [
      .sync(.loop, .contendedSubject2, note: "2 × (for i in 0..<N { mix(1) }), combined") { n in
        let one = ones(n)
        return Work.combine([one, one])
      },
      .sync(.loop, .contendedFlatMap, note: "for i in 0..<N { mix(1) }") { ones($0) },
    ]
  }

  /// The checksum of `n` ones.
  static func ones(_ n: Int) -> UInt64 {
    var hash = Work.seed
    for _ in 0..<n { hash = Work.mix(hash, 1) }
    return hash
  }
}

/// Runs `body(0)` and `body(1)` on two threads at once and returns when both have. (What
/// `body` captures is shared between the two on purpose: the library under test is what must
/// make that safe.)
public func onTwoThreads(_ body: (Int) -> Void) {
  withoutActuallyEscaping(body) { body in
    nonisolated(unsafe) let body = body
    DispatchQueue.concurrentPerform(iterations: 2) { body($0) }
  }
}
