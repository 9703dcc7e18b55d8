import Confluence
import ConfluenceTesting
import Testing

/// PublisherVerification against hand-written publishers: the flawless ones keep every
/// rule, and each flaw makes its rule's check fail — reported to Swift Testing as an issue
/// at the line of the `verify` call, which `withKnownIssue` captures and checks.
@Suite struct PublisherVerificationTests {
  private func countdown(_ flaw: FlawedCountdown.Flaw?) -> PublisherVerification<FlawedCountdown> {
    PublisherVerification("FlawedCountdown(\(flaw.map(\.rawValue) ?? "none"))", requestNone: .ignored) { count in
      FlawedCountdown(count: count, flaw: flaw)
    }
  }

  private func relay(_ flaw: FlawedRelay.Flaw?) -> PublisherVerification<FlawedRelay> {
    PublisherVerification("FlawedRelay(\(flaw.map(\.rawValue) ?? "none"))", requestNone: .ignored) { count in
      let relay = FlawedRelay(flaw: flaw)
      return VerificationFixture(
        publisher: relay,
        start: {
          for value in 0..<count { relay.send(value) }
          relay.finish()
        })
    }
  }

  @Test func flawlessCountdown_keepsEveryRule() {
    let results = countdown(nil).verify()
    #expect(results.map(\.rule) == ContractRule.allCases)
    #expect(results.allSatisfy { $0.outcome == .passed }, "\(results.filter { $0.outcome != .passed })")
  }

  @Test func flawlessRelay_keepsEveryRule() {
    let results = relay(nil).verify()
    #expect(results.allSatisfy { $0.outcome == .passed }, "\(results.filter { $0.outcome != .passed })")
  }

  @Test(arguments: FlawedCountdown.Flaw.allCases)
  func eachCountdownFlaw_failsItsRule_reportedAtTheCallersLine(flaw: FlawedCountdown.Flaw) {
    let verification = countdown(flaw)
    let rule = flaw.breaks
    let line = #line + 2
    withKnownIssue {
      verification.verify(rule)
    } matching: { issue in
      issue.sourceLocation?.line == line && issue.sourceLocation?.fileName == "PublisherVerificationTests.swift"
        && issue.comments.contains { $0.rawValue.contains("breaks Rule \(rule.number): \(rule.text)") }
    }
  }

  @Test(arguments: FlawedRelay.Flaw.allCases)
  func eachRelayFlaw_failsItsRules(flaw: FlawedRelay.Flaw) {
    let verification = relay(flaw)
    for rule in flaw.breaks {
      withKnownIssue {
        verification.verify(rule)
      } matching: { issue in
        issue.comments.contains { $0.rawValue.contains("breaks Rule \(rule.number)") }
      }
    }
  }

  /// Every rule fails for at least one flaw: the table of flaws covers the contract.
  @Test func theFlawsCoverEveryRule() {
    var broken = Set(FlawedCountdown.Flaw.allCases.map(\.breaks))
    for flaw in FlawedRelay.Flaw.allCases { broken.formUnion(flaw.breaks) }
    #expect(broken == Set(ContractRule.allCases))
  }

  /// A flaw fails its own rule's check and, where it is not the cause of a second rule's
  /// failure too, leaves the others alone: the checks are separate.
  @Test func aFlawThatBreaksOnlyRequestNone_failsOnlyThatRule() {
    let verification = countdown(.treatsRequestNoneAsOne)
    let results = ContractRule.allCases.map { verification.check($0) }.filter(\.isFailure)
    #expect(results.map(\.rule) == [.requestNoneGrantsNothing])
  }
}

extension PublisherVerificationTests {
  @Test func aRuleThatCannotShow_isSkipped_notPassed() {
    let just = PublisherVerification("Just", valueCounts: 1...1) { _ in Just(1) }
    #expect(
      just.check(.demandAccumulates).outcome
        == .skipped(
          "it needs a publisher of at least 3 values; the factory makes 1...1"))
    #expect(
      just.check(.requestNoneGrantsNothing).outcome
        == .skipped(
          "it traps on request(.none) as API misuse; a trap can only be checked in a child process"))
  }
}
