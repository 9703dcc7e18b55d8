@testable import Confluence
import XCTest

/// `SubjectConduitState.hasPendingValues` stands for `!pending.isEmpty` (the lane's
/// eligibility and a cancel read it without the queue's type): it must agree with the queue
/// after every transition that appends to or empties the queue.
final class SubjectConduitStateQueueTests: XCTestCase {
  private typealias State = SubjectConduitState<Int, Never>

  private func assertFlagAgrees(_ state: State, _ step: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(state.hasPendingValues, !state.pending.isEmpty, "after \(step)", file: file, line: line)
  }

  /// A state owned by a delivery in progress, with unlimited demand.
  private func owned() -> State {
    var state = State(owesCurrentValue: false)
    state.isSubscribing = false
    state.demand = .unlimited
    XCTAssertEqual(state.offer(1, keepsCurrentValue: false, byOwnerThread: true), .owned)
    return state
  }

  func test_valuesQueuedByTheOwnerThread_thenDelivered_flagFollowsTheQueue() {
    var state = owned()
    assertFlagAgrees(state, "taking delivery")
    XCTAssertFalse(state.hasPendingValues)
    XCTAssertEqual(state.offer(2, keepsCurrentValue: false, byOwnerThread: true), .done)
    XCTAssertEqual(state.offer(3, keepsCurrentValue: false, byOwnerThread: true), .done)
    assertFlagAgrees(state, "two re-entrant sends")
    XCTAssertTrue(state.hasPendingValues)
    XCTAssertFalse(state.isLaneEligible, "a queue waits: no lane")
    guard case .deliver(2) = state.didDeliver(returning: .none) else { return XCTFail("expected 2 next") }
    assertFlagAgrees(state, "delivering the first queued value")
    guard case .deliver(3) = state.didDeliver(returning: .none) else { return XCTFail("expected 3 next") }
    assertFlagAgrees(state, "delivering the last queued value")
    XCTAssertFalse(state.hasPendingValues)
    guard case .idle = state.didDeliver(returning: .none) else { return XCTFail("expected idle") }
    XCTAssertTrue(state.isLaneEligible, "nothing queued, unlimited demand, nobody delivering")
  }

  func test_aReservedValueQueuedOnClaim_thenTaken_flagFollowsTheQueue() {
    var state = owned()
    // Another thread's send while this one delivers: reserved, then claimed by the owner.
    XCTAssertEqual(state.offer(2, keepsCurrentValue: false, byOwnerThread: false), .reserved)
    assertFlagAgrees(state, "a reservation")
    XCTAssertEqual(state.claimReserved(byOwnerThread: true, queue: { $0.append(2) }), .done)
    assertFlagAgrees(state, "queueing the claimed value")
    XCTAssertTrue(state.hasPendingValues)
    let taken = state.takePending()
    XCTAssertEqual(taken, [2])
    assertFlagAgrees(state, "taking the queue")
    XCTAssertFalse(state.hasPendingValues)
  }

  func test_aCancelWithValuesQueued_releasesThemWithTheSubscriber() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    var subscription: Subscription?
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: {
        subscription = $0
        $0.request(.unlimited)
      },
      receiveValue: { value in
        received.append(value)
        if value == 1 {
          // Re-entrant: queued behind the delivery in progress, then cancelled with the
          // queue holding them (the cancel's out-of-line path).
          subject.send(2)
          subject.send(3)
          subscription?.cancel()
        }
        return .none
      },
      receiveCompletion: { _ in })
    subject.subscribe(subscriber)
    subject.send(1)
    subject.send(4)
    XCTAssertEqual(received, [1], "the values queued behind the delivery go with the cancel; nothing after it arrives")
  }
}
