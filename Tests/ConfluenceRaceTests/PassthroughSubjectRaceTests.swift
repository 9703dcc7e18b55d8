import Confluence
import XCTest
import Synchronization

/// `PassthroughSubject` used from several threads at once: a value sent reaches every
/// subscriber that was subscribed when it was sent and has demand for it, exactly once, on
/// the sending thread, in each thread's order, one event at a time; subscribe, cancel,
/// `request(_:)` and `send(completion:)` may race the sends.
final class PassthroughSubjectRaceTests: XCTestCase {
  /// One subscriber with unlimited demand: the subject's fastest path (the lone-subscriber
  /// lane, handed between the sending threads). Many values per thread: the lane changes
  /// hands often.
  func test_send_fromTwoThreads_oneSubscriberGetsEachValueOnce() {
    race("PassthroughSubject: 2 threads send, one sink", threads: 2) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let a = iteration.sink("A", on: subject)
      for _ in 0..<2 {
        iteration.thread { $0.send(32) { subject.send($0) } }
      }
      iteration.check {
        RaceCheck.exactlyOnce(a.recorder, raceTags(threads: 0..<2, count: 32)) + RaceCheck.threadOrder(a.recorder)
          + RaceCheck.onSendersThread(a.recorder)
      }
    }
  }

  func test_send_fromFourThreads_twoSubscribersGetEachValueOnce() {
    race("PassthroughSubject: 4 threads send, a sink and a subscriber", threads: 4) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let a = iteration.sink("A", on: subject)
      let b: RaceSubscriber<Never> = iteration.subscriber("B")
      subject.subscribe(b)
      for _ in 0..<4 {
        iteration.thread { $0.send(5) { subject.send($0) } }
      }
      iteration.check {
        [a.recorder, b.recorder].flatMap {
          RaceCheck.exactlyOnce($0, raceTags(threads: 0..<4, count: 5)) + RaceCheck.threadOrder($0)
            + RaceCheck.onSendersThread($0)
        }
      }
    }
  }

  /// Limited demand. A: half the values, asked up front — each send that finds demand left
  /// delivers, so it gets exactly as many as it asked for, never more. B: as much as there
  /// are sending threads, and one more for each value it receives — a subject decides a
  /// value's demand when it is sent (as Apple's do, before waiting for another thread's
  /// delivery), and each thread has at most one value in flight, so B always has demand
  /// when a value is sent, if the demand it returns is counted before the send returns,
  /// and gets every value.
  func test_send_fromThreeThreads_limitedDemand_getsExactlyWhatItAskedFor() {
    race("PassthroughSubject: 3 threads send, a subscriber asks for half", threads: 3) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let a: RaceSubscriber<Never> = iteration.subscriber("A", demand: .max(9))
      let b: RaceSubscriber<Never> = iteration.subscriber("B", demand: .max(3), demandPerValue: .max(1))
      subject.subscribe(a)
      subject.subscribe(b)
      for _ in 0..<3 {
        iteration.thread { $0.send(6) { subject.send($0) } }
      }
      iteration.check {
        var found = [a.recorder, b.recorder].flatMap { RaceCheck.noDuplicates($0) + RaceCheck.threadOrder($0) }
        if a.recorder.values.count != 9 {
          found.append(
            RaceViolation(
              .lost, "subscriber A asked for 9 of 18 values and received \(a.recorder.values.count)"))
        }
        found += RaceCheck.exactlyOnce(b.recorder, raceTags(threads: 0..<3, count: 6))
        return found
      }
    }
  }

  /// A third thread asks for values one at a time while two send: never more than asked
  /// for, and no demand lost — once the threads are done, values sent one by one fill
  /// exactly the demand left.
  func test_request_fromAnotherThread_whileTwoThreadsSend_neverMoreThanDemandedNoDemandLost() {
    race("PassthroughSubject: 2 threads send while a third requests", threads: 3) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let a: RaceSubscriber<Never> = iteration.subscriber("A", demand: .max(1))
      subject.subscribe(a)
      for _ in 0..<2 {
        iteration.thread { $0.send(8) { subject.send($0) } }
      }
      iteration.thread { actor in
        for _ in 0..<6 {
          actor.pause()
          a.request(.max(1))
        }
      }
      let left = RaceCell()
      let receivedBefore = RaceCell()
      iteration.then { _ in
        left.value = a.outstandingDemand
        receivedBefore.value = a.recorder.values.count
        for seq in 0..<10 {
          subject.send(.main(seq))
        }
      }
      iteration.note { "demand left after the threads: \(left.value)" }
      iteration.check {
        var found = RaceCheck.noDuplicates(a.recorder) + RaceCheck.threadOrder(a.recorder)
        let late = a.recorder.values.count - receivedBefore.value
        if late != min(left.value, 10) {
          found.append(
            RaceViolation(
              .lost,
              "subscriber A had \(left.value) demand left after the threads, then received \(late) of 10 values sent one by one"
            ))
        }
        return found
      }
    }
  }

  /// A subscriber sends from inside its `receive(_:)` (an echo of each of thread 0's
  /// values) while two threads send: the echo is queued and delivered to it after the
  /// value it answers; every value and echo reaches both subscribers once.
  func test_sendFromInsideReceive_whileTwoThreadsSend_everyValueAndEchoOnce() {
    race("PassthroughSubject: a subscriber sends from inside receive while 2 threads send", threads: 2) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
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
          raceTags(threads: 0..<2, count: 6) + (0..<6).map { RaceTag.echo(of: RaceTag(thread: 0, seq: $0)) }
        return [a.recorder, b.recorder].flatMap { RaceCheck.exactlyOnce($0, expected) + RaceCheck.threadOrder($0) }
          + RaceCheck.echoesAfterTheirValues(a.recorder)
      }
    }
  }

  /// The subject as a subscriber of two upstreams (`publisher.subscribe(subject)`), each
  /// sent to from its own thread: both threads' values reach its subscribers once, in order.
  func test_asSubscriberOfTwoUpstreams_fedFromTwoThreads_everyValueOnce() {
    race("PassthroughSubject: subscribed to 2 upstreams that 2 threads send to", threads: 2) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let upstreams = (0..<2).map { _ in PassthroughSubject<RaceTag, Never>() }
      let connections = upstreams.map { $0.subscribe(subject) }
      let a = iteration.sink("A", on: subject)
      let b: RaceSubscriber<Never> = iteration.subscriber("B")
      subject.subscribe(b)
      for index in 0..<2 {
        iteration.thread { $0.send(8) { upstreams[index].send($0) } }
      }
      iteration.check {
        withExtendedLifetime(connections) {}
        return [a.recorder, b.recorder].flatMap {
          RaceCheck.exactlyOnce($0, raceTags(threads: 0..<2, count: 8)) + RaceCheck.threadOrder($0)
            + RaceCheck.onSendersThread($0)
        }
      }
    }
  }

  /// Two threads subscribe while two send: each subscriber gets, from each sending thread,
  /// an unbroken run of values that ends with its last and includes every value sent after
  /// the subscribe call returned.
  func test_subscribe_racingSendsFromTwoThreads_eachSubscriberGetsAnUnbrokenRun() {
    race("PassthroughSubject: 2 threads subscribe while 2 send", threads: 4) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let progress = [RaceProgress(), RaceProgress()]
      let a = iteration.recorder("A")
      let b: RaceSubscriber<Never> = iteration.subscriber("B")
      let mustFrom = [[RaceCell(), RaceCell()], [RaceCell(), RaceCell()]]
      let keeper = RaceKeeper()
      for sender in 0..<2 {
        iteration.thread { $0.send(10, progress: progress[sender]) { subject.send($0) } }
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
        }
        return found
      }
    }
  }

  /// A sink cancelled from a third thread while two threads send: no value starts after
  /// `cancel()` returned but the one in flight; every value whose send returned before the
  /// cancel began was delivered, and none after a gap; the closures are released; the
  /// other subscriber gets everything.
  func test_cancel_racingSendsFromTwoThreads_nothingAfterCancelReturned() {
    race("PassthroughSubject: a sink cancelled while 2 threads send", threads: 3) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let a = iteration.sink("A", on: subject)
      let b: RaceSubscriber<Never> = iteration.subscriber("B")
      subject.subscribe(b)
      let senders = RaceInterruptedSenders.start(in: iteration, send: { subject.send($0) }) {
        a.cancel()
      }
      let closures = a.closures
      iteration.check {
        var found = RaceCheck.atMostOneAfterCancel(a.recorder) + RaceCheck.noDuplicates(a.recorder)
        found += RaceCheck.threadOrder(a.recorder) + RaceCheck.noCompletion(a.recorder)
        found += senders.unbrokenStarts(a.recorder)
        found += RaceCheck.released(closures, "subscriber A's closures, after cancel()")
        found += RaceCheck.exactlyOnce(b.recorder, senders.allTags)
        return found
      }
    }
  }

  /// The lone subscriber (the subject's fastest path) cancelled while a thread sends.
  func test_cancel_ofTheOnlySubscriber_racingSends_nothingAfterCancelReturned() {
    race("PassthroughSubject: its only sink cancelled while 2 threads send", threads: 3) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let a = iteration.sink("A", on: subject)
      let senders = RaceInterruptedSenders.start(in: iteration, send: { subject.send($0) }) {
        a.cancel()
      }
      let closures = a.closures
      iteration.check {
        var found = RaceCheck.atMostOneAfterCancel(a.recorder) + RaceCheck.noDuplicates(a.recorder)
        found += RaceCheck.threadOrder(a.recorder)
        found += senders.unbrokenStarts(a.recorder)
        return found + RaceCheck.released(closures, "subscriber A's closures, after cancel()")
      }
    }
  }

  /// A subscriber (not a sink) cancels its subscription from another thread.
  func test_cancelSubscription_fromAnotherThread_racingSends_nothingAfterCancelReturned() {
    race("PassthroughSubject: a subscription cancelled while 2 threads send", threads: 3) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let a: RaceSubscriber<Never> = iteration.subscriber("A")
      let b: RaceSubscriber<Never> = iteration.subscriber("B")
      subject.subscribe(a)
      subject.subscribe(b)
      let weakA = RaceWeak(a)
      for _ in 0..<2 {
        iteration.thread { $0.send(8) { subject.send($0) } }
      }
      iteration.thread { actor in
        actor.pauses(12)
        a.cancel()
      }
      let recorder = a.recorder
      iteration.check {
        RaceCheck.atMostOneAfterCancel(recorder) + RaceCheck.noDuplicates(recorder) + RaceCheck.threadOrder(recorder)
          + RaceCheck.released(weakA, "subscriber A, after it cancelled")
          + RaceCheck.exactlyOnce(b.recorder, raceTags(threads: 0..<2, count: 8))
      }
    }
  }

  /// `send(completion:)` from a third thread while two send: one completion, nothing after
  /// it, and every value whose send returned before the completion was sent came first.
  func test_sendCompletion_racingSendsFromTwoThreads_oneCompletionNothingAfter() {
    race("PassthroughSubject: send(completion:) while 2 threads send", threads: 3) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
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

  /// Two threads send different failures while a third sends values: every subscriber,
  /// also one that subscribes afterwards, gets the same single completion.
  func test_sendCompletion_fromTwoThreads_everySubscriberGetsTheSameOne() {
    race("PassthroughSubject: 2 threads send(completion:) while a third sends", threads: 3) { iteration in
      let subject = PassthroughSubject<RaceTag, RaceFailure>()
      let a = iteration.sink("A", on: subject)
      let b: RaceSubscriber<RaceFailure> = iteration.subscriber("B", failing: RaceFailure.self)
      let late: RaceSubscriber<RaceFailure> = iteration.subscriber("late", failing: RaceFailure.self)
      subject.subscribe(b)
      for failing in 0..<2 {
        iteration.thread { actor in
          actor.pauses(6)
          subject.send(completion: .failure(RaceFailure(thread: failing)))
        }
      }
      iteration.thread { $0.send(8) { subject.send($0) } }
      iteration.then { _ in subject.subscribe(late) }
      iteration.check {
        let allowed = (0..<2).map { "failure(\(RaceFailure(thread: $0)))" }
        var found = [a.recorder, b.recorder, late.recorder].flatMap {
          RaceCheck.oneCompletion($0, allowed: allowed) + RaceCheck.noDuplicates($0) + RaceCheck.threadOrder($0)
        }
        let seen = Set([a.recorder, b.recorder, late.recorder].flatMap(\.completions))
        if seen.count > 1 {
          found.append(RaceViolation(.completion, "the subscribers received different completions: \(seen.sorted())"))
        }
        return found
      }
    }
  }

  /// A subscriber asks for everything, then cancels inside `receive(subscription:)` and keeps
  /// no reference to its subscription, while one thread sends, another cancels it too and a
  /// third completes the subject. The subject keeps the conduit alive until the call returns
  /// (the subscriber uses it after its cancel), nothing reaches it after its cancel returned,
  /// no completion reaches it, and it is let go; another subscriber gets each value at most
  /// once and one completion.
  func test_cancelInsideReceiveSubscription_racingSendsCancelAndCompletion_conduitOutlivesTheCall() {
    raceCancelInsideReceiveSubscription("a subscriber") { subject, subscriber in subject.subscribe(subscriber) }
  }

  /// As above through `map` and `filter`, whose relays the subject's subscription holds alone
  /// (moved in, see `Publisher._receiveRelay(_:)`): the subscription keeps each relay until
  /// `receive(subscription:)` returns, though it was cancelled meanwhile on either thread.
  func test_cancelInsideReceiveSubscription_throughRelays_racingSendsCancelAndCompletion_relayOutlivesTheCall() {
    raceCancelInsideReceiveSubscription("a subscriber behind map") { subject, subscriber in
      subject.map { $0 }.subscribe(subscriber)
    }
    raceCancelInsideReceiveSubscription("a subscriber behind filter") { subject, subscriber in
      subject.eraseToAnyPublisher().filter { _ in true }.subscribe(subscriber)
    }
  }

  private func raceCancelInsideReceiveSubscription(
    _ who: String,
    subscribe: @escaping @Sendable (PassthroughSubject<RaceTag, Never>, CancellingOnSubscription) -> Void
  ) {
    race(
      "PassthroughSubject: \(who) cancels inside receive(subscription:) while others send, cancel and complete",
      threads: 4
    ) { iteration in
      let subject = PassthroughSubject<RaceTag, Never>()
      let b = iteration.sink("B", on: subject)
      let handed = RaceLocked<RaceShared<Subscription>?>(nil)
      let seen = CancellingOnSubscription.Seen()
      let a = CancellingOnSubscription(iteration.recorder("A"), handing: handed, seen: seen)
      let weakA = RaceWeak(a)
      iteration.thread { _ in subscribe(subject, a) }
      iteration.thread { $0.send(8) { subject.send($0) } }
      iteration.thread { actor in
        for _ in 0..<4 {
          actor.pause()
          if let taken = handed.withLock({ held -> RaceShared<Subscription>? in
            defer { held = nil }
            return held
          }) {
            taken.value.cancel()
            return
          }
        }
      }
      iteration.thread { actor in
        actor.pause()
        actor.pause()
        subject.send(completion: .finished)
      }
      let recorder = a.recorder
      iteration.check {
        var found =
          RaceCheck.atMostOneAfterCancel(recorder) + RaceCheck.noDuplicates(recorder)
          + RaceCheck.released(weakA, "subscriber A, after it cancelled")
          + RaceCheck.oneCompletion(b.recorder) + RaceCheck.noDuplicates(b.recorder)
          + RaceCheck.threadOrder(b.recorder)
        if !seen.refused.load(ordering: .sequentiallyConsistent) { found += RaceCheck.noCompletion(recorder) }
        if seen.conduitGoneEarly.load(ordering: .sequentiallyConsistent) {
          found.append(RaceViolation(.notReleased, "A's subscription was released inside receive(subscription:)"))
        }
        return found
      }
    }
  }
}

/// Asks for everything in `receive(subscription:)`, hands the subscription to another thread
/// (`handing`), cancels it, pauses, checks it is still alive and asks it for more (nothing
/// may come of that), and returns: it keeps no reference of its own.
private final class CancellingOnSubscription: Subscriber, Sendable {
  typealias Input = RaceTag
  typealias Failure = Never

  /// What the subscriber saw, kept apart so that the checks need not keep it alive.
  final class Seen: Sendable {
    /// The subject had completed before it subscribed: it was handed an empty subscription.
    let refused = Atomic<Bool>(false)
    /// The subscription was gone before `receive(subscription:)` returned.
    let conduitGoneEarly = Atomic<Bool>(false)
  }

  let recorder: RaceRecorder
  private let handing: RaceLocked<RaceShared<Subscription>?>
  private let seen: Seen

  init(_ recorder: RaceRecorder, handing: RaceLocked<RaceShared<Subscription>?>, seen: Seen) {
    self.recorder = recorder
    self.handing = handing
    self.seen = seen
  }

  func receive(subscription: Subscription) {
    recorder.receivedSubscription()
    if String(describing: subscription) == "Empty" {
      seen.refused.store(true, ordering: .sequentiallyConsistent)
      return
    }
    let probe = RaceWeak(subscription as AnyObject)
    subscription.request(.unlimited)
    handing.withLock { $0 = RaceShared(subscription) }
    RaceActor.current?.pause()
    subscription.cancel()
    recorder.noteCancelReturned()
    // The other thread may have taken the subscription and dropped it meanwhile.
    handing.withLock { $0 = nil }
    RaceActor.current?.pause()
    if probe.object == nil { seen.conduitGoneEarly.store(true, ordering: .sequentiallyConsistent) }
    subscription.request(.max(1))
  }

  func receive(_ input: RaceTag) -> Subscribers.Demand {
    recorder.received(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    recorder.received(completion)
  }
}
