import Confluence
import ConfluenceFoundation
import ConfluenceTesting
import Foundation
import Synchronization
import XCTest

/// `receive(on:)` onto a `DispatchQueue` with no options hands the queue one prepared block
/// per subscription instead of a new closure per event; these pin that it still behaves as
/// one `schedule(options: nil, _:)` per event.
final class ReceiveOnDispatchQueueTests: XCTestCase {
  func test_eachEvent_isOneAsyncOnTheQueue_inOrderWithOtherWork() {
    for options in [nil, DispatchQueue.SchedulerOptions(qos: .userInitiated)] {
      let queue = DispatchQueue(label: "receive-on")
      let log = Mutex<[String]>([])
      let subject = PassthroughSubject<Int, Never>()
      let cancellable = subject.receive(on: queue, options: options).sink(
        receiveCompletion: { _ in log.withLock { $0.append("finished") } },
        receiveValue: { value in log.withLock { $0.append(String(value)) } })
      queue.suspend()
      subject.send(1)
      queue.async { log.withLock { $0.append("other work") } }
      subject.send(2)
      subject.send(completion: .finished)
      queue.resume()
      queue.sync {}
      XCTAssertEqual(
        log.withLock { $0 }, ["1", "other work", "2", "finished"], "options: \(String(describing: options))")
      withExtendedLifetime(cancellable) {}
    }
  }

  func test_aScheduledAction_holdsTheSubscriberUntilItRuns() {
    let queue = DispatchQueue(label: "receive-on")
    let tracker = LifetimeTracker()
    let subject = PassthroughSubject<Int, Never>()
    let received = Mutex<[Int]>([])
    var sink: Subscribers.Sink<Int, Never>? = Subscribers.Sink(
      receiveCompletion: { _ in },
      receiveValue: { [probe = tracker.make()] value in
        withExtendedLifetime(probe) { received.withLock { $0.append(value) } }
      })
    weak let weakSink = sink
    subject.receive(on: queue).subscribe(sink!)
    queue.suspend()
    subject.send(1)
    sink?.cancel()
    sink = nil
    XCTAssertNotNil(weakSink, "the queued action holds the subscriber")
    XCTAssertEqual(tracker.liveCount, 0, "the cancelled sink let go of its closures")
    queue.resume()
    queue.sync {}
    XCTAssertNil(weakSink, "released once the action has run")
    XCTAssertEqual(received.withLock { $0 }, [], "the value was dropped: cancelled before it ran")
  }

  func test_subscriptionWithNothingScheduled_isFreed() {
    let tracker = LifetimeTracker()
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable? = subject.receive(on: DispatchQueue(label: "receive-on"))
      .sink { [probe = tracker.make()] _ in withExtendedLifetime(probe) {} }
    cancellable?.cancel()
    cancellable = nil
    XCTAssertEqual(tracker.liveCount, 0)
  }
}
