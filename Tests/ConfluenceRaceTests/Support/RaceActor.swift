import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One of a scenario's threads, as its body sees it: its index, its random delays, and what
/// it is sending (for subscribers of publishers whose values say nothing, such as
/// `ObservableObjectPublisher`, which learn it from the thread that delivers).
///
/// `@unchecked Sendable`: `random` is used only by the actor's own thread (the pool hands
/// the actor to one thread for good); `steps` and `sending` are atomics.
final class RaceActor: @unchecked Sendable {
  /// The thread's index in the scenario: 0, 1, …
  let index: Int
  /// The thread's random choices, reseeded for every iteration.
  var random = RaceRandom(seed: 0)
  /// How many steps (pauses and marks) the body has taken in this iteration, for the report
  /// of a hang.
  let steps = Atomic<Int>(0)
  /// The value this thread is sending right now (`RaceTag.packed`; 0: none).
  let sending = Atomic<Int>(0)

  init(index: Int) {
    self.index = index
  }

  /// A random small delay (often none), counted as a step.
  func pause() {
    steps.add(1, ordering: .relaxed)
    random.pause()
  }

  /// Counts a step without a delay.
  func mark() {
    steps.add(1, ordering: .relaxed)
  }

  /// This thread's value number `seq`.
  func tag(_ seq: Int) -> RaceTag {
    RaceTag(thread: index, seq: seq)
  }

  /// Runs `send` with `tag` noted as what this thread is sending.
  func sending(_ tag: RaceTag, _ send: () -> Void) {
    sending.store(tag.packed, ordering: .relaxed)
    send()
    sending.store(0, ordering: .relaxed)
  }

  /// The scenario thread running this code, if it is one.
  static var current: RaceActor? {
    guard let pointer = pthread_getspecific(raceActorKey) else { return nil }
    return Unmanaged<RaceActor>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Makes `actor` the current thread's (the pool's threads call this once).
  static func bind(_ actor: RaceActor) {
    pthread_setspecific(raceActorKey, Unmanaged.passUnretained(actor).toOpaque())
  }

  /// The current thread as the event logs name it: `t0`, `t1`, … for a scenario thread,
  /// `main` for the test's thread, `other` for any other (a dispatch queue's).
  static var currentThreadName: String {
    if let actor = current { return "t\(actor.index)" }
    return isMainThread ? "main" : "other"
  }

  /// The current thread's scenario index, or -1.
  static var currentIndex: Int {
    current?.index ?? -1
  }

  private static var isMainThread: Bool {
    Thread.isMainThread
  }
}

/// The key under which each pool thread keeps its `RaceActor` (never deleted).
private let raceActorKey: pthread_key_t = {
  var key = pthread_key_t()
  precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
  return key
}()
