import ArgumentParser

/// A server delay in milliseconds, as `--latency` takes it: `N`, or `MIN-MAX` for a delay
/// drawn between the two for each answer.
///
/// ```swift
/// Latency(argument: "10-80")?.range   // 10...80
/// Latency(argument: "20")?.range      // 20...20
/// ```
///
/// Any two numbers parse, so that ``validate(option:)`` can say what is wrong with them
/// (`--latency 50-20`: MIN must be at most MAX) instead of only that the value is invalid.
struct Latency: ExpressibleByArgument, Hashable, Sendable, CustomStringConvertible {
  /// The shortest delay.
  var low: Int
  /// The longest delay.
  var high: Int

  init(_ low: Int, _ high: Int) {
    self.low = low
    self.high = high
  }

  init?(argument: String) {
    let text = argument.trimmingCharacters(in: .whitespaces)
    // A lone negative number parses, for validate(option:) to reject with its reason.
    if text.hasPrefix("-"), let ms = Int(text) {
      self.init(ms, ms)
      return
    }
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
      .map { Int($0.trimmingCharacters(in: .whitespaces)) }
    switch parts.count {
    case 1:
      guard let ms = parts[0] else { return nil }
      self.init(ms, ms)
    case 2:
      guard let low = parts[0], let high = parts[1] else { return nil }
      self.init(low, high)
    default:
      return nil
    }
  }

  var description: String { low == high ? "\(low)" : "\(low)-\(high)" }
  var defaultValueDescription: String { description }

  /// The delays, once valid.
  var range: ClosedRange<Int> { low...max(low, high) }

  /// Throws the reason `option` (`--latency`) holds an unusable value.
  func validate(option: String = "--latency") throws {
    guard low >= 0 else { throw ValidationError("\(option) \(self): a delay cannot be negative.") }
    guard low <= high else {
      throw ValidationError("\(option) \(self): MIN must be at most MAX (MIN-MAX, for example 10-80).")
    }
  }
}
