import Confluence
import XCTest

/// `Future` fulfilled from two threads while two others subscribe: the first fulfilment
/// counts; every subscriber, whenever it subscribed, gets exactly that one value and one
/// `finished`.
final class FutureRaceTests: XCTestCase {
  func test_promise_fromTwoThreads_whileTwoSubscribe_oneValueAndFinishedForEach() {
    race("Future: 2 threads fulfil while 2 threads subscribe", threads: 4) { iteration in
      let promise = RacePromise<Never>()
      let future = Future<RaceTag, Never> { promise.set($0) }
      let recorders = [iteration.recorder("A"), iteration.recorder("B")]
      let late = iteration.recorder("late")
      let keeper = RaceKeeper()
      for _ in 0..<2 {
        iteration.thread { actor in
          actor.pauses(6)
          promise.fulfil(.success(actor.tag(0)))
        }
      }
      for recorder in recorders {
        iteration.thread { actor in
          actor.pauses(6)
          keeper.keep(RaceSink(future, into: recorder))
        }
      }
      iteration.then { _ in keeper.keep(RaceSink(future, into: late)) }
      iteration.check {
        withExtendedLifetime(keeper) {}
        let all = recorders + [late]
        var found = all.flatMap { Self.oneValueThenFinished($0) }
        let values = Set(all.flatMap(\.values))
        if values.count > 1 {
          found.append(
            RaceViolation(.duplicated, "the subscribers received different values: \(values.map(\.short).sorted())"))
        }
        return found
      }
    }
  }

  /// A success and a failure race: every subscriber gets the same outcome.
  func test_successAndFailure_fromTwoThreads_everySubscriberGetsTheSameOutcome() {
    race("Future: a success and a failure race while 2 threads subscribe", threads: 4) { iteration in
      let promise = RacePromise<RaceFailure>()
      let future = Future<RaceTag, RaceFailure> { promise.set($0) }
      let recorders = [iteration.recorder("A"), iteration.recorder("B")]
      let keeper = RaceKeeper()
      iteration.thread { actor in
        actor.pauses(6)
        promise.fulfil(.success(actor.tag(0)))
      }
      iteration.thread { actor in
        actor.pauses(6)
        promise.fulfil(.failure(RaceFailure(thread: actor.index)))
      }
      for recorder in recorders {
        iteration.thread { actor in
          actor.pauses(6)
          keeper.keep(RaceSink(future, into: recorder))
        }
      }
      iteration.check {
        withExtendedLifetime(keeper) {}
        var found = recorders.flatMap { RaceCheck.oneCompletion($0) }
        let outcomes = Set(recorders.map { ($0.values.map(\.short) + $0.completions).joined(separator: " ") })
        if outcomes.count > 1 {
          found.append(RaceViolation(.completion, "the subscribers saw different outcomes: \(outcomes.sorted())"))
        }
        for recorder in recorders where recorder.values.count > 1 {
          found.append(
            RaceViolation(.duplicated, "subscriber \(recorder.name) received \(recorder.values.count) values"))
        }
        return found
      }
    }
  }

  static func oneValueThenFinished(_ recorder: RaceRecorder) -> [RaceViolation] {
    var found = RaceCheck.oneCompletion(recorder, allowed: ["finished"])
    let values = recorder.values
    if values.count != 1 {
      found.append(
        RaceViolation(
          values.isEmpty ? .lost : .duplicated,
          "subscriber \(recorder.name) received \(values.count) values (\(values.map(\.short))), not one"))
    } else if values[0].seq != 0 || values[0].thread < 0 || values[0].thread > 1 {
      found.append(RaceViolation(.unexpected, "subscriber \(recorder.name) received \(values[0]), never promised"))
    }
    return found
  }
}

/// A `Future`'s promise, handed out of its closure to the fulfilling threads.
final class RacePromise<Failure: Error>: @unchecked Sendable {
  // Written once, inside `Future.init` (on the test's thread, before the threads start),
  // read by the threads afterwards.
  private var promise: Future<RaceTag, Failure>.Promise?

  func set(_ promise: @escaping Future<RaceTag, Failure>.Promise) {
    self.promise = promise
  }

  func fulfil(_ result: Result<RaceTag, Failure>) {
    promise?(result)
  }
}
