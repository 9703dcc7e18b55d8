import Confluence

/// Checks a publisher — yours or anyone's — against every rule of the publisher contract,
/// each rule a separate check with its number and text (see ``ContractRule``).
///
/// Give it a name and a factory: given a count, the factory makes a publisher that sends
/// that many values (when asked) and then completes. A hot publisher comes with a
/// ``VerificationFixture`` that says how to make it emit. Then ``verify(fileID:file:line:column:)``
/// runs every rule and reports each broken one to the running test (Swift Testing or
/// XCTest) at the caller's line; ``check(_:)`` runs one rule and reports nothing.
///
/// ```swift
/// @Test(arguments: ContractRule.allCases)
/// func countdownKeepsTheContract(rule: ContractRule) {
///   let verification = PublisherVerification("Countdown", valueCounts: 0...100) { count in
///     Countdown(from: count)
///   }
///   verification.verify(rule)
/// }
/// ```
///
/// The verification subscribes many times, from one thread and (for rule 11) several:
/// every call of the factory must make a fresh publisher, or one that can be subscribed
/// again. It needs no sleeps: a publisher that delivers on a scheduler gets a `settle`
/// closure in its fixture that runs the scheduler.
public struct PublisherVerification<Specimen: Publisher>: Sendable {
  /// What `request(.none)` does to the publisher under verification.
  public enum RequestNoneBehaviour: Sendable {
    /// It traps as API misuse, as Apple's subjects and most of Apple's operators do: the
    /// verification cannot check that in-process and skips the rule.
    case traps
    /// It is accepted and grants nothing, as Apple's `handleEvents`, `buffer` and `catch`
    /// do: the verification checks that nothing arrives because of it.
    case ignored
  }

  /// The name failures quote.
  public let name: String
  /// How many values the factory can be asked for.
  public let valueCounts: ClosedRange<Int>
  /// What `request(.none)` does to this publisher.
  public let requestNone: RequestNoneBehaviour
  /// Rules not to run, each with the reason (a scenario that traps by design, say).
  public let skipping: [ContractRule: String]
  /// One of the two factories is set.
  private let makeFixture: (@Sendable (Int) -> VerificationFixture<Specimen>)?
  private let makePublisher: (@Sendable (Int) -> Specimen)?

  /// Creates a verification of a hot publisher, or one that needs its scheduler run.
  ///
  /// - Parameters:
  ///   - name: What failures call it.
  ///   - valueCounts: The counts the factory accepts (`1...1` for a `Just`-like one).
  ///   - requestNone: Whether it traps on `request(.none)` or ignores it.
  ///   - skipping: Rules not to run, each with the reason; they are reported as skipped.
  ///   - makeFixture: Makes a fresh fixture whose publisher sends `count` values when
  ///     started and asked, then completes.
  public init(
    _ name: String, valueCounts: ClosedRange<Int> = 0...64, requestNone: RequestNoneBehaviour = .traps,
    skipping: [ContractRule: String] = [:],
    makeFixture: @escaping @Sendable (_ count: Int) -> VerificationFixture<Specimen>
  ) {
    self.name = name
    self.skipping = skipping
    self.valueCounts = valueCounts
    self.requestNone = requestNone
    self.makeFixture = makeFixture
    self.makePublisher = nil
  }

  /// Creates a verification of a cold publisher: one that sends its values when
  /// subscribed and asked, on the thread that asks, then completes.
  ///
  /// - Parameters:
  ///   - name: What failures call it.
  ///   - valueCounts: The counts the factory accepts (`1...1` for a `Just`-like one).
  ///   - requestNone: Whether it traps on `request(.none)` or ignores it.
  ///   - skipping: Rules not to run, each with the reason; they are reported as skipped.
  ///   - makePublisher: Makes a fresh publisher that sends `count` values, then completes.
  public init(
    _ name: String, valueCounts: ClosedRange<Int> = 0...64, requestNone: RequestNoneBehaviour = .traps,
    skipping: [ContractRule: String] = [:],
    makePublisher: @escaping @Sendable (_ count: Int) -> Specimen
  ) {
    self.name = name
    self.skipping = skipping
    self.valueCounts = valueCounts
    self.requestNone = requestNone
    self.makeFixture = nil
    self.makePublisher = makePublisher
  }

  // MARK: Running

  /// Checks every rule and reports each broken one, separately, to the running test at
  /// the caller's line; returns every result (skipped rules included).
  @discardableResult
  public func verify(
    fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) -> [ContractCheckResult] {
    ContractRule.allCases.map { verify($0, fileID: fileID, file: file, line: line, column: column) }
  }

  /// Checks `rule` and, if the publisher breaks it, reports that to the running test at
  /// the caller's line.
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

  /// Checks `rule` and returns the result, reporting nothing.
  public func check(_ rule: ContractRule) -> ContractCheckResult {
    if let reason = skipping[rule] {
      return ContractCheckResult(rule: rule, publisherName: name, outcome: .skipped(reason))
    }
    let outcome: ContractCheckResult.Outcome
    switch rule {
    case .subscriptionFirst: outcome = checkSubscriptionFirst()
    case .neverMoreThanDemanded: outcome = checkNeverMoreThanDemanded()
    case .demandAccumulates: outcome = checkDemandAccumulates()
    case .demandSaturates: outcome = checkDemandSaturates()
    case .atMostOneCompletion: outcome = checkAtMostOneCompletion()
    case .nothingAfterCompletion: outcome = checkNothingAfterCompletion()
    case .nothingAfterCancel: outcome = checkNothingAfterCancel()
    case .cancelIsIdempotent: outcome = checkCancelIsIdempotent()
    case .cancelInsideReceive: outcome = checkCancelInsideReceive()
    case .reentrantRequest: outcome = checkReentrantRequest()
    case .requestsFromOtherThreads: outcome = checkRequestsFromOtherThreads()
    case .releasesSubscriberAfterCompletion: outcome = checkReleasesSubscriber(cancelling: false)
    case .releasesSubscriberAfterCancel: outcome = checkReleasesSubscriber(cancelling: true)
    case .requestNoneGrantsNothing: outcome = checkRequestNone()
    }
    return ContractCheckResult(rule: rule, publisherName: name, outcome: outcome)
  }

  // MARK: Support for the checks

  /// The count to ask the factory for: `preferred` within ``valueCounts``, or nil when the
  /// factory cannot make `minimum` values (the rule cannot show with fewer).
  internal func count(preferred: Int, minimum: Int) -> Int? {
    guard valueCounts.upperBound >= minimum else { return nil }
    return Swift.min(valueCounts.upperBound, Swift.max(valueCounts.lowerBound, preferred, minimum))
  }

  internal func skipped(needing minimum: Int) -> ContractCheckResult.Outcome {
    .skipped("it needs a publisher of at least \(minimum) values; the factory makes \(valueCounts)")
  }

  internal func fixture(_ count: Int) -> VerificationFixture<Specimen> {
    if let makeFixture { return makeFixture(count) }
    guard let makePublisher else { confluencePreconditionFailure("PublisherVerification has no factory") }
    return VerificationFixture(publisher: makePublisher(count))
  }

  internal typealias Probe = VerificationProbe<Specimen.Output, Specimen.Failure>
}
