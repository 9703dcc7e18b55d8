import Confluence
import ConfluenceTesting
import XCTest

/// collect(.byTimeOrCount): full batches go out on upstream's thread while timed batches
/// go out on the scheduler's; downstream must never be entered by both at once.
final class CollectByTimeStressTests: XCTestCase {
  func test_countAndTimerBatches_fromTwoThreads_areDeliveredOneAtATime() {
    for _ in 0..<20 {
      let scheduler = TestScheduler(initialClock: 0)
      let upstream = ManualPublisher<Int, Never>()
      let subscriber = TestSubscriber<[Int], Never>()
      let concurrency = ConcurrencyProbe()
      subscriber.onValue = { _ in
        concurrency.enter()
        concurrency.leave()
        return .none
      }
      upstream.collect(.byTimeOrCount(scheduler, 10, 3)).subscribe(subscriber)
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          for value in 0..<300 { upstream.send(value) }
        } else {
          for _ in 0..<150 { scheduler.advance(by: 10) }
        }
      }
      upstream.finish()
      XCTAssertEqual(concurrency.maximum, 1, "downstream was entered by two threads at once")
      XCTAssertEqual(subscriber.values.flatMap { $0 }, Array(0..<300), "every value once, in order")
      XCTAssertEqual(subscriber.completion, .finished)
      XCTAssertTrue(subscriber.values.allSatisfy { $0.count <= 3 })
    }
  }
}
