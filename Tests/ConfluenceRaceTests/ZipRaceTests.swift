import Confluence
import Synchronization
import XCTest

/// `zip` of subjects each fed from its own thread: the n-th output pairs the n-th values,
/// every pair once, in order, one event at a time, and it finishes once, after the last.
final class ZipRaceTests: XCTestCase {
  func test_zipOfTwoSubjects_fedFromTwoThreads_pairsInOrder() {
    race("zip: 2 subjects, each sent to from its own thread", threads: 2) { iteration in
      let subjects = (0..<2).map { _ in PassthroughSubject<RaceTag, Never>() }
      let mismatches = Mutex<[String]>([])
      let zipped = subjects[0].zip(subjects[1]).map { first, second -> RaceTag in
        if first.seq != second.seq || first.thread != 0 || second.thread != 1 {
          mismatches.withLock { $0.append("(\(first.short), \(second.short))") }
        }
        return first
      }
      let a = iteration.sink("A", on: zipped)
      for index in 0..<2 {
        iteration.thread { actor in
          actor.send(8) { subjects[index].send($0) }
          actor.pause()
          subjects[index].send(completion: .finished)
        }
      }
      iteration.check {
        var found = RaceCheck.exactlyOnce(a.recorder, raceTags(threads: 0..<1, count: 8))
        found += RaceCheck.threadOrder(a.recorder) + RaceCheck.oneCompletion(a.recorder, allowed: ["finished"])
        let wrong = mismatches.withLock { $0 }
        if !wrong.isEmpty {
          found.append(
            RaceViolation(.reordered, "zip paired values of different places: \(wrong.joined(separator: " "))"))
        }
        return found
      }
    }
  }

  /// Four upstreams in one subscription, each fed and finished from its own thread: the
  /// n-th output holds every side's n-th value, each once, in order, and one completion.
  func test_zipOfFourSubjects_fedFromFourThreads_pairsInOrder() {
    race("zip: 4 subjects, each sent to and finished from its own thread", threads: 4) { iteration in
      let subjects = (0..<4).map { _ in PassthroughSubject<RaceTag, Never>() }
      let mismatches = Mutex<[String]>([])
      let zipped = subjects[0].zip(subjects[1], subjects[2], subjects[3]).map { a, b, c, d -> RaceTag in
        let tags = [a, b, c, d]
        if tags.contains(where: { $0.seq != a.seq }) || tags.map(\.thread) != [0, 1, 2, 3] {
          mismatches.withLock { $0.append("(" + tags.map(\.short).joined(separator: ", ") + ")") }
        }
        return a
      }
      let a = iteration.sink("A", on: zipped)
      for index in 0..<4 {
        iteration.thread { actor in
          actor.send(6) { subjects[index].send($0) }
          actor.pause()
          subjects[index].send(completion: .finished)
        }
      }
      iteration.check {
        var found = RaceCheck.exactlyOnce(a.recorder, raceTags(threads: 0..<1, count: 6))
        found += RaceCheck.threadOrder(a.recorder) + RaceCheck.oneCompletion(a.recorder, allowed: ["finished"])
        let wrong = mismatches.withLock { $0 }
        if !wrong.isEmpty {
          found.append(
            RaceViolation(.reordered, "zip paired values of different places: \(wrong.joined(separator: " "))"))
        }
        return found
      }
    }
  }

  /// Three upstreams, limited demand asked from a fourth thread: never more than asked for,
  /// and each upstream's values in its order. (A subject drops a value zip has no demand
  /// for, so outputs may pair values of different places.)
  func test_zipOfThreeSubjects_requestsFromAnotherThread_neverMoreThanDemanded() {
    race("zip: 3 subjects sent to from 3 threads, a fourth thread requests", threads: 4) { iteration in
      let subjects = (0..<3).map { _ in PassthroughSubject<RaceTag, Never>() }
      let a: RaceSubscriber<Never> = iteration.subscriber("A", demand: .max(1))
      let others = RacePairs()
      subjects[0].zip(subjects[1], subjects[2]).map { first, second, third -> RaceTag in
        others.append(second, third)
        return first
      }.subscribe(a)
      for index in 0..<3 {
        iteration.thread { $0.send(6) { subjects[index].send($0) } }
      }
      iteration.thread { actor in
        for _ in 0..<3 {
          actor.pause()
          a.request(.max(1))
        }
      }
      iteration.check {
        RaceCheck.noDuplicates(a.recorder) + RaceCheck.threadOrder(a.recorder) + others.increasingOnBothSides()
      }
    }
  }
}
