import Confluence
import ConfluenceFoundation
import Dispatch
import XCTest

/// `receive(on:)` a serial `DispatchQueue` with values sent from several threads: every
/// value once, each thread's in order, one at a time; a cancel from another thread lets at
/// most the value in flight through, and releases the sink's closures.
final class ReceiveOnRaceTests: XCTestCase {
  func test_receiveOnSerialQueue_sendsFromTwoThreads_everyValueOnceInEachThreadsOrder() {
    race("receive(on: serial queue): 2 threads send", threads: 2) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let queue = DispatchQueue(label: "race.receiveOn")
      let a = iteration.sink("A", on: subject.receive(on: queue))
      for _ in 0..<2 {
        iteration.thread { $0.send(8) { subject.send($0) } }
      }
      iteration.waitUntil("delivery of all 16 values on the queue") { a.recorder.values.count >= 16 }
      iteration.check {
        RaceCheck.exactlyOnce(a.recorder, raceTags(threads: 0..<2, count: 8)) + RaceCheck.threadOrder(a.recorder)
      }
    }
  }

  func test_receiveOnSerialQueue_cancelFromAnotherThread_atMostTheValueInFlight() {
    race("receive(on: serial queue): cancelled while 2 threads send", threads: 3) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let queue = DispatchQueue(label: "race.receiveOn")
      let a = iteration.sink("A", on: subject.receive(on: queue))
      for _ in 0..<2 {
        iteration.thread { $0.send(8) { subject.send($0) } }
      }
      iteration.thread { actor in
        actor.pauses(12)
        a.cancel()
      }
      let drained = RaceCell()
      iteration.then { _ in queue.async { drained.value = 1 } }
      iteration.waitUntil("the queue to run what was scheduled on it") { drained.value == 1 }
      let closures = a.closures
      iteration.check {
        RaceCheck.atMostOneAfterCancel(a.recorder) + RaceCheck.noDuplicates(a.recorder)
          + RaceCheck.threadOrder(a.recorder) + RaceCheck.released(closures, "subscriber A's closures, after cancel()")
      }
    }
  }

  /// Limited demand requested from another thread: never more than asked for.
  func test_receiveOnSerialQueue_requestsFromAnotherThread_neverMoreThanDemanded() {
    race("receive(on: serial queue): 2 threads send while a third requests", threads: 3) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let queue = DispatchQueue(label: "race.receiveOn")
      let a: RaceSubscriber<Never> = iteration.subscriber("A", demand: .max(1))
      subject.receive(on: queue).subscribe(a)
      for _ in 0..<2 {
        iteration.thread { $0.send(8) { subject.send($0) } }
      }
      iteration.thread { actor in
        for _ in 0..<4 {
          actor.pause()
          a.request(.max(1))
        }
      }
      let drained = RaceCell()
      iteration.then { _ in queue.async { drained.value = 1 } }
      iteration.waitUntil("the queue to run what was scheduled on it") { drained.value == 1 }
      iteration.check { RaceCheck.noDuplicates(a.recorder) + RaceCheck.threadOrder(a.recorder) }
    }
  }
}
