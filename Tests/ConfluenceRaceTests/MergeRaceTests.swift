import Confluence
import XCTest

/// `merge` of subjects each fed from its own thread: every value once, each thread's in
/// order, one event at a time downstream (the upstreams deliver concurrently; merge must
/// serialise them), with limited demand never more than asked for.
final class MergeRaceTests: XCTestCase {
  func test_mergeOfThreeSubjects_fedFromThreeThreads_everyValueOnceOneAtATime() {
    race("merge: 3 subjects, each sent to from its own thread", threads: 3) { iteration in
      let subjects = (0..<3).map { _ in PassthroughSubject<RaceTag, Never>() }
      let a = iteration.sink("A", on: subjects[0].merge(with: subjects[1], subjects[2]))
      for index in 0..<3 {
        iteration.thread { $0.send(8) { subjects[index].send($0) } }
      }
      iteration.then { _ in subjects.forEach { $0.send(completion: .finished) } }
      iteration.check {
        RaceCheck.exactlyOnce(a.recorder, raceTags(threads: 0..<3, count: 8)) + RaceCheck.threadOrder(a.recorder)
          + RaceCheck.oneCompletion(a.recorder, allowed: ["finished"])
      }
    }
  }

  /// Limited demand, asked for one at a time from the receiving side: never more than asked.
  func test_mergeOfTwoSubjects_limitedDemand_neverMoreThanDemanded() {
    race("merge: 2 subjects sent to from 2 threads, a subscriber asking 1 at a time", threads: 3) { iteration in
      let subjects = (0..<2).map { _ in PassthroughSubject<RaceTag, Never>() }
      let a: RaceSubscriber<Never> = iteration.subscriber("A", demand: .max(2), demandPerValue: .none)
      subjects[0].merge(with: subjects[1]).subscribe(a)
      for index in 0..<2 {
        iteration.thread { $0.send(8) { subjects[index].send($0) } }
      }
      iteration.thread { actor in
        for _ in 0..<6 {
          actor.pause()
          a.request(.max(1))
        }
      }
      iteration.check {
        var found = RaceCheck.noDuplicates(a.recorder) + RaceCheck.threadOrder(a.recorder)
        if a.recorder.values.count > 8 {
          found.append(
            RaceViolation(.overDemand, "subscriber A received \(a.recorder.values.count) values, asked for 8"))
        }
        return found
      }
    }
  }

  /// `Publishers.MergeMany` of four subjects, each fed from its own thread.
  func test_mergeMany_fedFromFourThreads_everyValueOnce() {
    race("MergeMany: 4 subjects, each sent to from its own thread", threads: 4) { iteration in
      let subjects = (0..<4).map { _ in PassthroughSubject<RaceTag, Never>() }
      let a = iteration.sink("A", on: Publishers.MergeMany(subjects))
      for index in 0..<4 {
        iteration.thread { $0.send(6) { subjects[index].send($0) } }
      }
      iteration.check {
        RaceCheck.exactlyOnce(a.recorder, raceTags(threads: 0..<4, count: 6)) + RaceCheck.threadOrder(a.recorder)
      }
    }
  }
}
