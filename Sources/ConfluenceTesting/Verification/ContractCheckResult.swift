/// The outcome of checking one ``ContractRule`` against one publisher.
///
/// ```swift
/// let result = verification.check(.neverMoreThanDemanded)
/// if case .failed(let problems) = result.outcome { print(problems) }
/// ```
public struct ContractCheckResult: Sendable, CustomStringConvertible {
  /// How a check ended.
  public enum Outcome: Sendable, Equatable {
    /// The publisher kept the rule.
    case passed
    /// The publisher broke the rule; what was seen, one line each.
    case failed([String])
    /// The rule could not be checked for this publisher, and why (e.g. it cannot send
    /// enough values to show the rule).
    case skipped(String)
  }

  /// The rule checked.
  public let rule: ContractRule
  /// The name the verification was given.
  public let publisherName: String
  /// How the check ended.
  public let outcome: Outcome

  /// Creates a result.
  public init(rule: ContractRule, publisherName: String, outcome: Outcome) {
    self.rule = rule
    self.publisherName = publisherName
    self.outcome = outcome
  }

  /// Whether the publisher broke the rule.
  public var isFailure: Bool {
    if case .failed = outcome { return true }
    return false
  }

  public var description: String {
    switch outcome {
    case .passed:
      return "\(publisherName): \(rule): passed"
    case .skipped(let reason):
      return "\(publisherName): \(rule): skipped (\(reason))"
    case .failed(let problems):
      return "\(publisherName) breaks \(rule) — " + problems.joined(separator: "; ")
    }
  }
}
