import XCTest

/// Every interleaving of `SequenceSubscription`'s emitting loop (its lock-free check of
/// `isCancelled`) with requests from other threads, re-entrant demand and a cancel: see
/// ``SequenceEmissionModel`` for what is modelled and checked, and for the mutation that
/// makes it fail.
final class SequenceEmissionInterleavingTests: XCTestCase {
  func test_twoRequesters() {
    check(SequenceEmissionModel(values: [1, 2, 3], requests: [1, 2], returns: [:], cancels: false))
  }

  func test_twoRequesters_reentrantDemand() {
    check(SequenceEmissionModel(values: [1, 2, 3], requests: [1, 1], returns: [1: 1], cancels: false))
  }

  func test_oneRequester_cancel() {
    check(SequenceEmissionModel(values: [1, 2, 3], requests: [3], returns: [:], cancels: true))
  }

  func test_twoRequesters_cancel() {
    check(SequenceEmissionModel(values: [1, 2, 3], requests: [1, 2], returns: [:], cancels: true))
  }

  func test_twoRequesters_reentrantDemand_cancel() {
    check(SequenceEmissionModel(values: [1, 2, 3], requests: [1, 1], returns: [1: 1], cancels: true))
  }

  /// The mutation ``SequenceEmissionModel/checksOncePerEmission`` (the cancel checked once
  /// per emission, as a hoisted load of a plain flag would be) is caught: a second value
  /// starts after `cancel()` returned.
  func test_cancelCheckedOncePerEmission_isCaught() {
    var model = SequenceEmissionModel(values: [1, 2, 3], requests: [3], returns: [:], cancels: true)
    model.checksOncePerEmission = true
    checkCaught(model, "one cancel check per emission", expected: "started after cancel() returned")
  }
}
