import Foundation

extension DemoServer {
  /// A fault the server can inject instead of a normal answer.
  public enum Fault: String, CaseIterable, Sendable, Codable {
    /// `500 Internal Server Error`.
    case serverError = "500"
    /// The connection is closed without an answer.
    case drop
    /// `200 OK` with a body that is not valid JSON.
    case malformed
    /// No answer at all, until the client gives up (a time-out).
    case hang
  }

  /// How the demo server answers.
  public struct Configuration: Sendable {
    /// The address to listen on; loopback.
    public var host: String = "127.0.0.1"
    /// The port; 0 picks a free one.
    public var port: Int = 0
    /// The delay before each answer, in milliseconds, drawn from this range.
    public var latency: ClosedRange<Int> = 0...0
    /// The share of requests, from 0 to 1, answered with one of `faults` instead.
    public var failRate: Double = 0
    /// The faults `failRate` draws from.
    public var faults: [Fault] = [.serverError, .drop, .malformed]
    /// The share of the live snapshot's moves, from 0 to 1, that drop an open event
    /// stream in the middle of an event; `failRate` when `nil`.
    public var streamDropRate: Double? = nil
    /// Items that always fail, with the fault they fail with.
    public var failingItems: [Int: Fault] = [:]
    /// Whether the snapshot moves: scores and comment counts drift, stories climb and fall,
    /// and `updates` lists what changed.
    public var live: Bool = false
    /// Seconds between two moves of a live snapshot.
    public var tick: Double = 2
    /// The seed of the random draws (faults, latency, live moves); random if `nil`.
    public var seed: UInt64? = nil
    /// Whether every `time` is moved so that the snapshot's newest item is from now: the
    /// ages then read as they did on the day of the capture.
    public var rebaseTime: Bool = false

    /// The defaults: no latency, no faults, a still snapshot with its real times.
    public init() {}
  }
}

/// SplitMix64: small, fast and seedable, for reproducible fault and drift sequences.
struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
