@testable import Confluence
import XCTest

/// Every interleaving of `SubjectConduit.demandIsUnlimited` (the set-once flag that lets a
/// request skip the lock once the demand is unlimited) with requests on other threads and a
/// sender: see ``DemandIsUnlimitedModel``. The checks bite: a flag set for any positive
/// demand lets a bounded request be skipped (its value dropped), and a flag stored before the
/// critical section that makes the demand unlimited lets a request return while the demand is
/// still bounded; both are caught.
final class DemandIsUnlimitedInterleavingTests: XCTestCase {
  func test_unlimitedAndBoundedRequests_whileSending() {
    check(
      DemandIsUnlimitedModel(roles: [.requester([.max(1), .unlimited]), .requester([.max(2), .max(1)]), .sender(4)]))
  }

  func test_twoUnlimitedRequests_whileSending() {
    check(DemandIsUnlimitedModel(roles: [.requester([.unlimited, .max(1)]), .requester([.unlimited]), .sender(3)]))
  }

  func test_boundedRequestsOnly_neverSkipped() {
    check(DemandIsUnlimitedModel(roles: [.requester([.max(1), .max(1)]), .requester([.max(2)]), .sender(4)]))
  }

  func test_mutation_flagForAnyDemand_isCaught() {
    checkCaught(
      DemandIsUnlimitedModel(roles: [.requester([.max(1), .max(1)]), .sender(3)], mutation: .setForAnyDemand),
      "the flag set for any positive demand")
  }

  func test_mutation_flagBeforeTheDemand_isCaught() {
    checkCaught(
      DemandIsUnlimitedModel(
        roles: [.requester([.unlimited]), .requester([.max(1)]), .sender(2)], mutation: .setBeforeTheDemand),
      "the flag stored before the demand", expected: "returned on the flag")
  }
}
