import Confluence
import XCTest

extension XCTestCase {
  /// The scenario of a sink cancelled from one thread while another sends 16 values into
  /// `pipeline` applied to a subject: at most the value in flight starts after the cancel,
  /// none arrives twice, the values sent before the cancel began arrive unbroken, and the
  /// sink's closures are released once the delivering thread is done.
  func raceSinkCancelledWhileAThreadSends<P: Publisher>(
    _ title: String, file: StaticString = #filePath, line: UInt = #line,
    _ pipeline: @escaping (PassthroughSubject<RaceTag, Never>) -> P
  ) where P.Output == RaceTag {
    race(title, threads: 2, file: file, line: line) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let a = iteration.sink("A", on: pipeline(subject))
      let progress = RaceProgress()
      let sentBefore = RaceCell()
      iteration.thread { $0.send(16, progress: progress) { subject.send($0) } }
      iteration.thread { actor in
        actor.pauses(16)
        sentBefore.value = progress.returnedCount
        a.cancel()
      }
      let closures = a.closures
      iteration.check {
        RaceCheck.atMostOneAfterCancel(a.recorder) + RaceCheck.noDuplicates(a.recorder)
          + RaceCheck.unbrokenStart(a.recorder, thread: 0, mustThrough: sentBefore.value - 1)
          + RaceCheck.released(closures, "subscriber A's closures, after cancel()")
      }
    }
  }
}
