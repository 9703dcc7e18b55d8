import Confluence
import Synchronization
import XCTest

/// `combineLatest` of subjects each fed from its own thread: once both have sent, each
/// value sent produces one output that pairs it with the other's latest value, so the
/// outputs advance one side by one step at a time, one event at a time, and end with both
/// sides' last values.
final class CombineLatestRaceTests: XCTestCase {
  func test_combineLatestOfTwoSubjects_fedFromTwoThreads_oneStepPerValue() {
    race("combineLatest: 2 subjects, each sent to from its own thread", threads: 2) { iteration in
      let subjects = (0..<2).map { _ in PassthroughSubject<RaceTag, Never>() }
      let pairs = RacePairs()
      let combined = subjects[0].combineLatest(subjects[1]).map { first, second -> RaceTag in
        pairs.append(first, second)
        return RaceTag(thread: 0, seq: pairs.count - 1)
      }
      let a = iteration.sink("A", on: combined)
      for index in 0..<2 {
        iteration.thread { $0.send(8) { subjects[index].send($0) } }
      }
      iteration.check {
        pairs.violations(last: 7) + RaceCheck.noDuplicates(a.recorder) + RaceCheck.threadOrder(a.recorder)
      }
    }
  }
}

/// The pairs a `combineLatest` produced, in order, and the check on them.
final class RacePairs: Sendable {
  private let pairs = RaceLocked<[(RaceTag, RaceTag)]>([])

  func append(_ first: RaceTag, _ second: RaceTag) {
    pairs.withLock { $0.append((first, second)) }
  }

  var count: Int { pairs.withLock { $0.count } }

  /// Each side's values are in their thread's order, none twice (a zip's other sides).
  func increasingOnBothSides() -> [RaceViolation] {
    let all = pairs.withLock { $0 }
    for (previous, next) in zip(all, all.dropFirst()) where next.0.seq <= previous.0.seq || next.1.seq <= previous.1.seq
    {
      return [
        RaceViolation(
          .reordered,
          "an output paired (\(next.0.short), \(next.1.short)) after (\(previous.0.short), \(previous.1.short))")
      ]
    }
    return []
  }

  /// The first pair has a side's first value; each later pair advances exactly one side by
  /// one; the last pairs both sides' `last` values.
  func violations(last: Int) -> [RaceViolation] {
    let all = pairs.withLock { $0 }
    let shown = all.map { "(\($0.0.short), \($0.1.short))" }.joined(separator: " ")
    guard let first = all.first else {
      return [RaceViolation(.lost, "combineLatest produced nothing")]
    }
    if first.0.seq != 0 && first.1.seq != 0 {
      return [RaceViolation(.lost, "combineLatest's first output pairs neither side's first value: \(shown)")]
    }
    for (previous, next) in zip(all, all.dropFirst()) {
      let steps = (next.0.seq - previous.0.seq, next.1.seq - previous.1.seq)
      if steps != (1, 0) && steps != (0, 1) {
        return [
          RaceViolation(
            steps.0 < 0 || steps.1 < 0 ? .reordered : (steps == (0, 0) ? .duplicated : .lost),
            "combineLatest went from (\(previous.0.short), \(previous.1.short)) to (\(next.0.short), \(next.1.short)): \(shown)"
          )
        ]
      }
    }
    if let end = all.last, end.0.seq != last || end.1.seq != last {
      return [RaceViolation(.lost, "combineLatest's last output is not both sides' last values: \(shown)")]
    }
    return []
  }
}
