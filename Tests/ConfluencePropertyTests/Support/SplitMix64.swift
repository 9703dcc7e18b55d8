/// A small, fast, seedable random number generator (SplitMix64), so that every generated
/// pipeline can be rebuilt exactly from the seed a failure prints.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A value in `range`.
  mutating func int(_ range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &self)
  }

  /// `true` with probability `percent` / 100.
  mutating func chance(_ percent: Int) -> Bool {
    int(1...100) <= percent
  }

  /// One of `elements`.
  mutating func pick<T>(_ elements: [T]) -> T {
    elements[int(0...(elements.count - 1))]
  }
}
