import CConfluenceSystem
import Foundation
import XCTest

@testable import Confluence

/// `Lock` under contention, on real threads: nothing lost, never two holders, sleepers
/// woken, and a lock biased to one thread taken over by others. (The protocol itself is
/// checked in every interleaving by `LockModel`; these run the real futex calls and the
/// process-wide barrier.)
final class LockContentionTests: XCTestCase {
  /// A counter that only a lock guards, with a check that no two threads are inside: the
  /// section's body, for ``Guarded`` and ``GuardedBiased``.
  private class Counted: @unchecked Sendable {
    var count = 0
    var inside = false
    var overlaps = 0

    /// The critical section; call it with the lock held.
    final func countInside() {
      if inside { overlaps += 1 }
      inside = true
      count += 1
      inside = false
    }
  }

  /// A counter guarded by a ``Lock``.
  private final class Guarded: Counted, @unchecked Sendable {
    let lock = Lock()

    func increment() { lock.withLock { countInside() } }
  }

  /// A counter guarded by a lock biased to the thread that made it.
  private final class GuardedBiased: Counted, @unchecked Sendable {
    let lock: BiasedLock

    override init() {
      lock = BiasedLock()
    }

    func increment() { lock.withLock { countInside() } }
  }

  #if os(Linux) && !CONFLUENCE_THREAD_SANITIZER && !CONFLUENCE_LOCKED_FAST_PATHS
    /// The futex calls are handed the word's own address, not a copy's: a store through it is
    /// what the atomic reads, and two borrows give the same address.
    func test_theFutexCallsGetTheWordItself() {
      let guarded = Guarded()
      var first: UnsafeMutablePointer<UInt32>?
      guarded.lock.withWordAddress { first = $0 }
      guarded.lock.withWordAddress { XCTAssertEqual($0, first) }
      guarded.lock.withWordAddress { $0.pointee = 7 }
      XCTAssertEqual(guarded.lock.word.load(ordering: .relaxed), 7)
      guarded.lock.withWordAddress { $0.pointee = 0 }
      XCTAssertEqual(guarded.lock.word.load(ordering: .relaxed), 0)
    }
  #endif

  func test_manyThreadsIncrementing_loseNothing_andNeverOverlap() {
    let guarded = Guarded()
    let threads = 6
    let perThread = 100_000
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<perThread { guarded.increment() }
    }
    XCTAssertEqual(guarded.count, threads * perThread)
    XCTAssertEqual(guarded.overlaps, 0)
  }

  func test_threadsThatSleepOnTheLock_areWokenWhenItIsGivenBack() throws {
    let guarded = Guarded()
    let waiters = 4
    let acquired = guarded.lock.acquire()
    XCTAssertEqual(acquired, .taken, "an XCTest process has several threads, so the lock is taken")
    let done = DispatchGroup()
    for _ in 0..<waiters {
      Thread.detachNewThread {
        done.enter()
        guarded.increment()
        done.leave()
      }
    }
    // Every waiter spins, then counts itself as a sleeper and sleeps on the futex.
    #if os(Linux) && !CONFLUENCE_THREAD_SANITIZER && !CONFLUENCE_LOCKED_FAST_PATHS
      let deadline = Date().addingTimeInterval(10)
      while guarded.lock.sleepers.load(ordering: .relaxed) < waiters, Date() < deadline {
        usleep(1_000)
      }
      XCTAssertEqual(guarded.lock.sleepers.load(ordering: .relaxed), UInt32(waiters), "every waiter sleeps")
      // Counted, each still runs the process-wide barrier and tries once more before it
      // sleeps: give them the time to be asleep in `futex_wait`, so that only a wake-up lets
      // them in (a release that wakes nobody fails this test).
      usleep(200_000)
    #else
      usleep(50_000)
    #endif
    XCTAssertEqual(guarded.count, 0, "nobody got in while the lock was held")
    guarded.lock.release(acquired)
    // `enter()` runs on the new threads: wait until all four have entered or finished.
    let entered = Date().addingTimeInterval(10)
    while guarded.count < waiters, Date() < entered { usleep(1_000) }
    XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "every sleeper was woken")
    XCTAssertEqual(guarded.count, waiters)
    XCTAssertEqual(guarded.overlaps, 0)
    #if os(Linux) && !CONFLUENCE_THREAD_SANITIZER && !CONFLUENCE_LOCKED_FAST_PATHS
      XCTAssertEqual(guarded.lock.sleepers.load(ordering: .relaxed), 0)
    #endif
  }

  func test_aBiasedLock_manyThreadsIncrementing_loseNothing_andNeverOverlap() throws {
    let threads = 6
    let perThread = 100_000
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var made: GuardedBiased?
    // Made on a thread of its own, which then takes it as the others do: its sections run
    // by the bias until the first other thread revokes it.
    Thread.detachNewThread {
      let guarded = GuardedBiased()
      made = guarded
      DispatchQueue.concurrentPerform(iterations: threads) { _ in
        for _ in 0..<perThread { guarded.increment() }
      }
      done.signal()
    }
    XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
    let guarded = try XCTUnwrap(made)
    XCTAssertEqual(guarded.count, threads * perThread)
    XCTAssertEqual(guarded.overlaps, 0)
  }

  #if os(Linux) && !CONFLUENCE_THREAD_SANITIZER && !CONFLUENCE_LOCKED_FAST_PATHS
    /// A biased lock names the thread that made it, until another thread takes the lock.
    func test_aBiasedLock_namesItsThread_untilAnotherThreadTakesIt() {
      let biased = GuardedBiased()
      let expected: UInt = ProcessBarrier.isAvailable ? UInt(confluence_thread_token()) : 0
      XCTAssertEqual(biased.lock.owner.load(ordering: .relaxed), expected)
      XCTAssertNotEqual(expected, 0, "membarrier is available on the machines CI runs on")
      // The owner's sections leave the bias in place and take no word.
      for _ in 0..<3 { biased.increment() }
      XCTAssertEqual(biased.lock.owner.load(ordering: .relaxed), expected)
      XCTAssertEqual(biased.lock.base.word.load(ordering: .relaxed), 0)
      XCTAssertEqual(biased.lock.inside.load(ordering: .relaxed), 0)
      let finished = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        biased.increment()
        finished.signal()
      }
      XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
      XCTAssertEqual(biased.lock.owner.load(ordering: .relaxed), 0, "another thread took it: the bias is gone")
      // The thread that made it now takes the word, as any other thread does.
      let hold = biased.lock.acquire()
      XCTAssertEqual(hold, .taken)
      XCTAssertEqual(biased.lock.base.word.load(ordering: .relaxed), 1)
      biased.lock.release(hold)
      XCTAssertEqual(biased.lock.base.word.load(ordering: .relaxed), 0)
      XCTAssertEqual(biased.count, 4)
    }

    /// Revoking while the owner runs sections, thousands of times: each round a new lock
    /// biased to one thread, which increments it in a loop while a second thread starts
    /// incrementing it after a random number of the owner's increments, so that the
    /// revocation lands before, inside and between the owner's sections.
    func test_revokingTheBiasWhileTheOwnerRunsSections_losesNothing() {
      let rounds = 3_000
      let perThread = 200
      let ownerTurn = DispatchSemaphore(value: 0)
      let otherTurn = DispatchSemaphore(value: 0)
      let roundDone = DispatchSemaphore(value: 0)
      // Handed between the threads by the semaphores.
      final class Round: @unchecked Sendable {
        var guarded: GuardedBiased?
        var startAfter = 0
      }
      let round = Round()
      let owner = Thread {
        for _ in 0..<rounds {
          ownerTurn.wait()
          let guarded = GuardedBiased()
          round.guarded = guarded
          for index in 0..<perThread {
            if index == round.startAfter { otherTurn.signal() }
            guarded.increment()
          }
          if round.startAfter >= perThread { otherTurn.signal() }
          roundDone.signal()
        }
      }
      let other = Thread {
        for _ in 0..<rounds {
          otherTurn.wait()
          let guarded = round.guarded!
          for _ in 0..<perThread { guarded.increment() }
          roundDone.signal()
        }
      }
      owner.start()
      other.start()
      var lost = 0
      var overlaps = 0
      var stillBiased = 0
      for _ in 0..<rounds {
        round.startAfter = Int.random(in: 0...perThread)
        ownerTurn.signal()
        XCTAssertEqual(roundDone.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(roundDone.wait(timeout: .now() + 30), .success)
        let guarded = round.guarded!
        if guarded.count != 2 * perThread { lost += 1 }
        overlaps += guarded.overlaps
        if guarded.lock.owner.load(ordering: .relaxed) != 0 { stillBiased += 1 }
      }
      XCTAssertEqual(lost, 0, "rounds that lost an increment")
      XCTAssertEqual(overlaps, 0, "sections that overlapped")
      XCTAssertEqual(stillBiased, 0, "locks the second thread took and left biased")
    }
  #endif
}
