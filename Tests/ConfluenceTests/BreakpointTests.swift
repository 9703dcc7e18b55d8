import Confluence
import ConfluenceTesting
import Synchronization
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How many `SIGTRAP`s the test handler caught.
private let caughtTraps = Atomic<Int>(0)

final class BreakpointTests: XCTestCase {
  /// Runs `body` with a `SIGTRAP` handler that counts the signal instead of ending the
  /// process, and returns how many were raised.
  private func countingTraps(_ body: () -> Void) -> Int {
    let before = caughtTraps.load(ordering: .sequentiallyConsistent)
    let previous = signal(SIGTRAP) { _ in
      caughtTraps.add(1, ordering: .sequentiallyConsistent)
    }
    defer { signal(SIGTRAP, previous) }
    body()
    return caughtTraps.load(ordering: .sequentiallyConsistent) - before
  }

  // MARK: Passing events through (closures return false)

  func test_closuresReturningFalse_passEverythingThrough_andSeeEveryEvent() {
    var seen: [String] = []
    let subscriber = TestSubscriber<Int, Never>()
    let traps = countingTraps {
      [1, 2, 3].publisher
        .breakpoint(
          receiveSubscription: {
            seen.append("subscription \($0)"); return false
          },
          receiveOutput: {
            seen.append("output \($0)"); return false
          },
          receiveCompletion: {
            seen.append("completion \($0)"); return false
          }
        )
        .subscribe(subscriber)
    }
    XCTAssertEqual(traps, 0)
    XCTAssertEqual(seen, ["subscription [1, 2, 3]", "output 1", "output 2", "output 3", "completion finished"])
    XCTAssertEqual(
      subscriber.events, [.subscription(#"[1, 2, 3]"#), .value(1), .value(2), .value(3), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_closuresRunBeforeForwarding() {
    var log: [String] = []
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    subscriber.onSubscription = { _ in log.append("downstream subscription") }
    subscriber.onValue = {
      log.append("downstream \($0)"); return .none
    }
    subscriber.onCompletion = { _ in log.append("downstream completion") }
    Just(5)
      .breakpoint(
        receiveSubscription: { _ in
          log.append("subscription"); return false
        },
        receiveOutput: {
          log.append("output \($0)"); return false
        },
        receiveCompletion: { _ in
          log.append("completion"); return false
        }
      )
      .subscribe(subscriber)
    subscriber.request(.max(1))
    XCTAssertEqual(
      log,
      ["subscription", "downstream subscription", "output 5", "downstream 5", "completion", "downstream completion"])
  }

  func test_demand_noneThenMaxOneThenUnlimited() {
    var outputs: [Int] = []
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    [1, 2, 3].publisher
      .breakpoint(receiveOutput: {
        outputs.append($0); return false
      })
      .subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription(#"[1, 2, 3]"#)])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription(#"[1, 2, 3]"#), .value(1)])
    XCTAssertEqual(outputs, [1])
    subscriber.request(.unlimited)
    XCTAssertEqual(
      subscriber.events, [.subscription(#"[1, 2, 3]"#), .value(1), .value(2), .value(3), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.max(1), .unlimited])
    XCTAssertEqual(outputs, [1, 2, 3])
  }

  func test_demandReturnedFromReceive_isPassedBack() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    [1, 2, 3].publisher.breakpoint().subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription(#"[1, 2, 3]"#), .value(1), .value(2), .value(3), .completion(.finished)])
  }

  func test_requestsArePassedUpstream() {
    let publisher = ManualDebugPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    publisher.breakpoint().subscribe(subscriber)
    subscriber.request(.max(3))
    XCTAssertEqual(publisher.requests, [.max(2), .max(3)])
  }

  func test_failure_closureSeesTheError_andFailurePassesThrough() {
    var completions: [String] = []
    let publisher = ManualDebugPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    publisher
      .breakpoint(receiveCompletion: {
        completions.append("\($0)"); return false
      })
      .subscribe(subscriber)
    publisher.send(1)
    publisher.fail(TestError("boom"))
    XCTAssertEqual(completions, ["failure(boom)"])
    XCTAssertEqual(subscriber.events, [.subscription("Manual"), .value(1), .completion(.failure(TestError("boom")))])
  }

  func test_breakpointOnError_passesValuesAndFinished() {
    let subscriber = TestSubscriber<Int, TestError>()
    let traps = countingTraps {
      Publishers.Sequence<[Int], TestError>(sequence: [1, 2]).breakpointOnError().subscribe(subscriber)
    }
    XCTAssertEqual(traps, 0)
    XCTAssertEqual(subscriber.events, [.subscription(#"[1, 2]"#), .value(1), .value(2), .completion(.finished)])
  }

  func test_cancel_isPassedUpstream_andNothingFollows() {
    var completions = 0
    let publisher = ManualDebugPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    publisher
      .breakpoint(receiveCompletion: { _ in
        completions += 1; return false
      })
      .subscribe(subscriber)
    publisher.send(1)
    subscriber.cancel()
    subscriber.cancel()
    XCTAssertEqual(publisher.cancelCount, 1)
    XCTAssertFalse(publisher.send(2))
    publisher.finish()
    XCTAssertEqual(completions, 0)
    XCTAssertEqual(subscriber.events, [.subscription("Manual"), .value(1)])
  }

  func test_cancelInsideReceive_justsLateCompletionStillPasses() {
    var completions = 0
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel()
      return .none
    }
    // Breakpoint is a relay, as Apple's: Just's own completion, which Just sends even to a
    // subscriber that cancelled inside receive, is shown to the closure and passed on.
    subscriber.onViolation = { _ in }
    Just(1).breakpoint(receiveCompletion: { _ in
      completions += 1; return false
    }).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Just"), .value(1), .completion(.finished)])
    XCTAssertEqual(completions, 1)
  }

  // MARK: Raising SIGTRAP (closures return true)

  func test_outputClosureReturningTrue_raisesSIGTRAP_thenPassesTheValueOn() {
    let subscriber = TestSubscriber<Int, Never>()
    let traps = countingTraps {
      (1...20).publisher
        .breakpoint(receiveOutput: { value in value > 10 && value < 15 })
        .subscribe(subscriber)
    }
    XCTAssertEqual(traps, 4)
    XCTAssertEqual(subscriber.values, Array(1...20))
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_subscriptionAndCompletionClosuresReturningTrue_raiseSIGTRAP() {
    let subscriber = TestSubscriber<Int, Never>()
    let traps = countingTraps {
      Just(1)
        .breakpoint(receiveSubscription: { _ in true }, receiveCompletion: { _ in true })
        .subscribe(subscriber)
    }
    XCTAssertEqual(traps, 2)
    XCTAssertEqual(subscriber.events, [.subscription("Just"), .value(1), .completion(.finished)])
  }

  func test_breakpointOnError_raisesSIGTRAPOnFailure() {
    let publisher = ManualDebugPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    let traps = countingTraps {
      publisher.breakpointOnError().subscribe(subscriber)
      publisher.send(1)
      publisher.fail(TestError("boom"))
    }
    XCTAssertEqual(traps, 1)
    XCTAssertEqual(subscriber.events, [.subscription("Manual"), .value(1), .completion(.failure(TestError("boom")))])
  }

  // MARK: Lifetime

  func test_cancel_freesTheClosures() {
    let tracker = LifetimeTracker()
    let publisher = ManualDebugPublisher<Int, Never>()
    do {
      let probes = (tracker.make(), tracker.make(), tracker.make())
      let token =
        publisher
        .breakpoint(
          receiveSubscription: { _ in
            _ = probes.0; return false
          },
          receiveOutput: { _ in
            _ = probes.1; return false
          },
          receiveCompletion: { _ in
            _ = probes.2; return false
          }
        )
        .sink { _ in }
      publisher.send(1)
      publisher.dropSubscription()
      token.cancel()
    }
    XCTAssertEqual(tracker.madeCount, 3)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_completion_freesTheSubscription() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    [1].publisher.breakpoint().subscribe(subscriber)
    var subscription: AnyObject? = subscriber.subscription as AnyObject?
    XCTAssertNotNil(subscription)
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.completion, .finished)
    assertReleased(&subscription)
  }

  // MARK: The publisher value

  func test_publisherKeepsItsClosures() {
    let breakpoint = Just(3).breakpoint(receiveOutput: { $0 == 3 })
    XCTAssertEqual(breakpoint.upstream, Just(3))
    XCTAssertNil(breakpoint.receiveSubscription)
    XCTAssertNil(breakpoint.receiveCompletion)
    XCTAssertEqual(breakpoint.receiveOutput?(3), true)
    XCTAssertEqual(breakpoint.receiveOutput?(4), false)

    let onError = Publishers.Sequence<[Int], TestError>(sequence: [3]).breakpointOnError()
    XCTAssertEqual(onError.receiveCompletion?(.failure(TestError())), true)
    XCTAssertEqual(onError.receiveCompletion?(.finished), false)
  }
}
