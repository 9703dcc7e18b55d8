import Confluence
import ConfluenceExtras
import ConfluenceFoundation
import ConfluenceTesting
import Foundation
import XCTest

/// Every precondition a user of Confluence can reach traps, in a child process, with a
/// message that names the API and says what was wrong. (Where Apple's Combine quietly
/// ignores a misuse, Confluence ignores it too; those cases are pinned by each family's
/// rule tests, not here.)
final class MisuseTrapTests: XCTestCase {
  // MARK: Demand

  func test_negativeDemand_traps_namingTheDemand() {
    let amount = Int("-1")!  // not a literal, so the check runs at run time
    assertTraps("Subscribers.Demand.max(-1): a demand must not be negative") {
      _ = Subscribers.Demand.max(amount)
    }
  }

  func test_demandTimesANegativeNumber_traps() {
    let factor = Int("-2")!
    assertTraps("must not be multiplied by a negative number") {
      _ = Subscribers.Demand.max(3) * factor
    }
  }

  func test_requestingNothingFromASubject_traps_namingRequest() {
    let subject = CurrentValueSubject<Int, Never>(0)
    assertTraps("request(_:) was called with demand .none") {
      let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
      subject.subscribe(subscriber)
      subscriber.subscription?.request(.none)
    }
  }

  // MARK: Counts and sizes

  func test_collectByCountOfZero_traps() {
    assertTraps("collect(_:) was called with count 0") {
      _ = [1, 2].publisher.collect(0).sink { _ in }
    }
  }

  func test_collectByTimeOrCountOfZero_traps() {
    let scheduler = TestScheduler()
    assertTraps("collect(.byTimeOrCount): the count must be greater than zero") {
      _ = PassthroughSubject<Int, Never>().collect(.byTimeOrCount(scheduler, .seconds(1), 0)).sink { _ in }
    }
  }

  func test_negativePrefixLength_traps() {
    let length = Int("-1")!
    assertTraps("prefix(_:): maxLength must not be negative (got -1)") {
      _ = PassthroughSubject<Int, Never>().prefix(length).sink { _ in }
    }
    assertTraps("prefix(_:): maxLength must not be negative (got -1)") {
      _ = Just(1).prefix(length)
    }
  }

  func test_negativeDropCount_trapsWhenSubscribed_notWhenBuilt() {
    let count = Int("-1")!
    let dropping = PassthroughSubject<Int, Never>().dropFirst(count)  // building is fine, as Apple's
    assertTraps("dropFirst(_:): count must not be negative (got -1)") {
      _ = dropping.sink { _ in }
    }
  }

  func test_negativeOutputIndex_traps() {
    let index = Int("-3")!
    assertTraps("output(at:): index must not be negative (got -3)") {
      _ = PassthroughSubject<Int, Never>().output(at: index).sink { _ in }
    }
  }

  func test_negativeBufferSize_traps() {
    let size = Int("-1")!
    assertTraps("the buffer size must not be negative") {
      _ = PassthroughSubject<Int, Never>().buffer(size: size, prefetch: .byRequest, whenFull: .dropOldest)
        .sink { _ in }
    }
  }

  func test_negativeReplayBuffer_traps() {
    let size = Int("-2")!
    assertTraps("ReplaySubject: bufferSize must not be negative (got -2)") {
      _ = ReplaySubject<Int, Never>(bufferSize: size)
    }
  }

  func test_backoffRetry_withMultiplierBelowOne_orNegativeDelay_traps() {
    let scheduler = TestScheduler()
    assertTraps("retry: the backoff multiplier must be at least 1 (got 0)") {
      _ = Fail<Int, TestError>(error: TestError()).retry(
        2, initialDelay: .seconds(1), multiplier: 0, scheduler: scheduler)
    }
    assertTraps("retry: the initial delay must not be negative") {
      _ = Fail<Int, TestError>(error: TestError()).retry(2, initialDelay: .seconds(-1), scheduler: scheduler)
    }
  }

  // MARK: Recording, strides, schedulers

  func test_recordingAValueAfterTheCompletion_traps() {
    assertTraps("Record.Recording.receive(_:): a value was recorded after the completion") {
      var recording = Record<Int, Never>.Recording()
      recording.receive(completion: .finished)
      recording.receive(1)
    }
  }

  func test_recordingASecondCompletion_traps() {
    assertTraps("Record.Recording.receive(completion:): a second completion was recorded") {
      var recording = Record<Int, Never>.Recording()
      recording.receive(completion: .finished)
      recording.receive(completion: .finished)
    }
  }

  func test_dispatchQueueStrideFromNaN_traps() {
    let seconds = Double("nan")!
    assertTraps("A dispatch queue stride cannot be created from NaN seconds") {
      _ = DispatchQueue.SchedulerTimeType.Stride.seconds(seconds)
    }
  }

  func test_testSchedulerRepeatingEveryZero_traps() {
    let scheduler = TestScheduler()
    assertTraps("TestScheduler: a repeating schedule needs an interval greater than zero") {
      _ = scheduler.schedule(after: scheduler.now, interval: .zero) {}
    }
  }

  func test_malformedMarbles_trap_quotingTheDiagram() {
    assertTraps("marbles: ')' without '(' in \"-a)\"") {
      _ = TestSequence<String, Never>(marbles: "-a)")
    }
    assertTraps("marbles: no value for 'b' in \"-b\"") {
      _ = TestSequence<Int, Never>(marbles: "-b", values: ["a": 1])
    }
  }

  // Apple's strict filtering family (tryFilter, tryCompactMap, removeDuplicates,
  // prefix(while:) and their try forms) traps on events that come before its subscription.
  func test_strictFilteringFamily_valueBeforeTheSubscription_traps() {
    assertTraps("TryFilter received a value before its subscription") {
      let upstream = DetachedUpstream<Int, Never>()
      upstream.tryFilter { _ in true }.subscribe(TestSubscriber<Int, any Error>())
      _ = upstream.send(1)
    }
  }

  func test_strictFilteringFamily_completionBeforeTheSubscription_traps() {
    assertTraps("RemoveDuplicates received a completion before its subscription") {
      let upstream = DetachedUpstream<Int, Never>()
      upstream.removeDuplicates().subscribe(TestSubscriber<Int, Never>())
      upstream.send(completion: .finished)
    }
  }

  func test_strictFilteringFamily_requestBeforeTheSubscription_traps() {
    assertTraps("PrefixWhile was asked for demand before its subscription") {
      let upstream = DetachedUpstream<Int, Never>()
      upstream.prefix { _ in true }.subscribe(TestSubscriber<Int, Never>())
      upstream.operatorSubscription?.request(.max(1))
    }
  }

  // Apple's drop(untilOutputFrom:) counts demand and traps on a value nobody asked for.
  func test_dropUntilOutput_valueBeyondDemand_traps() {
    assertTraps("drop(untilOutputFrom:) received a value beyond the demand requested") {
      let upstream = DetachedUpstream<Int, Never>()
      upstream.drop(untilOutputFrom: Empty<Int, Never>(completeImmediately: false))
        .subscribe(TestSubscriber<Int, Never>(initialDemand: .max(1)))
      upstream.attach()
      _ = upstream.send(1)
      _ = upstream.send(2)
    }
  }

  // Apple's replaceError(with:) counts the demand it passed on (requested plus returned)
  // and traps on a value nobody asked for, as catch and drop(untilOutputFrom:) do.
  func test_replaceError_valueWithNoOutstandingDemand_traps() {
    assertTraps("ReplaceError: received a value with no outstanding demand") {
      let upstream = DetachedUpstream<Int, TestError>()
      upstream.replaceError(with: 0).subscribe(TestSubscriber<Int, Never>(initialDemand: .max(1)))
      upstream.attach()
      _ = upstream.send(1)
      _ = upstream.send(2)
    }
  }

  func test_catch_valueWithNoOutstandingDemand_traps() {
    assertTraps("the upstream sent a value it was not asked for") {
      let upstream = DetachedUpstream<Int, TestError>()
      upstream.catch { _ in Just(0) }.subscribe(TestSubscriber<Int, Never>(initialDemand: .max(1)))
      upstream.attach()
      _ = upstream.send(1)
      _ = upstream.send(2)
    }
  }

  func test_tryCatch_valueWithNoOutstandingDemand_traps() {
    assertTraps("the upstream sent a value it was not asked for") {
      let upstream = DetachedUpstream<Int, TestError>()
      upstream.tryCatch { _ in Just(0) }.subscribe(TestSubscriber<Int, Error>(initialDemand: .max(1)))
      upstream.attach()
      _ = upstream.send(1)
      _ = upstream.send(2)
    }
  }

  func test_retry_valueWithNoOutstandingDemand_traps() {
    assertTraps("Retry: the upstream sent a value it was not asked for") {
      let upstream = DetachedUpstream<Int, TestError>()
      upstream.retry(1).subscribe(TestSubscriber<Int, TestError>(initialDemand: .max(1)))
      upstream.attach()
      _ = upstream.send(1)
      _ = upstream.send(2)
    }
  }

  // The extras' retry with a delay counts demand across attempts as Apple's retry does,
  // and traps as it does.
  func test_delayedRetry_valueWithNoOutstandingDemand_traps() {
    assertTraps("retry(_:delay:scheduler:): the upstream sent a value it was not asked for") {
      let upstream = DetachedUpstream<Int, TestError>()
      upstream.retry(1, delay: { _ in 1 }, scheduler: TestScheduler(initialClock: 0))
        .subscribe(TestSubscriber<Int, TestError>(initialDemand: .max(1)))
      upstream.attach()
      _ = upstream.send(1)
      _ = upstream.send(2)
    }
  }

  // Optional.Publisher's output(in:) traps on a range starting below 0 or reaching
  // Int.max - 1, as Apple's does (Just's does not).
  func test_optionalPublisherOutputIn_negativeLowerBound_traps() {
    let start = Int("-1")!
    assertTraps("output(in:): the range's lower bound must not be negative (got -1)") {
      _ = Optional(1).publisher.output(in: start..<3)
    }
  }

  func test_optionalPublisherOutputIn_unboundedRange_traps() {
    assertTraps("output(in:): the range's upper bound must be below Int.max - 1") {
      _ = Optional(1).publisher.output(in: 0...)
    }
  }

  func test_optionalPublisherOutputAt_negativeIndex_traps() {
    let index = Int("-1")!
    assertTraps("output(at:): index must not be negative (got -1)") {
      _ = Optional(1).publisher.output(at: index)
    }
  }

  // A value sent from inside buffer's customError closure (re-entrantly) traps, as Apple's.
  func test_buffer_valueSentFromTheWhenFullClosure_traps() {
    assertTraps("a value arrived while the whenFull error closure was running") {
      let upstream = DetachedUpstream<Int, TestError>()
      upstream.buffer(
        size: 0, prefetch: .keepFull,
        whenFull: .customError {
          _ = upstream.send(2)
          return TestError("full")
        }
      ).subscribe(TestSubscriber<Int, TestError>())
      upstream.attach()
      _ = upstream.send(1)
    }
  }
}
