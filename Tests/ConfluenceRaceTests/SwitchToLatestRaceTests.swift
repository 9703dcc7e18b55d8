import Confluence
import XCTest

/// `switchToLatest` while the outer switches on one thread and the inners send and finish on
/// others: once a newer inner's value arrived, no older inner's value does; no value twice;
/// each inner's values arrive without a gap, including every value it sent between becoming
/// the latest and being replaced; one `finished`, after everything, once the outer and the
/// latest inner have finished.
final class SwitchToLatestRaceTests: XCTestCase {
  func test_outerSwitchesWhileInnersSendOnOtherThreads_nothingFromAReplacedInner() {
    race("switchToLatest: the outer switches among 3 inners while they send and finish on 3 threads", threads: 4) {
      iteration in
      let inners = (0..<3).map { _ in PassthroughSubject<RaceTag, Never>() }
      let outer = PassthroughSubject<PassthroughSubject<RaceTag, Never>, Never>()
      // Long deliveries: an inner's value often waits for another thread's delivery, and the
      // outer switches meanwhile.
      let a = iteration.sink("A", on: outer.switchToLatest(), pauses: 50, rounds: 4)
      let progress = (0..<3).map { _ in RaceProgress() }
      // For inner i: the values it must deliver are those begun after the outer sent it and
      // returned before the outer began sending the next.
      let mustFrom = (0..<3).map { _ in RaceCell(10) }
      let mustBefore = (0..<3).map { _ in RaceCell(10) }
      for index in 0..<3 {
        iteration.thread { actor in
          actor.send(10, progress: progress[index]) { inners[index].send($0) }
          actor.pause()
          inners[index].send(completion: .finished)
        }
      }
      iteration.thread { actor in
        for index in 0..<3 {
          actor.pauses(3)
          if index > 0 { mustBefore[index - 1].value = progress[index - 1].returnedCount }
          outer.send(inners[index])
          mustFrom[index].value = progress[index].begunCount
        }
        actor.pause()
        outer.send(completion: .finished)
      }
      iteration.check {
        var found = RaceCheck.noDuplicates(a.recorder) + RaceCheck.threadOrder(a.recorder)
        found += RaceCheck.oneCompletion(a.recorder, allowed: ["finished"])
        var newest = -1
        for tag in a.recorder.values {
          if tag.thread < newest {
            found.append(
              RaceViolation(
                .unexpected, "subscriber A received \(tag) after a value of inner \(newest), which replaced it"))
            break
          }
          newest = tag.thread
        }
        for index in 0..<3 {
          let seqs = Set(a.recorder.values.filter { $0.thread == index }.map(\.seq))
          if let low = seqs.min(), let high = seqs.max(), seqs.count != high - low + 1 {
            found.append(RaceViolation(.lost, "inner \(index)'s values reached A with a gap: \(seqs.sorted())"))
          }
          let from = mustFrom[index].value
          let before = mustBefore[index].value
          if from < before {
            for seq in from..<before where !seqs.contains(seq) {
              found.append(
                RaceViolation(
                  .lost, "\(RaceTag(thread: index, seq: seq)) was sent while its inner was the latest, never delivered")
              )
            }
          }
        }
        return found
      }
    }
  }
}
