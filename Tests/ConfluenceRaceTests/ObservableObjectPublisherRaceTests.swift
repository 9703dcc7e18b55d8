import Confluence
import XCTest

/// `ObservableObjectPublisher.send()` from several threads: every subscriber gets one
/// signal per send, on the sending thread, one at a time.
final class ObservableObjectPublisherRaceTests: XCTestCase {
  func test_send_fromThreeThreads_twoSubscribersGetEachSignalOnce() {
    race("ObservableObjectPublisher: 3 threads send, two sinks", threads: 3) { iteration in
      let publisher = ObservableObjectPublisher()
      let a = RaceSink(signals: publisher, into: iteration.recorder("A"))
      let b = RaceSink(signals: publisher, into: iteration.recorder("B"))
      for _ in 0..<3 {
        iteration.thread { $0.send(6) { _ in publisher.send() } }
      }
      iteration.check {
        [a.recorder, b.recorder].flatMap {
          RaceCheck.exactlyOnce($0, raceTags(threads: 0..<3, count: 6)) + RaceCheck.threadOrder($0)
            + RaceCheck.onSendersThread($0)
        }
      }
    }
  }

  /// A sink cancelled from another thread while two threads send.
  func test_cancel_racingSendsFromTwoThreads_nothingAfterCancelReturned() {
    race("ObservableObjectPublisher: a sink cancelled while 2 threads send", threads: 3) { iteration in
      let publisher = ObservableObjectPublisher()
      let a = RaceSink(signals: publisher, into: iteration.recorder("A"))
      for _ in 0..<2 {
        iteration.thread { $0.send(8) { _ in publisher.send() } }
      }
      iteration.thread { actor in
        actor.pauses(12)
        a.cancel()
      }
      let closures = a.closures
      iteration.check {
        RaceCheck.atMostOneAfterCancel(a.recorder) + RaceCheck.noDuplicates(a.recorder)
          + RaceCheck.threadOrder(a.recorder) + RaceCheck.released(closures, "subscriber A's closures, after cancel()")
      }
    }
  }
}
