import Confluence
import ConfluenceExtras
import XCTest

/// The extras' `ReplaySubject` and `share(replay:)` used from several threads: every
/// subscriber sees the values in the order the sends took effect (the same order for all),
/// each once; a subscriber that arrives while values flow gets the replay and then the live
/// values with nothing missing or repeated in between; `share(replay:)` connects once.
final class ReplaySubjectRaceTests: XCTestCase {
  func test_send_fromThreeThreads_twoSubscribersGetEachValueOnceInOneOrder() {
    race("ReplaySubject: 3 threads send, two subscribers", threads: 3) { iteration in
      let subject = ReplaySubject<RaceTag, Never>(bufferSize: 4)
      let a = iteration.sink("A", on: subject)
      let b: RaceSubscriber<Never> = iteration.subscriber("B")
      subject.subscribe(b)
      for _ in 0..<3 {
        iteration.thread { $0.send(6) { subject.send($0) } }
      }
      iteration.check {
        var found = [a.recorder, b.recorder].flatMap {
          RaceCheck.exactlyOnce($0, raceTags(threads: 0..<3, count: 6)) + RaceCheck.threadOrder($0)
        }
        if found.isEmpty && a.recorder.values != b.recorder.values {
          found.append(
            RaceViolation(
              .reordered,
              "the two subscribers saw the values in different orders: A "
                + a.recorder.values.map(\.short).joined(separator: " ") + ", B "
                + b.recorder.values.map(\.short).joined(separator: " ")))
        }
        return found
      }
    }
  }

  /// `send(completion:)` from a third thread while two send: one completion, nothing after
  /// it, every value whose send returned before the completion was sent came first, and
  /// both subscribers saw the same values in the same order. A subscriber that arrives
  /// afterwards gets the replay of the last values, then the completion.
  func test_sendCompletion_racingSendsFromTwoThreads_oneCompletionSameValuesForAll() {
    race("ReplaySubject: send(completion:) while 2 threads send", threads: 3) { iteration in
      let subject = ReplaySubject<RaceTag, Never>(bufferSize: 3)
      let a = iteration.sink("A", on: subject)
      let b: RaceSubscriber<Never> = iteration.subscriber("B")
      let late = iteration.recorder("late")
      let keeper = RaceKeeper()
      subject.subscribe(b)
      let senders = RaceInterruptedSenders.start(in: iteration, send: { subject.send($0) }) {
        subject.send(completion: .finished)
      }
      iteration.then { _ in keeper.keep(RaceSink(subject, into: late)) }
      iteration.check {
        withExtendedLifetime(keeper) {}
        var found = [a.recorder, b.recorder].flatMap { recorder in
          RaceCheck.oneCompletion(recorder, allowed: ["finished"]) + RaceCheck.noDuplicates(recorder)
            + RaceCheck.threadOrder(recorder)
            + senders.unbrokenStarts(recorder)
        }
        if a.recorder.values != b.recorder.values {
          found.append(RaceViolation(.reordered, "the two subscribers saw different values or orders"))
        }
        found += RaceCheck.oneCompletion(late, allowed: ["finished"])
        if late.values != Array(a.recorder.values.suffix(3)) {
          found.append(
            RaceViolation(
              .lost,
              "a subscriber after the completion received \(late.values.map(\.short)), not the last 3 values sent"))
        }
        return found
      }
    }
  }

  /// A sink cancelled from a third thread while two send.
  func test_cancel_racingSendsFromTwoThreads_nothingAfterCancelReturned() {
    race("ReplaySubject: a sink cancelled while 2 threads send", threads: 3) { iteration in
      let subject = ReplaySubject<RaceTag, Never>(bufferSize: 2)
      let a = iteration.sink("A", on: subject)
      let b: RaceSubscriber<Never> = iteration.subscriber("B")
      subject.subscribe(b)
      for _ in 0..<2 {
        iteration.thread { $0.send(8) { subject.send($0) } }
      }
      iteration.thread { actor in
        actor.pauses(12)
        a.cancel()
      }
      let closures = a.closures
      iteration.check {
        RaceCheck.atMostOneAfterCancel(a.recorder) + RaceCheck.noDuplicates(a.recorder)
          + RaceCheck.threadOrder(a.recorder) + RaceCheck.released(closures, "subscriber A's closures, after cancel()")
          + RaceCheck.exactlyOnce(b.recorder, raceTags(threads: 0..<2, count: 8))
      }
    }
  }

  /// With room to replay everything, a subscriber that arrives while two threads send gets
  /// every value exactly once, replayed or live.
  func test_subscribe_racingSendsFromTwoThreads_replayPlusLiveIsEveryValueOnce() {
    race("ReplaySubject: 2 threads subscribe while 2 send, replaying everything", threads: 4) { iteration in
      let subject = ReplaySubject<RaceTag, Never>(bufferSize: 32)
      let recorders = [iteration.recorder("A"), iteration.recorder("B")]
      let keeper = RaceKeeper()
      for _ in 0..<2 {
        iteration.thread { $0.send(8) { subject.send($0) } }
      }
      for recorder in recorders {
        iteration.thread { actor in
          actor.pauses(10)
          keeper.keep(RaceSink(subject, into: recorder))
        }
      }
      iteration.check {
        withExtendedLifetime(keeper) {}
        return recorders.flatMap {
          RaceCheck.exactlyOnce($0, raceTags(threads: 0..<2, count: 8)) + RaceCheck.threadOrder($0)
        }
      }
    }
  }

  /// A short replay: a subscriber arriving while a thread sends gets an unbroken run to the
  /// end that includes every value sent after it subscribed.
  func test_subscribe_racingSends_shortReplay_anUnbrokenRun() {
    race("ReplaySubject(bufferSize: 2): 2 threads subscribe while one sends", threads: 3) { iteration in
      let subject = ReplaySubject<RaceTag, Never>(bufferSize: 2)
      let progress = RaceProgress()
      let recorders = [iteration.recorder("A"), iteration.recorder("B")]
      let mustFrom = [RaceCell(), RaceCell()]
      let keeper = RaceKeeper()
      iteration.thread { $0.send(12, progress: progress) { subject.send($0) } }
      for index in 0..<2 {
        iteration.thread { actor in
          actor.pauses(12)
          keeper.keep(RaceSink(subject, into: recorders[index]))
          mustFrom[index].value = progress.begunCount
        }
      }
      iteration.check {
        withExtendedLifetime(keeper) {}
        return recorders.enumerated().flatMap { index, recorder in
          RaceCheck.noDuplicates(recorder) + RaceCheck.threadOrder(recorder)
            + RaceCheck.unbrokenRun(recorder, thread: 0, sent: 12, mustFrom: mustFrom[index].value)
        }
      }
    }
  }

  /// `share(replay:)`: three threads subscribe while a fourth sends upstream; the upstream
  /// is subscribed once, and with room to replay everything every subscriber gets the same
  /// values (all those sent after the connection), each once.
  func test_shareReplay_subscribeFromThreeThreadsWhileAFourthSends_connectsOnceSameValuesForAll() {
    race("share(replay:): 3 threads subscribe while a fourth sends upstream", threads: 4) { iteration in
      let upstream = PassthroughSubject<RaceTag, Never>()
      let subscriptions = RaceCell()
      let shared = RaceShared(
        upstream.handleEvents(receiveSubscription: { _ in subscriptions.increment() }).share(replay: 32))
      ShareRaceTests.concurrentSubscribers(iteration, upstream: upstream, subscriptions: subscriptions) {
        shared.value.eraseToAnyPublisher()
      }
      let recorders = iteration.recorders
      iteration.check {
        let sets = Set(recorders.map { $0.values.map(\.short).sorted().joined(separator: " ") })
        return sets.count > 1
          ? [
            RaceViolation(
              .lost, "the subscribers of a replay of everything received different values: \(sets.sorted())")
          ] : []
      }
    }
  }
}
