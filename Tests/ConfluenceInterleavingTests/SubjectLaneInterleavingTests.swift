import XCTest

/// Every interleaving of the lone-subscriber lane's protocol (`SubjectLane`,
/// `SubjectStorage.sendThroughLane`) with the subject's locked operations, for two and three
/// threads: see ``SubjectLoneLaneModel`` for what is modelled and checked.
///
/// The checks are known to bite: closing an owned lane straight to `closed` (so that a locked
/// operation no longer queues behind the sender that owns it) fails every configuration but
/// one (a value during another event, after the completion, to a released subscriber); and a
/// `SubjectConduitState.claimReserved` that ignores a cancel fails the cancel configurations
/// (a value to a released subscriber). Each value must also be delivered by the thread that
/// sent it: an owner that hands a lane back without first forgetting itself
/// (`SubjectConduit.forgetDeliveringThread`) fails every configuration of both models (a
/// sender reads its own stale token while the lane's new owner has not yet noted its own,
/// queues its value as if re-entrant, and the other thread delivers it) — the bug the race
/// suite found in `PublishedRaceTests` at 0a2b9ee, which these models missed until they
/// checked the delivering thread.
final class SubjectLaneInterleavingTests: XCTestCase {
  func test_threeSenders() {
    check(SubjectLoneLaneModel(roles: [.sender([1, 2]), .sender([11, 12]), .sender([21])], reentrant: nil))
  }

  func test_twoSenders_reentrantSend() {
    check(SubjectLoneLaneModel(roles: [.sender([1, 2]), .sender([11, 12])], reentrant: (trigger: 1, value: 100)))
  }

  func test_threeSenders_reentrantSend() {
    check(
      SubjectLoneLaneModel(
        roles: [.sender([1, 2]), .sender([11]), .sender([21])], reentrant: (trigger: 1, value: 100)))
  }

  func test_twoSenders_cancel() {
    check(SubjectLoneLaneModel(roles: [.sender([1, 2]), .sender([11, 12]), .canceller], reentrant: nil))
  }

  func test_twoSenders_completion() {
    check(SubjectLoneLaneModel(roles: [.sender([1, 2]), .sender([11, 12]), .completer], reentrant: nil))
  }

  func test_reentrantSend_completion() {
    check(
      SubjectLoneLaneModel(roles: [.sender([1, 2]), .sender([11]), .completer], reentrant: (trigger: 1, value: 100)))
  }

  func test_reentrantSend_cancel() {
    check(
      SubjectLoneLaneModel(roles: [.sender([1, 2]), .sender([11]), .canceller], reentrant: (trigger: 1, value: 100)))
  }

  func test_twoSenders_requestOpensTheLane() {
    check(SubjectLoneLaneModel(roles: [.sender([1, 2]), .sender([11, 12]), .requester], reentrant: nil))
  }
}

/// Explores `model` exhaustively and fails with the violation and its trace, if any. The
/// counts explored are printed, for the record.
func check<M: InterleavingModel>(_ model: M, file: StaticString = #filePath, line: UInt = #line) {
  let result = explore(model)
  print("interleavings: \(M.self): \(result)")
  if let failure = result.failure {
    XCTFail("\(failure.message)\n  after: \(failure.trace.joined(separator: "\n         "))", file: file, line: line)
  }
  XCTAssertGreaterThan(result.finalStates, 0, "no execution finished", file: file, line: line)
}

/// Every interleaving of the subscribers' own lanes (`SubjectLane`, own lanes;
/// `SubjectStorage.deliver(_:toEach:first:)`) with the subject's locked operations, for a
/// subject with two subscribers: see ``SubjectOwnLanesModel``.
final class SubjectOwnLanesInterleavingTests: XCTestCase {
  func test_twoSenders() {
    check(SubjectOwnLanesModel(roles: [.sender([1, 2]), .sender([11, 12])], reentrant: nil))
  }

  func test_threeSenders() {
    check(SubjectOwnLanesModel(roles: [.sender([1, 2]), .sender([11]), .sender([21])], reentrant: nil))
  }

  func test_twoSenders_reentrantSend() {
    check(SubjectOwnLanesModel(roles: [.sender([1, 2]), .sender([11, 12])], reentrant: (trigger: 1, value: 100)))
  }

  func test_twoSenders_cancelLeavesOneSubscriber() {
    check(SubjectOwnLanesModel(roles: [.sender([1, 2]), .sender([11, 12]), .cancelFirst], reentrant: nil))
  }

  func test_reentrantSend_cancel() {
    check(
      SubjectOwnLanesModel(roles: [.sender([1, 2]), .sender([11]), .cancelFirst], reentrant: (trigger: 1, value: 100)))
  }

  func test_twoSenders_completion() {
    check(SubjectOwnLanesModel(roles: [.sender([1, 2]), .sender([11, 12]), .completer], reentrant: nil))
  }

  func test_reentrantSend_completion() {
    check(
      SubjectOwnLanesModel(roles: [.sender([1, 2]), .sender([11]), .completer], reentrant: (trigger: 1, value: 100)))
  }
}
