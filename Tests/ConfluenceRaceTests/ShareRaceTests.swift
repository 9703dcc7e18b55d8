import Confluence
import XCTest

/// `share()` with subscribers arriving on several threads while values flow: the upstream is
/// subscribed once, however many threads subscribe at once; no subscriber gets a value
/// twice; each gets an unbroken run of values that includes every value sent after all had
/// subscribed. And the multicast relay's cross-thread cancel: nothing starts after
/// `cancel()` returned but the value in flight, and the relay lets go of its subscriber.
final class ShareRaceTests: XCTestCase {
  func test_subscribe_fromThreeThreadsWhileAFourthSends_connectsOnceNoValueTwice() {
    race("share(): 3 threads subscribe while a fourth sends upstream", threads: 4) { iteration in
      let upstream = PassthroughSubject<RaceTag, Never>()
      let subscriptions = RaceCell()
      let shared = RaceShared(
        upstream.handleEvents(receiveSubscription: { _ in subscriptions.increment() }).share())
      Self.concurrentSubscribers(iteration, upstream: upstream, subscriptions: subscriptions) {
        shared.value.eraseToAnyPublisher()
      }
    }
  }

  /// The relay (what `multicast` subscribes to its subject for each subscriber) cancelled
  /// from other threads while a thread sends: for the cancelled subscriber and sink, nothing
  /// starts after `cancel()` returned but the value in flight, every value sent before the
  /// cancel began arrived, and the relay let go of the subscriber (and the sink of its
  /// closures); the subscriber that stays gets every value once.
  func test_cancel_ofRelaysFromTwoThreads_whileAThirdSends_nothingAfterCancelReturned() {
    race("share(): a subscriber and a sink cancelled while a thread sends upstream", threads: 3) { iteration in
      let upstream = PassthroughSubject<RaceTag, Never>()
      let shared = upstream.share()
      let a: RaceSubscriber<Never> = iteration.subscriber("A")
      shared.subscribe(a)
      let b = iteration.sink("B", on: shared)
      let c = iteration.sink("C", on: shared)
      let weakA = RaceWeak(a)
      let progress = RaceProgress()
      let sentBefore = [RaceCell(), RaceCell()]
      iteration.thread { $0.send(10, progress: progress) { upstream.send($0) } }
      iteration.thread { actor in
        actor.pauses(12)
        sentBefore[0].value = progress.returnedCount
        a.cancel()
      }
      iteration.thread { actor in
        actor.pauses(12)
        sentBefore[1].value = progress.returnedCount
        c.cancel()
      }
      let recorderA = a.recorder
      let closuresC = c.closures
      iteration.check {
        var found: [RaceViolation] = []
        for (index, recorder) in [recorderA, c.recorder].enumerated() {
          found += RaceCheck.atMostOneAfterCancel(recorder) + RaceCheck.noDuplicates(recorder)
          found += RaceCheck.threadOrder(recorder)
          found += RaceCheck.unbrokenStart(recorder, thread: 0, mustThrough: sentBefore[index].value - 1)
        }
        found += RaceCheck.released(weakA, "subscriber A, after it cancelled its relay")
        found += RaceCheck.released(closuresC, "sink C's closures, after cancel()")
        return found + RaceCheck.exactlyOnce(b.recorder, raceTags(threads: 0..<1, count: 10))
      }
    }
  }

  /// A subscriber of `share()` asks for one value at a time from another thread while a
  /// thread sends upstream: never more than it asked for, nothing twice, in order; the other
  /// subscriber, unlimited, gets every value once.
  func test_request_fromAnotherThread_whileAThreadSendsUpstream_neverMoreThanDemanded() {
    race("share(): a subscriber requests from another thread while a thread sends upstream", threads: 2) {
      iteration in
      let upstream = PassthroughSubject<RaceTag, Never>()
      let shared = upstream.share()
      let a: RaceSubscriber<Never> = iteration.subscriber("A", demand: .max(1))
      shared.subscribe(a)
      let b = iteration.sink("B", on: shared)
      iteration.thread { $0.send(10) { upstream.send($0) } }
      iteration.thread { actor in
        for _ in 0..<4 {
          actor.pause()
          a.request(.max(1))
        }
      }
      iteration.check {
        RaceCheck.noDuplicates(a.recorder) + RaceCheck.threadOrder(a.recorder)
          + RaceCheck.exactlyOnce(b.recorder, raceTags(threads: 0..<1, count: 10))
      }
    }
  }

  /// Three subscribers arrive on threads 1–3 while thread 0 sends to `upstream`; `makeShared`
  /// is the publisher they subscribe to; `subscriptions` counts the upstream's subscriptions.
  static func concurrentSubscribers(
    _ iteration: RaceIteration, upstream: PassthroughSubject<RaceTag, Never>, subscriptions: RaceCell,
    sent: Int = 12, _ makeShared: @escaping @Sendable () -> AnyPublisher<RaceTag, Never>
  ) {
    let progress = RaceProgress()
    let subscribed = RaceCell()
    let allSubscribedAt = RaceCell(sent)
    let keeper = RaceKeeper()
    let a = iteration.recorder("A")
    // A sink, and two subscribers that may pause inside `receive(subscription:)`.
    let others: [RaceSubscriber<Never>] = [iteration.subscriber("B"), iteration.subscriber("C")]
    let recorders = [a] + others.map(\.recorder)
    iteration.thread { actor in
      actor.pauses(4)
      actor.send(sent, progress: progress) { upstream.send($0) }
    }
    for index in 0..<3 {
      iteration.thread { actor in
        actor.pauses(3)
        if index == 0 {
          keeper.keep(RaceSink(makeShared(), into: a))
        } else {
          makeShared().subscribe(others[index - 1])
        }
        if subscribed.increment() == recorders.count {
          allSubscribedAt.value = progress.begunCount
        }
      }
    }
    iteration.note { "thread 0 had begun \(allSubscribedAt.value) sends when all had subscribed" }
    iteration.check {
      withExtendedLifetime(keeper) {}
      var found: [RaceViolation] = []
      if subscriptions.value != 1 {
        found.append(
          RaceViolation(.subscriptions, "the upstream was subscribed \(subscriptions.value) times, not once"))
      }
      for recorder in recorders {
        found += RaceCheck.noDuplicates(recorder) + RaceCheck.threadOrder(recorder)
        found += RaceCheck.unbrokenRun(recorder, thread: 0, sent: sent, mustFrom: allSubscribedAt.value)
      }
      return found
    }
  }
}
