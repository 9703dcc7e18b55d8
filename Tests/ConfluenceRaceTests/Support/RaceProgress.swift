import Synchronization

/// How far a sending thread has got: how many of its sends have begun and how many have
/// returned. Other threads read it to know which values a subscriber must get: one that
/// subscribed when `begun` was `n` must get the thread's values from `n` on; a completion
/// sent when `returned` was `n` must come after the thread's first `n` values.
final class RaceProgress: Sendable {
  let begun = Atomic<Int>(0)
  let returned = Atomic<Int>(0)

  var begunCount: Int { begun.load(ordering: .sequentiallyConsistent) }
  var returnedCount: Int { returned.load(ordering: .sequentiallyConsistent) }
}

/// A value read on one thread and checked on the test's thread afterwards (a count at a
/// moment, a flag).
final class RaceCell: Sendable {
  private let storage: Atomic<Int>

  init(_ value: Int = 0) {
    storage = Atomic(value)
  }

  var value: Int {
    get { storage.load(ordering: .sequentiallyConsistent) }
    set { storage.store(newValue, ordering: .sequentiallyConsistent) }
  }

  /// Adds one and returns the new value.
  @discardableResult
  func increment() -> Int {
    storage.add(1, ordering: .sequentiallyConsistent).newValue
  }

  /// Subtracts one and returns the new value.
  @discardableResult
  func decrement() -> Int {
    storage.subtract(1, ordering: .sequentiallyConsistent).newValue
  }
}

/// Hands an object whose thread safety a scenario tests (a `Published` model, a shared
/// publisher, a subscription) to the scenario's threads.
///
/// `@unchecked Sendable`: what the scenarios check is precisely that these objects may be
/// used from several threads at once, as their documentation promises.
struct RaceShared<Value>: @unchecked Sendable {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}

extension RaceActor {
  /// Sends this thread's values `0..<count`, with a random pause before each, noting each
  /// as `sending` (for subscribers that learn it from the delivering thread) and counting
  /// them in `progress`.
  func send(_ count: Int, progress: RaceProgress? = nil, _ send: (RaceTag) -> Void) {
    for seq in 0..<count {
      pause()
      let value = tag(seq)
      progress?.begun.store(seq + 1, ordering: .sequentiallyConsistent)
      sending(value) { send(value) }
      progress?.returned.store(seq + 1, ordering: .sequentiallyConsistent)
    }
  }

  /// Pauses a random number of times (0..<`most`), for a thread that waits a little before
  /// it acts.
  func pauses(_ most: Int) {
    for _ in 0..<random.below(most) {
      pause()
    }
  }
}

/// Every value threads `threads` send when each sends `count`.
func raceTags(threads: Range<Int>, count: Int) -> [RaceTag] {
  threads.flatMap { thread in (0..<count).map { RaceTag(thread: thread, seq: $0) } }
}
