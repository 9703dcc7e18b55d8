import XCTest

/// Every interleaving of `FilteringSubscription`'s value path (its lock-free read of
/// `phase`) with its subscription, request, completion, own termination and cancel: see
/// ``FilteringPhaseModel`` for what is modelled and checked, and for the mutation that
/// makes it fail.
final class FilteringPhaseInterleavingTests: XCTestCase {
  func test_strict_oneValue_cancel() {
    check(FilteringPhaseModel(edges: .strict, values: [1], finishesAt: nil, laterDemand: nil, cancels: true))
  }

  func test_strict_noCancel() {
    check(FilteringPhaseModel(edges: .strict, values: [1, 2, 3], finishesAt: nil, laterDemand: 2, cancels: false))
  }

  func test_strict_cancel() {
    check(FilteringPhaseModel(edges: .strict, values: [1, 2, 3], finishesAt: nil, laterDemand: 2, cancels: true))
  }

  func test_quiet_earlyCancelForgotten() {
    check(FilteringPhaseModel(edges: .quiet, values: [1, 2, 3], finishesAt: nil, laterDemand: 2, cancels: true))
  }

  func test_strict_ownTermination_noCancel() {
    check(FilteringPhaseModel(edges: .strict, values: [1, 2, 3], finishesAt: 2, laterDemand: 2, cancels: false))
  }

  func test_strict_ownTermination_cancel() {
    check(FilteringPhaseModel(edges: .strict, values: [1, 2, 3], finishesAt: 2, laterDemand: 2, cancels: true))
  }

  /// The mutation ``FilteringPhaseModel/publishesLiveLate`` (`live` stored after
  /// downstream's first request instead of inside the accepting section) is caught: a value
  /// that request makes upstream send at once finds the phase still `awaiting`.
  func test_liveStoredAfterDownstreamsRequest_isCaught() {
    var strict = FilteringPhaseModel(
      edges: .strict, values: [1, 2, 3], finishesAt: nil, laterDemand: 2, cancels: false)
    strict.publishesLiveLate = true
    checkCaught(strict, "live stored late", expected: "before its subscription")
    var quiet = FilteringPhaseModel(edges: .quiet, values: [1, 2, 3], finishesAt: nil, laterDemand: 2, cancels: true)
    quiet.publishesLiveLate = true
    checkCaught(quiet, "live stored late", expected: "not a prefix")
  }
}
