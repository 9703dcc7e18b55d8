import CConfluenceSystem
@testable import Confluence
import Synchronization
import XCTest

/// A `PassthroughSubject` whose lone-subscriber lane is bound to a sending thread (see
/// `SubjectLane`, "Bound lanes": that thread then sends with plain loads and stores, and a
/// thread that closes the lane pays the process-wide barrier) while other threads send,
/// cancel, complete, subscribe, or the bound thread sends re-entrantly.
///
/// Thread 0 sends `warmUp + more` values; the lane is bound to it after
/// `SubjectLane.bindingStreak` of them. The other threads wait until thread 0's send number
/// `warmUp` has returned, then a random while, so that they act while thread 0 sends through
/// the bound lane (or is about to). Each scenario counts the iterations in which thread 0
/// found the lane bound to it right after its warm-up and fails if there were none: the
/// scenario would then not test the bound lane at all.
final class BoundLaneRaceTests: XCTestCase {
  /// Values thread 0 sends before the others start: past the binding streak.
  private static let warmUp = Int(SubjectLane.bindingStreak(afterUnbindings: 0)) + 2

  /// Another thread's sends close the bound lane (through the lock, with the barrier) while
  /// the bound thread keeps sending: every value once, each thread's in order, each on its
  /// sender's thread.
  func test_anotherThreadSends_whileTheLaneIsBound_everyValueOnce() {
    let bound = BoundCount()
    race("bound lane: thread 0 sends through it while thread 1 sends", threads: 2) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let a = iteration.sink("A", on: subject)
      let progress = RaceProgress()
      Self.startBoundSender(in: iteration, sending: Self.warmUp + 16, to: subject, progress: progress, bound: bound)
      iteration.thread { actor in
        Self.waitForWarmUp(progress, actor)
        actor.send(8) { subject.send($0) }
      }
      iteration.check {
        let expected = raceTags(threads: 0..<1, count: Self.warmUp + 16) + raceTags(threads: 1..<2, count: 8)
        return RaceCheck.exactlyOnce(a.recorder, expected) + RaceCheck.threadOrder(a.recorder)
          + RaceCheck.onSendersThread(a.recorder)
      }
    }
    bound.assertSeen()
  }

  /// Two threads each send many values with no waiting: the lane is bound to one, closed by
  /// the other, opened, bound again (each close from the other thread doubles the streak
  /// needed), over and over.
  func test_twoThreadsSendMany_theLaneIsBoundAndClosedOverAndOver_everyValueOnce() {
    race("bound lane: 2 threads send 120 values each, binding and closing it", threads: 2, weight: 0.5) {
      iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let a = iteration.sink("A", on: subject, pauses: 4)
      for _ in 0..<2 {
        iteration.thread { $0.send(120) { subject.send($0) } }
      }
      iteration.check {
        RaceCheck.exactlyOnce(a.recorder, raceTags(threads: 0..<2, count: 120)) + RaceCheck.threadOrder(a.recorder)
          + RaceCheck.onSendersThread(a.recorder)
      }
    }
  }

  /// The only subscriber cancelled from another thread while the bound thread sends:
  /// nothing starts after `cancel()` returned but the value in flight, the bound thread's
  /// values arrive without a gap up to the cancel, and the sink lets its closures go.
  func test_cancelFromAnotherThread_whileTheLaneIsBound_nothingAfterCancelReturned() {
    let bound = BoundCount()
    race("bound lane: its only sink cancelled from thread 1 while thread 0 sends", threads: 2) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let a = iteration.sink("A", on: subject)
      let progress = RaceProgress()
      let returnedBefore = RaceCell()
      Self.startBoundSender(in: iteration, sending: Self.warmUp + 16, to: subject, progress: progress, bound: bound)
      iteration.thread { actor in
        Self.waitForWarmUp(progress, actor)
        returnedBefore.value = progress.returnedCount
        a.cancel()
      }
      let closures = a.closures
      iteration.check {
        var found = RaceCheck.atMostOneAfterCancel(a.recorder) + RaceCheck.noDuplicates(a.recorder)
        found += RaceCheck.threadOrder(a.recorder) + RaceCheck.noCompletion(a.recorder)
        found += RaceCheck.unbrokenStart(a.recorder, thread: 0, mustThrough: returnedBefore.value - 1)
        return found + RaceCheck.released(closures, "subscriber A's closures, after cancel()")
      }
    }
    bound.assertSeen()
  }

  /// `send(completion:)` from another thread while the bound thread sends: one completion,
  /// nothing after it, and every value whose send returned before it came first.
  func test_completionFromAnotherThread_whileTheLaneIsBound_oneCompletionNothingAfter() {
    let bound = BoundCount()
    race("bound lane: send(completion:) from thread 1 while thread 0 sends", threads: 2) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let a = iteration.sink("A", on: subject)
      let progress = RaceProgress()
      let returnedBefore = RaceCell()
      Self.startBoundSender(in: iteration, sending: Self.warmUp + 16, to: subject, progress: progress, bound: bound)
      iteration.thread { actor in
        Self.waitForWarmUp(progress, actor)
        returnedBefore.value = progress.returnedCount
        subject.send(completion: .finished)
      }
      iteration.check {
        RaceCheck.oneCompletion(a.recorder, allowed: ["finished"]) + RaceCheck.noDuplicates(a.recorder)
          + RaceCheck.threadOrder(a.recorder)
          + RaceCheck.unbrokenStart(a.recorder, thread: 0, mustThrough: returnedBefore.value - 1)
      }
    }
    bound.assertSeen()
  }

  /// The subscriber sends from inside `receive(_:)` on the bound thread (which closes the
  /// lane from its own thread, queueing the echo) while another thread sends: every value
  /// and echo once, each echo after the value it answers.
  func test_reentrantSendOnTheBoundThread_whileAnotherSends_everyValueAndEchoOnce() {
    let bound = BoundCount()
    race("bound lane: echoes sent from inside receive on thread 0 while thread 1 sends", threads: 2) {
      iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let echoFrom = Self.warmUp + 2
      let a: RaceSubscriber<Never> = iteration.subscriber("A") { [weak subject] tag in
        if tag.thread == 0, tag.seq >= echoFrom { subject?.send(.echo(of: tag)) }
      }
      subject.subscribe(a)
      let progress = RaceProgress()
      Self.startBoundSender(in: iteration, sending: Self.warmUp + 12, to: subject, progress: progress, bound: bound)
      iteration.thread { actor in
        Self.waitForWarmUp(progress, actor)
        actor.send(6) { subject.send($0) }
      }
      iteration.check {
        let expected =
          raceTags(threads: 0..<1, count: Self.warmUp + 12) + raceTags(threads: 1..<2, count: 6)
          + (echoFrom..<(Self.warmUp + 12)).map { RaceTag.echo(of: RaceTag(thread: 0, seq: $0)) }
        return RaceCheck.exactlyOnce(a.recorder, expected) + RaceCheck.threadOrder(a.recorder)
          + RaceCheck.echoesAfterTheirValues(a.recorder)
      }
    }
    bound.assertSeen()
  }

  /// A second subscriber arrives from another thread while the bound thread sends (the
  /// subscribe closes the lane; two subscribers are served through their own lanes): the
  /// first gets every value once, the second an unbroken run of thread 0's last values.
  func test_subscribeFromAnotherThread_whileTheLaneIsBound_eachGetsAnUnbrokenRun() {
    let bound = BoundCount()
    race("bound lane: a second subscriber arrives from thread 1 while thread 0 sends", threads: 2) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let a = iteration.sink("A", on: subject)
      let b: RaceSubscriber<Never> = iteration.subscriber("B")
      let progress = RaceProgress()
      let count = Self.warmUp + 16
      Self.startBoundSender(in: iteration, sending: count, to: subject, progress: progress, bound: bound)
      iteration.thread { actor in
        Self.waitForWarmUp(progress, actor)
        subject.subscribe(b)
      }
      iteration.check {
        var found = RaceCheck.exactlyOnce(a.recorder, raceTags(threads: 0..<1, count: count))
        found += RaceCheck.threadOrder(a.recorder) + RaceCheck.noDuplicates(b.recorder)
        let seqs = b.recorder.values.map(\.seq)
        if let first = seqs.first, seqs != Array(first..<count) {
          found.append(RaceViolation(.lost, "subscriber B received \(seqs), not an unbroken run to the last value"))
        }
        return found
      }
    }
    bound.assertSeen()
  }

  // MARK: Support

  /// Starts thread 0: it sends `count` values to `subject` (noting its progress), and counts
  /// in `bound` whether the lane was bound to it right after its warm-up.
  private static func startBoundSender(
    in iteration: RaceIteration, sending count: Int, to subject: PassthroughSubject<RaceTag, Never>,
    progress: RaceProgress, bound: BoundCount
  ) {
    iteration.thread { actor in
      actor.send(count, progress: progress) { tag in
        subject.send(tag)
        if tag.seq == warmUp - 1 { bound.note(subject) }
      }
    }
  }

  /// Waits until thread 0's send number `warmUp` has returned, then a random while.
  private static func waitForWarmUp(_ progress: RaceProgress, _ actor: RaceActor) {
    while progress.returnedCount < warmUp { actor.mark() }
    actor.pauses(16)
  }

  /// How many iterations found the lane bound to the sending thread after its warm-up.
  private final class BoundCount: Sendable {
    private let count = Atomic<Int>(0)

    /// On the sending thread, right after its send: counts the lane bound to it.
    func note(_ subject: PassthroughSubject<RaceTag, Never>) {
      let word = subject.storage.lane.load(ordering: .relaxed)
      guard SubjectLane.isBound(word) else { return }
      let thread = SubjectLaneBinding.bound(by: word).takeUnretainedValue().thread
      if thread == confluence_thread_token() { count.add(1, ordering: .relaxed) }
    }

    /// Fails unless some iteration found the lane bound (in a build whose lanes open).
    func assertSeen(file: StaticString = #filePath, line: UInt = #line) {
      let seen = count.load(ordering: .relaxed)
      print("bound-lane: \(seen) iterations found the lane bound to the sending thread after its warm-up")
      #if !CONFLUENCE_LOCKED_FAST_PATHS
        XCTAssertGreaterThan(seen, 0, "the lane was never bound: the scenario did not test it", file: file, line: line)
      #endif
    }
  }
}
