import Confluence
import ConfluenceFoundation
import Dispatch
import XCTest

/// `sink`'s cross-thread cancel: the sink calls its closures with no fence per value (its
/// delivery gate belongs to the delivering thread) and lets go of them when it ends. A
/// cancel from another thread lets at most the value in flight start afterwards, and the
/// closures are released once the delivering thread is done.
final class SinkRaceTests: XCTestCase {
  /// Through `map` and `filter` (the sink at the end of a chain) while a thread sends.
  func test_cancel_ofASinkAfterMapAndFilter_whileAThreadSends_atMostTheValueInFlight() {
    raceSinkCancelledWhileAThreadSends("sink after map/filter: cancelled while a thread sends") {
      $0.map { $0 }.filter { _ in true }
    }
  }

  /// A sequence delivered as one run (on a queue, through `subscribe(on:)`), cancelled from
  /// a scenario thread in the middle of the run: once values flow (a cancel before the
  /// sink's subscription arrived does nothing, as with Apple's sink).
  func test_cancel_ofASinkTakingASequenceRun_fromAnotherThread_atMostTheValueInFlight() {
    race("sink on a sequence's run (subscribe(on:)): cancelled from another thread", threads: 1, weight: 0.25) {
      iteration in
      let queue = DispatchQueue(label: "race.sequence")
      let values = (0..<400).map { RaceTag(thread: 0, seq: $0) }
      let a = iteration.sink("A", on: values.publisher.subscribe(on: queue), pauses: 5)
      iteration.thread { actor in
        let after = actor.random.below(300)
        while a.recorder.valueCount <= after && a.recorder.completions.isEmpty {
          actor.pause()
        }
        a.cancel()
      }
      let drained = RaceCell()
      iteration.then { _ in queue.async { drained.value = 1 } }
      iteration.waitUntil("the queue to finish the sequence") { drained.value == 1 }
      let closures = a.closures
      iteration.check {
        RaceCheck.atMostOneAfterCancel(a.recorder) + RaceCheck.noDuplicates(a.recorder)
          + RaceCheck.threadOrder(a.recorder)
          + RaceCheck.unbrokenStart(a.recorder, thread: 0, mustThrough: -1)
          + RaceCheck.released(closures, "subscriber A's closures, after cancel()")
      }
    }
  }
}
