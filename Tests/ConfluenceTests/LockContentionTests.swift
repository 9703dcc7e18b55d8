import Foundation
import XCTest

@testable import Confluence

/// `Lock` under contention, on real threads: nothing lost, never two holders, and sleepers
/// woken. (The protocol itself is checked in every interleaving by `LockModel`; these run the
/// real futex calls and the process-wide barrier.)
final class LockContentionTests: XCTestCase {
  /// A counter that only the lock guards, with a check that no two threads are inside.
  private final class Guarded: @unchecked Sendable {
    let lock = Lock()
    var count = 0
    var inside = false
    var overlaps = 0

    func increment() {
      lock.withLock {
        if inside { overlaps += 1 }
        inside = true
        count += 1
        inside = false
      }
    }
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
    XCTAssertTrue(acquired, "an XCTest process has several threads, so the lock is taken")
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
}
