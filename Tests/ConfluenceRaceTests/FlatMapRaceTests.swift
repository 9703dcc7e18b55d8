import Confluence
import ConfluenceExtras
import XCTest

/// `flatMap` with inner publishers sending and completing on other threads: every inner
/// value once, each inner's in order, one event at a time, one `finished` after everything.
final class FlatMapRaceTests: XCTestCase {
  /// Two inners (subscribed before the threads start) each sent to and finished from its
  /// own thread, the outer finished from a third.
  func test_innersSendAndFinishOnTwoThreads_outerFinishesOnAThird_everyValueOnceThenFinished() {
    race("flatMap: 2 inners send and finish on 2 threads, the outer finishes on a third", threads: 3) { iteration in
      let inners = (0..<2).map { _ in PassthroughSubject<RaceTag, Never>() }
      let outer = PassthroughSubject<Int, Never>()
      let a = iteration.sink("A", on: outer.flatMap { inners[$0] })
      outer.send(0)
      outer.send(1)
      for index in 0..<2 {
        iteration.thread { actor in
          actor.send(8) { inners[index].send($0) }
          actor.pause()
          inners[index].send(completion: .finished)
        }
      }
      iteration.thread { actor in
        actor.pauses(10)
        outer.send(completion: .finished)
      }
      iteration.check {
        RaceCheck.exactlyOnce(a.recorder, raceTags(threads: 0..<2, count: 8)) + RaceCheck.threadOrder(a.recorder)
          + RaceCheck.oneCompletion(a.recorder, allowed: ["finished"])
      }
    }
  }

  /// The outer sends its inners from one thread while the inners send from two others: an
  /// inner's values from the moment the outer's `send` returned reach the subscriber, without
  /// a gap, none twice.
  func test_outerSendsInnersWhileInnersSend_everyValueAfterSubscriptionOnce() {
    race("flatMap: the outer sends 2 inners on one thread while they send on 2 others", threads: 3) { iteration in
      let inners = (0..<2).map { _ in PassthroughSubject<RaceTag, Never>() }
      let outer = PassthroughSubject<Int, Never>()
      let a = iteration.sink("A", on: outer.flatMap { inners[$0] })
      let progress = [RaceProgress(), RaceProgress()]
      let mustFrom = [RaceCell(10), RaceCell(10)]
      for index in 0..<2 {
        iteration.thread { $0.send(10, progress: progress[index]) { inners[index].send($0) } }
      }
      iteration.thread { actor in
        for index in 0..<2 {
          actor.pauses(6)
          outer.send(index)
          mustFrom[index].value = progress[index].begunCount
        }
      }
      iteration.check {
        RaceCheck.noDuplicates(a.recorder) + RaceCheck.threadOrder(a.recorder)
          + (0..<2).flatMap {
            RaceCheck.unbrokenRun(a.recorder, thread: $0, sent: 10, mustFrom: mustFrom[$0].value)
          }
      }
    }
  }

  /// `maxPublishers: .max(1)`: the second inner is asked for (from a sequence, which waits
  /// for demand) and subscribed only when the first finished, on whichever thread that
  /// happened. Inners that replay everything lose nothing, so the output is the first
  /// inner's values, then the second's.
  func test_maxPublishersOne_innersFinishOnOtherThreads_innersInTurn() {
    race("flatMap(maxPublishers: .max(1)): 2 replaying inners send and finish on 2 threads", threads: 2) {
      iteration in
      let inners = (0..<2).map { _ in ReplaySubject<RaceTag, Never>(bufferSize: 16) }
      let a = iteration.sink("A", on: [0, 1].publisher.flatMap(maxPublishers: .max(1)) { inners[$0] })
      for index in 0..<2 {
        iteration.thread { actor in
          actor.send(6) { inners[index].send($0) }
          actor.pause()
          inners[index].send(completion: .finished)
        }
      }
      iteration.check {
        var found = RaceCheck.exactlyOnce(a.recorder, raceTags(threads: 0..<2, count: 6))
        found += RaceCheck.oneCompletion(a.recorder, allowed: ["finished"])
        if found.isEmpty && a.recorder.values != raceTags(threads: 0..<2, count: 6) {
          found.append(
            RaceViolation(
              .reordered,
              "the inners' values were interleaved: " + a.recorder.values.map(\.short).joined(separator: " ")))
        }
        return found
      }
    }
  }

  /// `flatMap { Just($0) }`, whose `Just`s are taken without a subscription, fed from two
  /// threads while a third asks for demand two values at a time: the values beyond demand
  /// wait in `flatMap`'s buffer, a value that arrives while another thread hands buffered
  /// ones over waits its turn, every value arrives once, each thread's in order, one at a
  /// time, and the outer's completion (sent once the threads returned) arrives after the
  /// last value, once.
  func test_justInners_outerSentFromTwoThreads_demandFromAThird_everyValueOnceOneAtATimeThenFinished() {
    raceTwoSendersDemandFromAThird(
      "flatMap { Just }: the outer sends on 2 threads, demand two at a time from a third"
    ) {
      $0.flatMap { Just($0) }.eraseToAnyPublisher()
    }
  }

  /// `flatMap { Just($0) }` into a sink (a class, which `flatMap` calls through a reference
  /// it did not retain), cancelled from another thread while a thread sends: at most the
  /// value in flight starts after the cancel, none arrives twice, the values before the
  /// cancel arrive unbroken, and the sink's closures are released once the delivering
  /// thread is done (the sink itself is kept alive by the subscription until then).
  func test_justInners_sinkCancelledFromAnotherThreadWhileAThreadSends_atMostTheValueInFlight() {
    raceSinkCancelledWhileAThreadSends("flatMap { Just } into a sink: cancelled while a thread sends") {
      $0.flatMap { Just($0) }
    }
  }

  /// Two nested `flatMap(maxPublishers: .max(1)) { Just($0) }` behind a buffer fed from two
  /// threads, while a third asks for demand two values at a time. Each level takes its
  /// `Just` without a subscription and, once the value was handed over, lets go of delivery,
  /// counts the inner finished and takes upstream's subscription out in one critical
  /// section, then asks upstream for one more element: the lower level's request arrives
  /// while the upper one still delivers, and demand from the third thread arrives at any
  /// point. Every value arrives once, each thread's in order, one at a time, and the
  /// completion (sent once the threads returned) after the last value, once.
  func test_nestedMaxOneJustInners_outerSentFromTwoThreads_demandFromAThird_everyValueOnceThenFinished() {
    raceTwoSendersDemandFromAThird(
      "flatMap(maxPublishers: .max(1)) { Just } twice: 2 senders, demand two at a time from a third"
    ) {
      $0.buffer(size: 32, prefetch: .byRequest, whenFull: .dropNewest)
        .flatMap(maxPublishers: .max(1)) { Just($0) }
        .flatMap(maxPublishers: .max(1)) { Just($0) }
        .eraseToAnyPublisher()
    }
  }

  /// The scenario of the two tests above: `pipeline` applied to an outer subject that two
  /// threads send 8 values each to, a subscriber that asks for two values at first and a
  /// third thread that asks for two more seven times; the outer finishes once the threads
  /// returned. Every value once, each thread's in order, then one `.finished`.
  private func raceTwoSendersDemandFromAThird(
    _ name: String,
    _ pipeline: @escaping (PassthroughSubject<RaceTag, Never>) -> AnyPublisher<RaceTag, Never>
  ) {
    race(name, threads: 3) { iteration in
      let outer = PassthroughSubject<RaceTag, Never>()
      let a: RaceSubscriber<Never> = iteration.subscriber("A", demand: .max(2), demandPerValue: .none)
      pipeline(outer).subscribe(a)
      for _ in 0..<2 {
        iteration.thread { $0.send(8) { outer.send($0) } }
      }
      iteration.thread { actor in
        for _ in 0..<7 {
          actor.pause()
          a.request(.max(2))
        }
      }
      iteration.then { _ in outer.send(completion: .finished) }
      iteration.check {
        RaceCheck.exactlyOnce(a.recorder, raceTags(threads: 0..<2, count: 8)) + RaceCheck.threadOrder(a.recorder)
          + RaceCheck.oneCompletion(a.recorder, allowed: ["finished"])
      }
    }
  }
}
