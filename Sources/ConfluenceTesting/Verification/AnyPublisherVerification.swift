import Confluence

/// A ``PublisherVerification`` with its publisher type erased, so that verifications of
/// different publishers fit in one table — one row per type, e.g. as the arguments of a
/// parameterised Swift Testing test.
///
/// ```swift
/// let rows: [AnyPublisherVerification] = [
///   AnyPublisherVerification(PublisherVerification("Sequence") { (0..<$0).publisher }),
///   AnyPublisherVerification(PublisherVerification("Just", valueCounts: 1...1) { _ in Just(1) }),
/// ]
///
/// @Test(arguments: rows)
/// func keepsTheContract(_ row: AnyPublisherVerification) {
///   row.verify()
/// }
/// ```
public struct AnyPublisherVerification: Sendable, CustomStringConvertible {
  /// The name of the publisher verified.
  public let name: String
  private let box: any ContractCheckable

  /// Erases `verification`.
  public init<Specimen: Publisher>(_ verification: PublisherVerification<Specimen>) {
    name = verification.name
    box = verification
  }

  public var description: String { name }

  /// Checks `rule` and returns the result, reporting nothing.
  public func check(_ rule: ContractRule) -> ContractCheckResult { box.check(rule) }

  /// Checks `rule` and reports a breach to the running test at the caller's line.
  @discardableResult
  public func verify(
    _ rule: ContractRule, fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) -> ContractCheckResult {
    let result = check(rule)
    if result.isFailure {
      reportTestFailure(
        result.description, at: CheckLocation(fileID: fileID, filePath: file, line: line, column: column))
    }
    return result
  }

  /// Checks every rule and reports each breach separately to the running test at the
  /// caller's line; returns every result.
  @discardableResult
  public func verify(
    fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) -> [ContractCheckResult] {
    ContractRule.allCases.map { verify($0, fileID: fileID, file: file, line: line, column: column) }
  }
}

/// What ``AnyPublisherVerification`` keeps of a verification.
internal protocol ContractCheckable: Sendable {
  func check(_ rule: ContractRule) -> ContractCheckResult
}

extension PublisherVerification: ContractCheckable {}
