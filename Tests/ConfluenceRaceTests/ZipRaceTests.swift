import Confluence
import Synchronization
import XCTest

/// `zip` of subjects each fed from its own thread: the n-th output pairs the n-th values,
/// every pair once, in order, one event at a time, and it finishes once, after the last.
final class ZipRaceTests: XCTestCase {
  func test_zipOfTwoSubjects_fedFromTwoThreads_pairsInOrder() {
    raceZipOfSubjects(2, values: 8) { s in s[0].zip(s[1]).map { [$0, $1] }.eraseToAnyPublisher() }
  }

  /// Four upstreams in one subscription, each fed and finished from its own thread.
  func test_zipOfFourSubjects_fedFromFourThreads_pairsInOrder() {
    raceZipOfSubjects(4, values: 6) { s in
      s[0].zip(s[1], s[2], s[3]).map { [$0, $1, $2, $3] }.eraseToAnyPublisher()
    }
  }

  /// `count` subjects, each sent `values` values and then finished from its own thread,
  /// zipped by `zipped` into the list of one value per subject: the n-th output holds every
  /// subject's n-th value, each once, in order, and one completion follows.
  private func raceZipOfSubjects(
    _ count: Int, values: Int,
    _ zipped: @escaping @Sendable ([PassthroughSubject<RaceTag, Never>]) -> AnyPublisher<[RaceTag], Never>
  ) {
    race("zip: \(count) subjects, each sent to and finished from its own thread", threads: count) { iteration in
      let subjects = (0..<count).map { _ in PassthroughSubject<RaceTag, Never>() }
      let mismatches = RaceLocked<[String]>([])
      let firsts = zipped(subjects).map { tags -> RaceTag in
        if tags.contains(where: { $0.seq != tags[0].seq }) || tags.map(\.thread) != Array(0..<count) {
          mismatches.withLock { $0.append("(" + tags.map(\.short).joined(separator: ", ") + ")") }
        }
        return tags[0]
      }
      let a = iteration.sink("A", on: firsts)
      for index in 0..<count {
        iteration.thread { actor in
          actor.send(values) { subjects[index].send($0) }
          actor.pause()
          subjects[index].send(completion: .finished)
        }
      }
      iteration.check {
        var found = RaceCheck.exactlyOnce(a.recorder, raceTags(threads: 0..<1, count: values))
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

  /// `zip` of a subject and two `Just`s (which join without a subscription of their own: see
  /// `FanInJustSubscription`), demand asked from two threads while a third sends: the `Just`s
  /// deliver their values once however the requests interleave, so at most one output,
  /// carrying them, and then one completion (none if no value met demand).
  func test_zipOfASubjectAndJusts_requestsFromTwoThreads_justsDeliverOnce() {
    race("zip: a subject and two Justs, one thread sends, two threads request", threads: 3) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let a: RaceSubscriber<Never> = iteration.subscriber("A", demand: .none)
      let wrong = RaceLocked<[String]>([])
      subject.zip(Just(7), Just(8)).map { tag, seven, eight -> RaceTag in
        if seven != 7 || eight != 8 { wrong.withLock { $0.append("(\(tag.short), \(seven), \(eight))") } }
        return tag
      }.subscribe(a)
      iteration.thread { $0.send(6) { subject.send($0) } }
      for _ in 0..<2 {
        iteration.thread { actor in
          actor.pause()
          a.request(.max(1))
        }
      }
      iteration.check {
        var found = RaceCheck.noDuplicates(a.recorder)
        let values = a.recorder.values
        if values.count > 1 {
          found.append(
            RaceViolation(.duplicated, "zip with Justs delivered \(values.count) outputs: \(values.map(\.short))"))
        }
        let completions = a.recorder.completions
        if completions != (values.isEmpty ? [] : ["finished"]) {
          found.append(RaceViolation(.completion, "after \(values.count) outputs, completions \(completions)"))
        }
        let mismatched = wrong.withLock { $0 }
        if !mismatched.isEmpty {
          found.append(RaceViolation(.unexpected, "zip paired wrong Just values: \(mismatched.joined(separator: " "))"))
        }
        return found
      }
    }
  }
}
