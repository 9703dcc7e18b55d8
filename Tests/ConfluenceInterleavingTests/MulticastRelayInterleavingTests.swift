import XCTest

/// Every interleaving, under x86-64's store buffers, of the multicast relay's delivery count
/// against a cancel from another thread (see ``MulticastRelayModel``).
final class MulticastRelayInterleavingTests: XCTestCase {
  func test_values_cancel() {
    check(MulticastRelayModel(values: 2, completes: false, fenced: false))
  }

  func test_valuesAndCompletion_cancel() {
    check(MulticastRelayModel(values: 2, completes: true, fenced: false))
  }

  func test_values_cancel_withoutProcessBarrier() {
    check(MulticastRelayModel(values: 2, completes: false, fenced: true))
  }

  func test_valuesAndCompletion_cancel_withoutProcessBarrier() {
    check(MulticastRelayModel(values: 2, completes: true, fenced: true))
  }

  /// The checks bite: without the process-wide barrier (and with the deliveries' plain
  /// stores), the store-buffering pair lets the cancel read a stale count — 0 while a call
  /// runs (the downstream released under it), or 1 after the last call ended, whose end in
  /// turn read no request (the downstream never released).
  func test_cancelWithoutTheBarrier_isCaught() {
    for completes in [false, true] {
      var model = MulticastRelayModel(values: 2, completes: completes, fenced: false)
      model.omitsBarrier = true
      let result = explore(model)
      XCTAssertNotNil(result.failure, "\(result)")
      print("interleavings: without the barrier: \(result.failure?.message ?? "no failure")")
    }
  }
}
