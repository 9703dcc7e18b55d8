import XCTest

/// Every interleaving of `HandleEventsSubscription`'s value path (its lock-free reads of
/// `hasEnded`) with its subscription, request, completion and cancel: see
/// ``HandleEventsEndModel`` for what is modelled and checked, and for the mutation that
/// makes it fail.
final class HandleEventsEndInterleavingTests: XCTestCase {
  /// The sequential baseline: upstream sends only once the subscribing thread's request
  /// has reached it, so there is one schedule.
  func test_threeValues_returnedDemand() {
    check(
      HandleEventsEndModel(values: [1, 2, 3], returnsDemand: true, requestsFromAnotherThread: false, cancels: false))
  }

  func test_twoValues_requestFromAnotherThread() {
    check(HandleEventsEndModel(values: [1, 2], returnsDemand: false, requestsFromAnotherThread: true, cancels: false))
  }

  func test_threeValues_returnedDemand_cancel() {
    check(
      HandleEventsEndModel(values: [1, 2, 3], returnsDemand: true, requestsFromAnotherThread: false, cancels: true))
  }

  func test_threeValues_requestFromAnotherThread_cancel() {
    check(
      HandleEventsEndModel(values: [1, 2, 3], returnsDemand: true, requestsFromAnotherThread: true, cancels: true))
  }

  /// The mutation ``HandleEventsEndModel/callsOutputUnchecked`` (`receiveOutput` called
  /// before `hasEnded` is read) is caught: a value that starts after `cancel()` returned
  /// reaches `receiveOutput`.
  func test_outputBeforeTheEndIsRead_isCaught() {
    for requests in [false, true] {
      var model = HandleEventsEndModel(
        values: [1, 2, 3], returnsDemand: true, requestsFromAnotherThread: requests, cancels: true)
      model.callsOutputUnchecked = true
      checkCaught(model, "receiveOutput before the read", expected: "receiveOutput ran for")
    }
  }
}
