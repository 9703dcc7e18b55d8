import Foundation

/// How long the scenarios run, read once from the environment:
///
/// - `CONFLUENCE_RACE_ITERATIONS`: iterations per scenario (default 1,000; a scenario may
///   weigh itself lighter or heavier).
/// - `CONFLUENCE_RACE_SOAK_SECONDS`: run each scenario for this many seconds instead, however
///   many iterations that takes (`Scripts/race-soak` sets it).
/// - `CONFLUENCE_RACE_SEED`: the base seed (decimal or `0x` hex) of every random choice;
///   by default a new one each run, printed with any failure.
/// - `CONFLUENCE_RACE_DEADLINE`: seconds an iteration's threads may take before it counts
///   as a hang (default 20).
struct RaceConfiguration: Sendable {
  let iterations: Int
  let soakSeconds: Double?
  let seed: UInt64
  let seedWasGiven: Bool
  let deadline: Double

  static let defaultIterations = 1_000

  static let current: RaceConfiguration = {
    let environment = ProcessInfo.processInfo.environment
    let given = environment["CONFLUENCE_RACE_SEED"].flatMap(parseSeed)
    return RaceConfiguration(
      iterations: environment["CONFLUENCE_RACE_ITERATIONS"].flatMap { Int($0) }.map { max($0, 1) }
        ?? defaultIterations,
      soakSeconds: environment["CONFLUENCE_RACE_SOAK_SECONDS"].flatMap { Double($0) }.flatMap { $0 > 0 ? $0 : nil },
      seed: given ?? UInt64.random(in: 1...UInt64.max),
      seedWasGiven: given != nil,
      deadline: environment["CONFLUENCE_RACE_DEADLINE"].flatMap { Double($0) } ?? 20)
  }()

  /// Iterations for a scenario of the given weight.
  func iterations(weight: Double) -> Int {
    max(1, Int((Double(iterations) * weight).rounded()))
  }

  private static func parseSeed(_ text: String) -> UInt64? {
    let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
    if trimmed.hasPrefix("0x") { return UInt64(trimmed.dropFirst(2), radix: 16) }
    return UInt64(trimmed)
  }
}
