import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A spin barrier: the scenario's threads wait here until all have arrived, then start at
/// the same moment (a semaphore would wake them one by one, and the first would often be
/// done before the last had started). On a machine with fewer cores than threads a spinning
/// thread yields its core now and then, so that the others can arrive.
final class RaceBarrier: Sendable {
  private let parties: Int
  private let arrived = Atomic<Int>(0)

  init(parties: Int) {
    self.parties = parties
  }

  func arriveAndWait() {
    arrived.add(1, ordering: .acquiringAndReleasing)
    var spins = 0
    while arrived.load(ordering: .acquiring) < parties {
      spins += 1
      if spins % 64 == 0 { sched_yield() }
    }
  }
}
