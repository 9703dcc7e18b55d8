import Confluence
import ConfluenceTesting
import Testing

/// The kit's checks fail a Swift Testing test: each deliberate breach below is recorded as
/// an issue at the line that made the check, and `withKnownIssue` — which itself fails the
/// test when no issue comes — captures it. (The XCTest side is proven in ConfluenceTests'
/// TestKitReportingTests.)
@Suite struct IssueReportingTests {
  @Test func testSubscriber_valueBeyondDemand_isAnIssueAtItsLine() {
    let line = #line + 2
    withKnownIssue {
      let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
      BeyondDemand(values: [1, 2]).subscribe(subscriber)
      #expect(subscriber.values == [1, 2])
    } matching: { issue in
      issue.sourceLocation?.line == line && issue.sourceLocation?.fileName == "IssueReportingTests.swift"
        && issue.comments.map(\.rawValue) == [
          "Contract violation: received value 2 beyond the demand granted ([max(1)])"
        ]
    }
  }

  @Test func testSubscriber_secondCompletion_isAnIssue() {
    withKnownIssue {
      let subscriber = TestSubscriber<Int, Never>()
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: .finished)
      subscriber.receive(completion: .finished)
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["Contract violation: received a second completion (finished)"]
    }
  }

  @Test func assertReleased_objectStillAlive_isAnIssueAtItsLine() {
    let keeper = Box()
    let line = #line + 4
    withKnownIssue {
      var object: Box? = Box()
      keeper.other = object
      assertReleased(&object, "kept by keeper")
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue) == ["expected the object to be freed. kept by keeper"]
    }
  }

  @Test func aPublisherKeepingTheContract_recordsNoIssue() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    [1, 2, 3].publisher.subscribe(subscriber)
    subscriber.request(.max(1))
    #expect(subscriber.values == [1, 2, 3])
    #expect(subscriber.completion == .finished)
    #expect(subscriber.violations.isEmpty)
  }
}

private final class Box {
  var other: Box?
}

/// Sends every value whatever the demand: the breach the subscriber must catch.
private struct BeyondDemand: Publisher {
  typealias Output = Int
  typealias Failure = Never
  let values: [Int]

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    subscriber.receive(subscription: Subscriptions.empty)
    for value in values { _ = subscriber.receive(value) }
  }
}
