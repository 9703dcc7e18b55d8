import XCTest

/// Every interleaving, under x86-64's store buffers, of `Lock`'s futex protocol on Linux (see
/// ``LockModel``): threads contending, sleeping and being woken, with and without the
/// process-wide barrier that lets `release(_:)` give the lock back with a plain store, and
/// with the lock biased to the thread that made it, whose sections then take no atomic
/// instruction until another thread revokes the bias.
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

  func test_biased_twoThreads_twoRoundsEach() {
    var lock = LockModel(threads: 2, rounds: 2)
    lock.biased = true
    check(lock)
  }

  func test_biased_threeThreads_oneRoundEach() {
    var lock = LockModel(threads: 3, rounds: 1)
    lock.biased = true
    check(lock)
  }

  func test_biased_twoThreads_threeRoundsEach() {
    var lock = LockModel(threads: 2, rounds: 3)
    lock.biased = true
    check(lock)
  }

  func test_biased_threeThreads_twoRoundsEach() {
    var lock = LockModel(threads: 3, rounds: 2)
    lock.biased = true
    check(lock)
  }

  /// The checks bite: a revoking thread that skips the barrier can read `inside` as 0 while
  /// thread 0's store of 1 waits in its buffer and its load of `owner` still sees the bias;
  /// the first failure the search meets is the revoker's section reading the counter before
  /// thread 0's increment, still in its buffer, reached memory.
  func test_revokingWithoutTheBarrier_isCaught() {
    var lock = LockModel(threads: 2, rounds: 1)
    lock.biased = true
    lock.revokesWithoutBarrier = true
    checkCaught(lock, "the revoking thread skips the barrier", expected: "an increment was lost")
  }

  /// The checks bite: thread 0 entering on its first look at `owner` can enter after the
  /// revoking thread read `inside` as 0 (found, as above, as a lost increment).
  func test_ownerWithoutTheSecondCheck_isCaught() {
    var lock = LockModel(threads: 2, rounds: 1)
    lock.biased = true
    lock.ownerSkipsSecondCheck = true
    checkCaught(lock, "the owner does not read owner again", expected: "an increment was lost")
  }
}
