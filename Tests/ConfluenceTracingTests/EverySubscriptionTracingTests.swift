import Confluence
import ConfluenceTesting
import ConfluenceTracing
import Foundation
import XCTest

/// The global switch: `start(everySubscription: true)` records pipelines that have no
/// `trace` stage, through the `_Introspection` hook.
final class EverySubscriptionTracingTests: XCTestCase {
  func test_everySubscription_recordsEachStageOfAnUntracedPipeline() {
    let recorder = TraceRecorder()
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    recorder.start(everySubscription: true)
    let cancellable = subject.map { $0 * 2 }.filter { $0 > 2 }.sink { received.append($0) }
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    recorder.stop()
    withExtendedLifetime(cancellable) {}
    XCTAssertEqual(received, [4])
    // Each subscribe(_:) is a lane named after the publisher subscribed to: the sink's to
    // Filter (1), filter's subscriber's to Map (2), map's subscriber's to the subject (3).
    // The subject's subscription travels down through all three (map and filter hand it
    // on); the sink requests unlimited. 1 becomes 2, which filter drops, returning .max(1)
    // (as Apple's filter does), which map passes up; 2 becomes 4, which reaches the sink.
    XCTAssertEqual(
      recorder.marbles(),
      """
      #1 Filter              ^ r∞ 4 |
      #2 Map                 ^ 2 +1 4 |
      #3 PassthroughSubject  ^ 1 +1 2 |

      """)
    XCTAssertEqual(
      recorder.timeline(showingTimes: false, showingThreads: false).split(separator: "\n").prefix(7),
      [
        "#1 Filter              subscribed",
        "#2 Map                 subscribed",
        "#3 PassthroughSubject  subscribed",
        "#3 PassthroughSubject  subscription(PassthroughSubject)",
        "#2 Map                 subscription(PassthroughSubject)",
        "#1 Filter              subscription(PassthroughSubject)",
        "#1 Filter              request(unlimited)",
      ])
  }

  func test_everySubscription_recordsACancel_onTheLaneThatCancelled() {
    let recorder = TraceRecorder()
    let subject = PassthroughSubject<Int, Never>()
    recorder.start(everySubscription: true)
    let cancellable = subject.map { $0 + 1 }.sink { _ in }
    subject.send(1)
    cancellable.cancel()
    recorder.stop()
    XCTAssertEqual(
      recorder.marbles(),
      """
      #1 Map                 ^ r∞ 2 !
      #2 PassthroughSubject  ^ 1

      """)
  }

  func test_afterStop_newPipelinesAreNotRecorded() {
    let recorder = TraceRecorder()
    recorder.start(everySubscription: true)
    recorder.stop()
    let subscriber = TestSubscriber<Int, Never>()
    [1].publisher.map { $0 }.subscribe(subscriber)
    XCTAssertTrue(recorder.events.isEmpty)
    XCTAssertEqual(subscriber.values, [1])
  }
}
