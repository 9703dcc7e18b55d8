import Dispatch
import Foundation
import Synchronization

/// The threads a scenario runs on, kept for all its iterations (creating threads for each
/// iteration would cost more than most iterations do): each waits for its body, meets the
/// others at a `RaceBarrier`, runs the body and reports that it returned.
///
/// `@unchecked Sendable`: `bodies` and `barrier` are written by the test thread only while
/// every pool thread waits on its `start` semaphore, and read by a pool thread only after
/// that semaphore was signalled (the semaphore orders the two); the rest is atomics,
/// semaphores and constants.
final class RaceThreadPool: @unchecked Sendable {
  let actors: [RaceActor]
  private let start: [DispatchSemaphore]
  private let done = DispatchSemaphore(value: 0)
  /// Bit `i` set: thread `i` returned from its body in this run.
  private let finished = Atomic<Int>(0)
  private let stopping = Atomic<Bool>(false)
  private var bodies: [(@Sendable (RaceActor) -> Void)?]
  private var barrier = RaceBarrier(parties: 0)
  /// A previous run left a thread that never returned: the pool must not be used again.
  private(set) var isStuck = false

  init(threads: Int) {
    actors = (0..<threads).map(RaceActor.init(index:))
    start = (0..<threads).map { _ in DispatchSemaphore(value: 0) }
    bodies = Array(repeating: nil, count: threads)
    for index in 0..<threads {
      let thread = Thread { [self] in work(index) }
      thread.name = "race-\(index)"
      thread.stackSize = 4 << 20
      thread.start()
    }
  }

  private func work(_ index: Int) {
    let actor = actors[index]
    RaceActor.bind(actor)
    while true {
      start[index].wait()
      if stopping.load(ordering: .acquiring) { return }
      do {
        // Scoped, so that the body (and what it captures) is released before the test
        // thread hears that it returned: the lifetime checks come next.
        let body = bodies[index]
        barrier.arriveAndWait()
        body?(actor)
      }
      finished.bitwiseOr(1 << index, ordering: .releasing)
      done.signal()
    }
  }

  /// Runs `bodies[i]` on thread `i`, all started together, each actor reseeded from
  /// `seed`. Returns the indices of the threads that had not returned by `deadline`
  /// (empty when all returned); after that the pool is stuck.
  func run(_ bodies: [@Sendable (RaceActor) -> Void], seed: UInt64, deadline: DispatchTime) -> [Int] {
    precondition(!isStuck && bodies.count <= actors.count, "RaceThreadPool: not enough threads")
    for index in bodies.indices {
      self.bodies[index] = bodies[index]
      actors[index].random = RaceRandom(seed: RaceRandom.mix(seed &+ UInt64(index) &* 0x1000_0000_01B3))
      actors[index].steps.store(0, ordering: .relaxed)
      actors[index].sending.store(0, ordering: .relaxed)
    }
    finished.store(0, ordering: .relaxed)
    barrier = RaceBarrier(parties: bodies.count)
    for index in bodies.indices {
      start[index].signal()
    }
    var returned = 0
    while returned < bodies.count {
      if done.wait(timeout: deadline) == .timedOut {
        isStuck = true
        let returned = finished.load(ordering: .acquiring)
        return bodies.indices.filter { returned & (1 << $0) == 0 }
      }
      returned += 1
    }
    for index in bodies.indices {
      self.bodies[index] = nil
    }
    return []
  }

  /// Lets the threads end (a stuck thread never does; it is left behind).
  func shutDown() {
    stopping.store(true, ordering: .releasing)
    for semaphore in start {
      semaphore.signal()
    }
  }
}
