import Confluence
import ConfluenceTesting
import Dispatch
import Foundation
import XCTest

/// The sequencing pattern of "Using Combine" ("Sequencing operations with Combine",
/// `AsyncCoordinatorViewController`): each step is a `Future` wrapping an asynchronous call;
/// `flatMap` chains them so that a step's `Future` is only created once the step before it
/// has finished, and `Publishers.Zip3` waits for three parallel steps.
///
/// - step 1 runs first;
/// - steps 2.1, 2.2 and 2.3 run in parallel, after step 1 completes;
/// - step 3 waits until all three of step 2 completed;
/// - step 4 runs after step 3; the sink then receives `true` and `.finished`.
///
/// Local Futures stand in for the book's `randomAsyncAPI` (which slept 1–4 s on a global
/// queue), and the button highlighting becomes a log of steps.
final class FutureSequencingTests: XCTestCase {
  /// The book's pipeline, built from a `createFuturePublisher` that the test provides.
  private func coordinatedPipeline(
    _ createFuturePublisher: @escaping (String) -> AnyPublisher<Bool, Error>
  ) -> AnyPublisher<Bool, Error> {
    createFuturePublisher("1")
      .flatMap { _ -> AnyPublisher<Bool, Error> in
        let step2_1 = createFuturePublisher("2.1")
        let step2_2 = createFuturePublisher("2.2")
        let step2_3 = createFuturePublisher("2.3")
        return Publishers.Zip3(step2_1, step2_2, step2_3)
          .map { _ -> Bool in
            return true
          }
          .eraseToAnyPublisher()
      }
      .flatMap { _ in
        return createFuturePublisher("3")
      }
      .flatMap { _ in
        return createFuturePublisher("4")
      }
      .eraseToAnyPublisher()
  }

  func test_asyncCoordinator_runsStepsInOrder_andSinkReceivesTrueThenFinished() {
    let log = StepLog()

    // Emulates an async API call with a completion callback, on another thread.
    func randomAsyncAPI(completion completionBlock: @escaping @Sendable (Bool, Error?) -> Void) {
      DispatchQueue.global().async {
        completionBlock(true, nil)
      }
    }

    func createFuturePublisher(step: String) -> AnyPublisher<Bool, Error> {
      return Future<Bool, Error> { promise in
        log.record("start \(step)")
        randomAsyncAPI { result, err in
          if let err = err {
            promise(.failure(err))
          } else {
            promise(.success(result))
          }
        }
      }
      .map { _ -> Bool in
        // The book marks the step's button done here.
        log.record("done \(step)")
        return true
      }
      .eraseToAnyPublisher()
    }

    let finished = expectation(description: "the sink received the completion")
    let cancellable = coordinatedPipeline { createFuturePublisher(step: $0) }
      .sink(
        receiveCompletion: { completion in
          log.record(".sink() received the completion: \(completion)")
          finished.fulfill()
        },
        receiveValue: { value in
          log.record(".sink() received value: \(value)")
        })
    wait(for: [finished], timeout: 10)
    cancellable.cancel()

    let entries = log.entries
    // Step 1 alone first; the three step-2 futures only after it, in creation order;
    // their completions in any order; then 3, then 4, then the sink.
    XCTAssertEqual(Array(entries.prefix(5)), ["start 1", "done 1", "start 2.1", "start 2.2", "start 2.3"])
    XCTAssertEqual(Set(entries[5..<8]), ["done 2.1", "done 2.2", "done 2.3"])
    XCTAssertEqual(
      Array(entries.dropFirst(8)),
      [
        "start 3", "done 3", "start 4", "done 4",
        ".sink() received value: true",
        ".sink() received the completion: finished",
      ])
  }

  func test_asyncCoordinator_eachFutureIsCreatedOnlyWhenItsTurnComes() {
    let log = StepLog()
    var promises: [String: Future<Bool, Error>.Promise] = [:]
    let pipeline = coordinatedPipeline { step in
      Future<Bool, Error> { promise in
        log.record("start \(step)")
        promises[step] = promise
      }
      .map { _ -> Bool in
        log.record("done \(step)")
        return true
      }
      .eraseToAnyPublisher()
    }
    XCTAssertEqual(log.entries, ["start 1"], "the first Future runs when the pipeline is built")

    let subscriber = TestSubscriber<Bool, Error>()
    pipeline.subscribe(subscriber)
    promises["1"]?(.success(true))
    XCTAssertEqual(log.entries, ["start 1", "done 1", "start 2.1", "start 2.2", "start 2.3"])

    // Zip3 waits for all three, whatever order they finish in.
    promises["2.3"]?(.success(true))
    promises["2.1"]?(.success(true))
    XCTAssertFalse(log.entries.contains("start 3"))
    promises["2.2"]?(.success(true))
    XCTAssertEqual(log.entries.suffix(4), ["done 2.3", "done 2.1", "done 2.2", "start 3"])

    promises["3"]?(.success(true))
    XCTAssertEqual(log.entries.suffix(2), ["done 3", "start 4"])
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(FlatMap)"])

    promises["4"]?(.success(false))
    XCTAssertEqual(log.entries.last, "done 4")
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(FlatMap)", "value(true)", "completion(finished)"])
  }

  func test_asyncCoordinator_failingParallelStep_failsTheRunAndSkipsTheRest() {
    let log = StepLog()
    var promises: [String: Future<Bool, Error>.Promise] = [:]
    let subscriber = TestSubscriber<Bool, Error>()
    coordinatedPipeline { step in
      Future<Bool, Error> { promise in
        log.record("start \(step)")
        promises[step] = promise
      }
      .map { _ -> Bool in true }
      .eraseToAnyPublisher()
    }
    .subscribe(subscriber)

    promises["1"]?(.success(true))
    promises["2.2"]?(.failure(TestError("step 2.2")))
    promises["2.1"]?(.success(true))
    promises["2.3"]?(.success(true))
    XCTAssertEqual(log.entries, ["start 1", "start 2.1", "start 2.2", "start 2.3"])
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(FlatMap)", "completion(failure(step 2.2))"])
  }

  func test_asyncCoordinator_cancellingARun_stopsBeforeTheNextStep() {
    // The book's runItAll cancels a run still in progress before starting a new one.
    let log = StepLog()
    var promises: [String: Future<Bool, Error>.Promise] = [:]
    let tracker = LifetimeTracker()
    let subscriber = TestSubscriber<Bool, Error>()
    coordinatedPipeline { [probe = tracker.make()] step in
      _ = probe
      return Future<Bool, Error> { promise in
        log.record("start \(step)")
        promises[step] = promise
      }
      .map { _ -> Bool in true }
      .eraseToAnyPublisher()
    }
    .subscribe(subscriber)

    promises["1"]?(.success(true))
    subscriber.cancel()
    for step in ["2.1", "2.2", "2.3"] { promises[step]?(.success(true)) }
    XCTAssertEqual(log.entries, ["start 1", "start 2.1", "start 2.2", "start 2.3"])
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(FlatMap)"])
    promises = [:]
    XCTAssertEqual(tracker.liveCount, 0, "the cancelled run still holds the step factory")
  }
}

/// The steps' progress, recorded from whichever thread a step completes on.
private final class StepLog: @unchecked Sendable {
  // @unchecked Sendable: `recorded` is guarded by `lock`.
  private let lock = NSLock()
  private var recorded: [String] = []

  func record(_ entry: String) { lock.withLock { recorded.append(entry) } }

  var entries: [String] { lock.withLock { recorded } }
}
