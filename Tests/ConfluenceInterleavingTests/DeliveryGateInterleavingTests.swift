import XCTest

/// Every interleaving, under x86-64's store buffers, of the sink's delivery gate (see
/// ``DeliveryGateModel``): deliveries on one thread or handed between two, a completion, a
/// cancel from another thread or from inside a delivery, with and without the process-wide
/// barrier.
final class DeliveryGateInterleavingTests: XCTestCase {
  func test_values_cancelFromAnotherThread() {
    check(model(first: [1, 2], cancelling: true))
  }

  func test_valuesAndCompletion_cancelFromAnotherThread() {
    check(model(first: [1, 2], completes: true, cancelling: true))
  }

  func test_valuesHandedToAnotherThread_cancelFromAnotherThread() {
    check(model(first: [1], second: [2], cancelling: true))
  }

  func test_valuesHandedToAnotherThread_completion_cancel() {
    check(model(first: [1], second: [2], completes: true, cancelling: true))
  }

  func test_cancelFromInside_andFromAnotherThread() {
    check(model(first: [1, 2], cancelling: true, fromInside: 1))
  }

  func test_cancelFromInside_completion() {
    check(model(first: [1, 2], completes: true, fromInside: 1))
  }

  func test_withoutProcessBarrier_values_cancel() {
    var gate = model(first: [1, 2], completes: true, cancelling: true)
    gate.barrierAvailable = false
    check(gate)
  }

  func test_withoutProcessBarrier_handedOver_cancel() {
    var gate = model(first: [1], second: [2], cancelling: true)
    gate.barrierAvailable = false
    check(gate)
  }

  // Claimed at subscription: the thread the sink's subscription arrived on owns the gate
  // before any value (`Sink.receive(subscription:)`).

  func test_claimedAtSubscription_values_cancelFromAnotherThread() {
    check(model(first: [1, 2], completes: true, cancelling: true, claimed: true))
  }

  func test_claimedAtSubscription_noValue_cancelFromAnotherThread() {
    check(model(first: [], cancelling: true, claimed: true))
  }

  func test_claimedAtSubscription_valuesOnAnotherThreadOnly_cancel() {
    check(model(first: [], second: [1, 2], completes: true, cancelling: true, claimed: true))
  }

  func test_claimedAtSubscription_valuesHandedToAnotherThread_cancel() {
    check(model(first: [1], second: [2], cancelling: true, claimed: true))
  }

  func test_claimedAtSubscription_cancelFromInside_andFromAnotherThread() {
    check(model(first: [1, 2], cancelling: true, fromInside: 1, claimed: true))
  }

  /// The checks bite here too: the gate claimed at subscription has an owner, so a
  /// cross-thread cancel must run the barrier before it reads `depth`.
  func test_claimedAtSubscription_settleWithoutTheBarrier_isCaught() {
    var gate = model(first: [1, 2], cancelling: true, claimed: true)
    gate.omitsBarrier = true
    let result = explore(gate)
    XCTAssertNotNil(result.failure, "\(result)")
  }

  /// The checks bite: a cross-thread cancel that reads `depth` without the process-wide
  /// barrier can miss the owner's plain store and release the closures under a call (or
  /// leave them unreleased).
  func test_settleWithoutTheBarrier_isCaught() {
    var gate = model(first: [1, 2], cancelling: true)
    gate.omitsBarrier = true
    let result = explore(gate)
    XCTAssertNotNil(result.failure, "\(result)")
    print("interleavings: settle without the barrier: \(result.failure?.message ?? "no failure")")
  }

  private func model(
    first: [Int], second: [Int] = [], completes: Bool = false, cancelling: Bool = false, fromInside: Int? = nil,
    claimed: Bool = false
  ) -> DeliveryGateModel {
    var gate = DeliveryGateModel(
      valuesOnFirstThread: first, valuesOnSecondThread: second, completes: completes,
      cancelsFromAnotherThread: cancelling, cancelsFromInside: fromInside)
    gate.claimedAtSubscription = claimed
    return gate
  }
}
