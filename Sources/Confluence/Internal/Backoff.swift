#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Paces a thread that waits for another thread to finish a short piece of work it cannot
/// be told about directly (a subject's sender waiting for another sender's delivery to one
/// subscriber): at first it gives the processor up at once, so that the other thread can
/// run on a busy machine, then it sleeps for a little longer each round (a microsecond more
/// each time), up to a millisecond, so that a long wait — a subscriber that blocks in
/// `receive(_:)` — costs a waiting thread about a thousand wake-ups a second at most.
@usableFromInline
internal struct Backoff {
  /// How many rounds have passed.
  @usableFromInline
  internal var rounds = 0

  @inlinable
  internal init() {}

  /// Waits for one round.
  @inlinable
  internal mutating func pause() {
    rounds += 1
    if rounds <= 16 {
      sched_yield()
      return
    }
    let microseconds = min(rounds - 16, 1000)
    var interval = timespec(tv_sec: 0, tv_nsec: microseconds * 1000)
    _ = nanosleep(&interval, nil)
  }
}
