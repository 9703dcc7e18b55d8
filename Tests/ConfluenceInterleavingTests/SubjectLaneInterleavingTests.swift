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
///
/// The thread-bound lane (``SubjectLoneLaneModel/barrierAvailable``): configurations with the
/// lane bound to thread 0 from the start, and with the lane open at first and bound through
/// a sender's streak (so that a bound lane is closed by another thread, by a re-entrant send
/// on the bound thread itself, and bound again), all under x86-64's store buffers. Every
/// mutation of the protocol tried is caught (``SubjectLoneLaneModel/Mutation``): a closer
/// that skips the process-wide barrier (it reads `busy` = 0 while the bound thread's
/// `busy` = 1 waits in its store buffer and it delivers: a value to a released subscriber,
/// after the completion, or during another sender's); a closer that always decides "not the
/// owner" (likewise, and a re-entrant send delivered nested inside the trigger); a bound
/// thread that returns after its delivery without reading the lane again (a closer made it
/// the owner: another sender waits forever, the conduit is left owned by nobody); one that
/// delivers without reading the lane after marking itself busy (a value to a released
/// subscriber, or during another event); one that, finding the lane closed before it
/// delivered, ignores its verdict (the ownership a closer gave it is left with nobody); and
/// one that takes its verdict without waiting for the close in progress ("no verdict").
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

  /// The configurations above with binding enabled (a streak of one binds the lane).
  func test_everyConfiguration_withBinding() {
    let configurations: [([SubjectLoneLaneModel.Role], (trigger: Int, value: Int)?)] = [
      ([.sender([1, 2]), .sender([11, 12]), .sender([21])], nil),
      ([.sender([1, 2]), .sender([11, 12])], (trigger: 1, value: 100)),
      ([.sender([1, 2]), .sender([11]), .sender([21])], (trigger: 1, value: 100)),
      ([.sender([1, 2]), .sender([11, 12]), .canceller], nil),
      ([.sender([1, 2]), .sender([11, 12]), .completer], nil),
      ([.sender([1, 2]), .sender([11]), .completer], (trigger: 1, value: 100)),
      ([.sender([1, 2]), .sender([11]), .canceller], (trigger: 1, value: 100)),
      ([.sender([1, 2]), .sender([11, 12]), .requester], nil),
    ]
    for (roles, reentrant) in configurations {
      check(streak(roles, goal: 1, reentrant: reentrant))
    }
  }

  // MARK: The thread-bound lane, bound to thread 0 from the start

  func test_bound_twoSenders() {
    check(bound([.sender([1, 2, 3]), .sender([11, 12])]))
  }

  func test_bound_threeSenders() {
    check(bound([.sender([1, 2]), .sender([11, 12]), .sender([21])]))
  }

  func test_bound_cancel() {
    check(bound([.sender([1, 2]), .canceller]))
  }

  func test_bound_completion() {
    check(bound([.sender([1, 2]), .completer]))
  }

  func test_bound_reentrantSend() {
    check(bound([.sender([1, 2])], reentrant: (trigger: 1, value: 100)))
  }

  func test_bound_twoSenders_reentrantSend() {
    check(bound([.sender([1, 2, 3]), .sender([11])], reentrant: (trigger: 2, value: 100)))
  }

  func test_bound_reentrantSend_cancel() {
    check(bound([.sender([1, 2]), .canceller], reentrant: (trigger: 1, value: 100)))
  }

  func test_bound_reentrantSend_completion() {
    check(bound([.sender([1, 2]), .completer], reentrant: (trigger: 1, value: 100)))
  }

  func test_bound_twoSenders_cancel() {
    check(bound([.sender([1, 2, 3]), .sender([11, 12]), .canceller]))
  }

  func test_bound_twoSenders_completion() {
    check(bound([.sender([1, 2]), .sender([11, 12]), .completer]))
  }

  func test_bound_twoSenders_reentrantSend_cancel() {
    check(bound([.sender([1, 2]), .sender([11, 12]), .canceller], reentrant: (trigger: 1, value: 100)))
  }

  func test_bound_twoSenders_cancel_completion() {
    check(bound([.sender([1, 2]), .sender([11]), .canceller, .completer], reentrant: (trigger: 1, value: 100)))
  }

  func test_bound_threeSenders_cancel() {
    check(bound([.sender([1, 2]), .sender([11]), .sender([21]), .canceller]))
  }

  // MARK: The thread-bound lane, reached through the streak (the lane open at first)

  func test_streak_twoSenders() {
    check(streak([.sender([1, 2, 3]), .sender([11, 12])], goal: 1))
  }

  func test_streakOfTwo_twoSenders() {
    check(streak([.sender([1, 2, 3]), .sender([11, 12, 13])], goal: 2))
  }

  func test_streak_cancel() {
    check(streak([.sender([1, 2, 3]), .canceller], goal: 1))
  }

  func test_streak_completion() {
    check(streak([.sender([1, 2, 3]), .completer], goal: 1))
  }

  /// Thread 0 binds, thread 1's send closes the bound lane, thread 0 takes the reopened lane
  /// and binds again.
  func test_streak_closedByAnotherSender_rebinds() {
    check(streak([.sender([1, 2, 3]), .sender([11])], goal: 1))
  }

  func test_streak_twoSenders_cancel() {
    check(streak([.sender([1, 2, 3]), .sender([11, 12]), .canceller], goal: 1, reentrant: (trigger: 2, value: 100)))
  }

  func test_streak_twoSenders_completion() {
    check(streak([.sender([1, 2, 3]), .sender([11, 12]), .completer], goal: 1))
  }

  func test_streakOfTwo_twoSenders_cancel() {
    check(streak([.sender([1, 2, 3]), .sender([11, 12, 13]), .canceller], goal: 2))
  }

  func test_streakOfTwo_threeSenders() {
    check(streak([.sender([1, 2, 3]), .sender([11, 12]), .sender([21])], goal: 2))
  }

  // MARK: The checks bite on the bound lane

  /// Without the process-wide barrier, a closer can read `busy` = 0 while the bound thread's
  /// `busy` = 1 waits in its store buffer and it delivers: the lane is closed, the conduit
  /// unowned, and the subscriber released under the delivery (or another sender delivers at
  /// the same time).
  func test_closerWithoutBarrier_isCaught() {
    checkCaught(
      bound([.sender([1, 2]), .canceller], mutation: .closerSkipsBarrier), "closer skips the barrier",
      expected: "released subscriber")
    checkCaught(
      bound([.sender([1, 2]), .completer], mutation: .closerSkipsBarrier), "closer skips the barrier",
      expected: "after the completion")
    checkCaught(
      bound([.sender([1, 2]), .sender([11, 12])], mutation: .closerSkipsBarrier), "closer skips the barrier",
      expected: "during another event")
    checkCaught(
      streak([.sender([1, 2, 3]), .sender([11])], goal: 1, mutation: .closerSkipsBarrier),
      "closer skips the barrier", expected: "during another event")
  }

  /// A closer that always decides "not the owner" lets a locked operation run as if the
  /// bound thread were idle while it delivers.
  func test_closerAlwaysNotOwner_isCaught() {
    checkCaught(
      bound([.sender([1, 2]), .canceller], mutation: .closerAlwaysNotOwner), "closer always decides notOwner",
      expected: "released subscriber")
    checkCaught(
      bound([.sender([1, 2]), .sender([11, 12])], mutation: .closerAlwaysNotOwner),
      "closer always decides notOwner", expected: "during another event")
    checkCaught(
      bound([.sender([1, 2]), .completer], mutation: .closerAlwaysNotOwner), "closer always decides notOwner",
      expected: "during another event")
    // A re-entrant send's close, from inside the bound delivery: the value is delivered
    // nested, inside the one being delivered.
    checkCaught(
      bound([.sender([1, 2])], reentrant: (trigger: 1, value: 100), mutation: .closerAlwaysNotOwner),
      "closer always decides notOwner", expected: "during another event")
  }

  /// A bound thread that returns after its delivery without reading the lane again leaves a
  /// conduit that a closer found busy owned by nobody: another sender waits for it forever,
  /// a completion is never delivered, a cancelled subscriber is never released.
  func test_boundSenderSkipsRecheck_isCaught() {
    checkCaught(
      bound([.sender([1, 2]), .sender([11, 12])], mutation: .boundSenderSkipsRecheck), "no recheck after delivery",
      expected: "deadlock")
    checkCaught(
      bound([.sender([1, 2]), .completer], mutation: .boundSenderSkipsRecheck), "no recheck after delivery",
      expected: "ownership was left taken")
    checkCaught(
      bound([.sender([1, 2]), .canceller], mutation: .boundSenderSkipsRecheck), "no recheck after delivery",
      expected: "ownership was left taken")
    checkCaught(
      streak([.sender([1, 2, 3]), .sender([11])], goal: 1, mutation: .boundSenderSkipsRecheck),
      "no recheck after delivery", expected: "deadlock")
  }

  /// A bound thread that delivers right after marking itself busy (its only read of the
  /// lane before the mark) can deliver after a closer found it idle.
  func test_boundSenderSkipsCheck_isCaught() {
    checkCaught(
      bound([.sender([1, 2]), .canceller], mutation: .boundSenderSkipsCheck), "no read after the mark",
      expected: "released subscriber")
    checkCaught(
      bound([.sender([1, 2]), .sender([11, 12])], mutation: .boundSenderSkipsCheck), "no read after the mark",
      expected: "during another event")
  }

  /// A bound thread that found its lane closed before delivering and ignores the verdict
  /// leaves the ownership a closer gave it with nobody.
  func test_earlyPathIgnoresVerdict_isCaught() {
    checkCaught(
      bound([.sender([1, 2]), .sender([11, 12])], mutation: .earlyPathIgnoresVerdict), "early path ignores verdict",
      expected: "deadlock")
    checkCaught(
      bound([.sender([1, 2]), .canceller], mutation: .earlyPathIgnoresVerdict), "early path ignores verdict",
      expected: "ownership was left taken")
  }

  /// The "no verdict" check bites: a bound thread that does not wait for a close in progress
  /// (its lock) takes its verdict before the closer posted it.
  func test_verdictTakenDuringClose_isCaught() {
    checkCaught(
      bound([.sender([1, 2]), .canceller], mutation: .verdictTakenDuringClose), "verdict taken during the close",
      expected: "no verdict")
    checkCaught(
      bound([.sender([1, 2]), .sender([11, 12])], mutation: .verdictTakenDuringClose),
      "verdict taken during the close", expected: "no verdict")
  }

  private func bound(
    _ roles: [SubjectLoneLaneModel.Role], reentrant: (trigger: Int, value: Int)? = nil,
    mutation: SubjectLoneLaneModel.Mutation? = nil
  ) -> SubjectLoneLaneModel {
    SubjectLoneLaneModel(
      roles: roles, reentrant: reentrant, barrierAvailable: true, bindGoal: 1, initiallyBound: true, mutation: mutation)
  }

  private func streak(
    _ roles: [SubjectLoneLaneModel.Role], goal: Int, reentrant: (trigger: Int, value: Int)? = nil,
    mutation: SubjectLoneLaneModel.Mutation? = nil
  ) -> SubjectLoneLaneModel {
    SubjectLoneLaneModel(roles: roles, reentrant: reentrant, barrierAvailable: true, bindGoal: goal, mutation: mutation)
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
/// `SubjectConduit.deliver(_:toEach:first:of:)`) with the subject's locked operations, for a
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
