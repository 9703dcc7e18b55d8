import Confluence
import XCTest

/// `CurrentValueSubject` used from several threads at once, through `send(_:)` and through
/// `value`: a subscriber gets the current value first, then every value sent while it is
/// subscribed and has demand, exactly once, in each thread's order, one event at a time.
/// With limited demand, a value sent while it has none is not queued, but once it asks
/// again it gets the value current then: when the threads are done, a subscriber with
/// demand left has received the subject's current value.
final class CurrentValueSubjectRaceTests: XCTestCase {
  func test_send_fromTwoThreads_oneSubscriberGetsEachValueOnce() {
    race("CurrentValueSubject: 2 threads send, one sink", threads: 2) { iteration in
      let subject = CurrentValueSubject<RaceTag, Never>(.initial)
      let a = iteration.sink("A", on: subject)
      for _ in 0..<2 {
        iteration.thread { $0.send(8) { subject.send($0) } }
      }
      iteration.check { Self.everyValueOnce(a.recorder, threads: 2, count: 8) }
    }
  }

  func test_send_fromFourThreads_oneSubscriberGetsEachValueOnce() {
    race("CurrentValueSubject: 4 threads send, one sink", threads: 4) { iteration in
      let subject = CurrentValueSubject<RaceTag, Never>(.initial)
      let a = iteration.sink("A", on: subject)
      for _ in 0..<4 {
        iteration.thread { $0.send(5) { subject.send($0) } }
      }
      iteration.check { Self.everyValueOnce(a.recorder, threads: 4, count: 5) }
    }
  }

  func test_valueSetter_fromThreeThreads_oneSubscriberGetsEachValueOnce() {
    race("CurrentValueSubject: 3 threads set value, one sink", threads: 3) { iteration in
      let subject = CurrentValueSubject<RaceTag, Never>(.initial)
      let a = iteration.sink("A", on: subject)
      for _ in 0..<3 {
        iteration.thread { $0.send(6) { subject.value = $0 } }
      }
      iteration.check { Self.everyValueOnce(a.recorder, threads: 3, count: 6) }
    }
  }

  func test_send_fromTwoThreads_twoSubscribersGetEachValueOnce() {
    race("CurrentValueSubject: 2 threads send, a sink and a subscriber", threads: 2) { iteration in
      let subject = CurrentValueSubject<RaceTag, Never>(.initial)
      let a = iteration.sink("A", on: subject)
      let b: RaceSubscriber<Never> = iteration.subscriber("B")
      subject.subscribe(b)
      for _ in 0..<2 {
        iteration.thread { $0.send(8) { subject.send($0) } }
      }
      iteration.check {
        Self.everyValueOnce(a.recorder, threads: 2, count: 8) + Self.everyValueOnce(b.recorder, threads: 2, count: 8)
      }
    }
  }

  /// A subscriber sends from inside its `receive(_:)` (an echo of each of thread 0's
  /// values) while two threads send: every value and echo reaches both subscribers once,
  /// the echo after the value it answers.
  func test_sendFromInsideReceive_whileTwoThreadsSend_everyValueAndEchoOnce() {
    race("CurrentValueSubject: a subscriber sends from inside receive while 2 threads send", threads: 2) {
      iteration in
      let subject = CurrentValueSubject<RaceTag, Never>(.initial)
      let a: RaceSubscriber<Never> = iteration.subscriber("A") { [weak subject] tag in
        if tag.thread == 0 { subject?.send(.echo(of: tag)) }
      }
      subject.subscribe(a)
      let b = iteration.sink("B", on: subject)
      for _ in 0..<2 {
        iteration.thread { $0.send(6) { subject.send($0) } }
      }
      iteration.check {
        let expected =
          [.initial] + raceTags(threads: 0..<2, count: 6)
          + (0..<6).map { RaceTag.echo(of: RaceTag(thread: 0, seq: $0)) }
        return [a.recorder, b.recorder].flatMap { RaceCheck.exactlyOnce($0, expected) + RaceCheck.threadOrder($0) }
          + RaceCheck.echoesAfterTheirValues(a.recorder)
      }
    }
  }

  /// The subject as a subscriber of two upstreams, each sent to from its own thread.
  func test_asSubscriberOfTwoUpstreams_fedFromTwoThreads_everyValueOnce() {
    race("CurrentValueSubject: subscribed to 2 upstreams that 2 threads send to", threads: 2) { iteration in
      let subject = CurrentValueSubject<RaceTag, Never>(.initial)
      let upstreams = (0..<2).map { _ in PassthroughSubject<RaceTag, Never>() }
      let connections = upstreams.map { $0.subscribe(subject) }
      let a = iteration.sink("A", on: subject)
      for index in 0..<2 {
        iteration.thread { $0.send(8) { upstreams[index].send($0) } }
      }
      iteration.check {
        withExtendedLifetime(connections) {}
        return Self.everyValueOnce(a.recorder, threads: 2, count: 8)
      }
    }
  }

  /// Two threads subscribe while two send (through `value`): each subscriber's first value
  /// is the value current when it subscribed (sent before its subscribe call returned), then,
  /// from each thread, an unbroken run of values that includes every value sent after that.
  func test_subscribe_racingSendsFromTwoThreads_currentValueFirstThenAnUnbrokenRun() {
    race("CurrentValueSubject: 2 threads subscribe while 2 set value", threads: 4) { iteration in
      let subject = CurrentValueSubject<RaceTag, Never>(.initial)
      let progress = [RaceProgress(), RaceProgress()]
      let a = iteration.recorder("A")
      let b: RaceSubscriber<Never> = iteration.subscriber("B")
      let mustFrom = [[RaceCell(), RaceCell()], [RaceCell(), RaceCell()]]
      let keeper = RaceKeeper()
      for sender in 0..<2 {
        iteration.thread { $0.send(10, progress: progress[sender]) { subject.value = $0 } }
      }
      iteration.thread { actor in
        actor.pauses(8)
        keeper.keep(RaceSink(subject, into: a))
        for sender in 0..<2 { mustFrom[0][sender].value = progress[sender].begunCount }
      }
      iteration.thread { actor in
        actor.pauses(8)
        subject.subscribe(b)
        for sender in 0..<2 { mustFrom[1][sender].value = progress[sender].begunCount }
      }
      iteration.check {
        withExtendedLifetime(keeper) {}
        var found: [RaceViolation] = []
        for (index, recorder) in [a, b.recorder].enumerated() {
          found += RaceCheck.noDuplicates(recorder) + RaceCheck.threadOrder(recorder)
          for sender in 0..<2 {
            found += RaceCheck.unbrokenRun(recorder, thread: sender, sent: 10, mustFrom: mustFrom[index][sender].value)
          }
          if let first = recorder.values.first {
            if first.thread >= 0 && first.seq >= mustFrom[index][first.thread].value {
              found.append(
                RaceViolation(
                  .unexpected,
                  "subscriber \(recorder.name)'s first value was \(first), sent after it had subscribed, not the current value"
                ))
            }
          } else {
            found.append(RaceViolation(.lost, "subscriber \(recorder.name) never received the current value"))
          }
        }
        return found
      }
    }
  }

  /// A subscriber that asks for one value at a time from a third thread while two threads
  /// send: never more than asked for, nothing twice, each thread's order; when the threads
  /// are done, if it has demand left it has received the current value, and a value sent
  /// then reaches it.
  func test_request_fromAnotherThread_whileTwoThreadsSend_neverMoreThanDemandedCurrentValueDelivered() {
    race("CurrentValueSubject: 2 threads send while a third requests", threads: 3) { iteration in
      let subject = CurrentValueSubject<RaceTag, Never>(.initial)
      let a: RaceSubscriber<Never> = iteration.subscriber("A", demand: .max(1))
      subject.subscribe(a)
      for _ in 0..<2 {
        iteration.thread { $0.send(8) { subject.send($0) } }
      }
      iteration.thread { actor in
        for _ in 0..<5 {
          actor.pause()
          a.request(.max(1))
        }
      }
      let left = RaceCell()
      let current = RaceCell()
      let receivedBefore = RaceCell()
      iteration.then { _ in
        left.value = a.outstandingDemand
        current.value = subject.value.packed
        receivedBefore.value = a.recorder.values.count
        subject.send(.main(0))
      }
      iteration.note { "demand left after the threads: \(left.value)" }
      iteration.check {
        var found = RaceCheck.noDuplicates(a.recorder) + RaceCheck.threadOrder(a.recorder)
        let values = a.recorder.values
        let currentTag = RaceTag(packed: current.value) ?? .initial
        if left.value > 0 && !values.prefix(receivedBefore.value).contains(currentTag) {
          found.append(
            RaceViolation(
              .lost,
              "subscriber A had demand for \(left.value) more after the threads, but never received the current value, \(currentTag)"
            ))
        }
        let gotLast = values.dropFirst(receivedBefore.value).contains(.main(0))
        if left.value > 0 && !gotLast {
          found.append(
            RaceViolation(.lost, "subscriber A had demand left, but the value sent after the threads did not reach it"))
        }
        return found
      }
    }
  }

  /// A sink cancelled from a third thread while two threads send.
  func test_cancel_racingSendsFromTwoThreads_nothingAfterCancelReturned() {
    race("CurrentValueSubject: a sink cancelled while 2 threads send", threads: 3) { iteration in
      let subject = CurrentValueSubject<RaceTag, Never>(.initial)
      let a = iteration.sink("A", on: subject)
      let b: RaceSubscriber<Never> = iteration.subscriber("B")
      subject.subscribe(b)
      let senders = RaceInterruptedSenders.start(in: iteration, send: { subject.send($0) }) {
        a.cancel()
      }
      let closures = a.closures
      iteration.check {
        var found = RaceCheck.atMostOneAfterCancel(a.recorder) + RaceCheck.noDuplicates(a.recorder)
        found += RaceCheck.threadOrder(a.recorder)
        found += senders.unbrokenStarts(a.recorder)
        found += RaceCheck.released(closures, "subscriber A's closures, after cancel()")
        return found + Self.everyValueOnce(b.recorder, threads: 2, count: 8)
      }
    }
  }

  /// `send(completion:)` from a third thread while two threads set `value`.
  func test_sendCompletion_racingSendsFromTwoThreads_oneCompletionNothingAfter() {
    race("CurrentValueSubject: send(completion:) while 2 threads send", threads: 3) { iteration in
      let subject = CurrentValueSubject<RaceTag, Never>(.initial)
      let a = iteration.sink("A", on: subject)
      let b: RaceSubscriber<Never> = iteration.subscriber("B")
      subject.subscribe(b)
      let senders = RaceInterruptedSenders.start(in: iteration, send: { subject.send($0) }) {
        subject.send(completion: .finished)
      }
      iteration.check {
        [a.recorder, b.recorder].flatMap { recorder in
          RaceCheck.oneCompletion(recorder, allowed: ["finished"]) + RaceCheck.noDuplicates(recorder)
            + RaceCheck.threadOrder(recorder)
            + senders.unbrokenStarts(recorder)
        }
      }
    }
  }

  /// The initial value first, then every value the threads sent exactly once, each
  /// thread's in order, each on its sender's thread.
  static func everyValueOnce(_ recorder: RaceRecorder, threads: Int, count: Int) -> [RaceViolation] {
    var found = RaceCheck.exactlyOnce(recorder, [.initial] + raceTags(threads: 0..<threads, count: count))
    if let first = recorder.values.first, first != .initial {
      found.append(
        RaceViolation(.reordered, "subscriber \(recorder.name)'s first value was \(first), not the initial value"))
    }
    return found + RaceCheck.threadOrder(recorder) + RaceCheck.onSendersThread(recorder)
  }
}
