import XCTest

/// Every interleaving of `SchedulerHopSubscription`'s lock-free hand-over (upstream's
/// `isTakingEvents`, the actions' `deliveries` count and the owner's `isCancelled` check)
/// with actions running concurrently and a cancel: see ``SchedulerHopModel`` for what is
/// modelled and checked, and for the mutation that makes it fail.
final class SchedulerHopInterleavingTests: XCTestCase {
  func test_twoValuesAndCompletion() {
    check(SchedulerHopModel(values: [1, 2], completes: true, cancels: false))
  }

  func test_threeValuesAndCompletion() {
    check(SchedulerHopModel(values: [1, 2, 3], completes: true, cancels: false))
  }

  func test_twoValuesAndCompletion_cancel() {
    check(SchedulerHopModel(values: [1, 2], completes: true, cancels: true))
  }

  func test_threeValues_cancel() {
    check(SchedulerHopModel(values: [1, 2, 3], completes: false, cancels: true))
  }

  /// The mutation ``SchedulerHopModel/schedulesBeforeAppending`` (an event's action
  /// scheduled before the event is queued) is caught: the action that owns delivery finds
  /// the queue empty.
  func test_actionScheduledBeforeItsEvent_isCaught() {
    var model = SchedulerHopModel(values: [1, 2], completes: true, cancels: false)
    model.schedulesBeforeAppending = true
    checkCaught(model, "scheduled before appended", expected: "empty queue")
  }
}
