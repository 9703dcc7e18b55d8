import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The scenarios' random choices: SplitMix64, seeded per iteration and per thread, so that
/// a seed replays the same choices (the operating system still schedules the threads its own
/// way, so a seed makes a failure likely to recur, not certain).
struct RaceRandom {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  /// SplitMix64's output function: a well-mixed 64-bit value for any input.
  static func mix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return RaceRandom.mix(state)
  }

  /// A number in `0..<bound` (`bound` > 0).
  mutating func below(_ bound: Int) -> Int {
    Int(next() % UInt64(bound))
  }

  /// `true` with probability `percent` / 100.
  mutating func chance(_ percent: Int) -> Bool {
    below(100) < percent
  }

  /// A small random delay: often none, often a short spin, sometimes a longer spin or a
  /// yield of the processor (so that a thread is also caught in the middle of a step by
  /// another thread running on the same core).
  mutating func pause() {
    let roll = below(100)
    if roll < 40 { return }
    if roll < 70 {
      RaceRandom.spin(below(64))
    } else if roll < 88 {
      RaceRandom.spin(below(1_024))
    } else if roll < 96 {
      sched_yield()
    } else {
      RaceRandom.spin(below(8_192))
    }
  }

  /// Busy work for `count` rounds that the optimiser cannot remove.
  static func spin(_ count: Int) {
    var x = UInt64(truncatingIfNeeded: count) | 1
    for _ in 0..<count {
      x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    }
    if x == 0 { spinSink.store(x, ordering: .relaxed) }
  }
}

/// Where `RaceRandom.spin` leaves its result (never, in practice; the store keeps the loop).
private let spinSink = Atomic<UInt64>(0)

/// Random delays for code that runs on whichever thread delivers (a subscriber's
/// `receive(_:)`): the draws come from one atomic counter, so they need no thread of
/// their own and stay safe if deliveries overlap (which the checks then report).
final class SharedRaceRandom: Sendable {
  private let seed: UInt64
  private let counter = Atomic<UInt64>(0)
  /// How often a delivery pauses, in percent.
  let percent: Int
  /// How many random pauses make up one delivery's pause (longer deliveries).
  let rounds: Int

  init(seed: UInt64, percent: Int, rounds: Int = 1) {
    self.seed = seed
    self.percent = percent
    self.rounds = rounds
  }

  func pause() {
    guard percent > 0 else { return }
    var random = RaceRandom(seed: seed ^ counter.wrappingAdd(1, ordering: .relaxed).newValue &* 0x2545_F491_4F6C_DD1D)
    guard random.chance(percent) else { return }
    for _ in 0..<rounds {
      random.pause()
    }
  }
}
