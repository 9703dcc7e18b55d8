import XCTest

/// Every interleaving, under x86-64's store buffers, of `Lock`'s futex protocol on Linux (see
/// ``LockModel``): threads contending, sleeping and being woken, with and without the
/// process-wide barrier that lets `release(_:)` give the lock back with a plain store.
final class LockInterleavingTests: XCTestCase {
  func test_twoThreads_twoRoundsEach() {
    check(LockModel(threads: 2, rounds: 2))
  }

  func test_threeThreads_oneRoundEach() {
    check(LockModel(threads: 3, rounds: 1))
  }

  func test_threeThreads_twoRoundsEach() {
    check(LockModel(threads: 3, rounds: 2))
  }

  func test_withoutProcessBarrier_twoThreads_twoRoundsEach() {
    var lock = LockModel(threads: 2, rounds: 2)
    lock.barrierAvailable = false
    check(lock)
  }

  func test_withoutProcessBarrier_threeThreads_oneRoundEach() {
    var lock = LockModel(threads: 3, rounds: 1)
    lock.barrierAvailable = false
    check(lock)
  }

  /// The checks bite: a sleeper that skips the barrier can miss the holder's buffered store
  /// of 0 while the holder misses its count in `sleepers`, and sleeps for good.
  func test_sleeperWithoutTheBarrier_isCaught() {
    var lock = LockModel(threads: 2, rounds: 1)
    lock.omitsBarrier = true
    checkCaught(lock, "the sleeper skips the barrier", expected: "deadlock")
  }

  /// The checks bite: without the barrier, a `release` with no full fence between its store
  /// and its load of `sleepers` can miss a sleeper that missed the store.
  func test_releaseWithoutFenceOrBarrier_isCaught() {
    var lock = LockModel(threads: 2, rounds: 1)
    lock.barrierAvailable = false
    lock.omitsFence = true
    checkCaught(lock, "release skips the fence without the barrier", expected: "deadlock")
  }

  /// The checks bite: a `release` that never wakes anyone leaves a sleeper asleep.
  func test_releaseThatNeverWakes_isCaught() {
    var lock = LockModel(threads: 2, rounds: 1)
    lock.neverWakes = true
    checkCaught(lock, "release never wakes", expected: "deadlock")
  }
}
