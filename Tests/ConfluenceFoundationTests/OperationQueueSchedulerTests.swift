import ConfluenceFoundation
import Foundation
import XCTest

final class OperationQueueSchedulerTests: XCTestCase {
  private func makeSerialQueue(_ name: String) -> OperationQueue {
    let queue = OperationQueue()
    queue.name = name
    queue.maxConcurrentOperationCount = 1
    return queue
  }

  func test_schedule_runsAsAnOperationOnTheQueue() {
    let queue = makeSerialQueue("schedule")
    let ran = expectation(description: "ran")
    var currentQueueName: String?
    queue.schedule {
      currentQueueName = OperationQueue.current?.name
      ran.fulfill()
    }
    wait(for: [ran], timeout: 1)
    XCTAssertEqual(currentQueueName, "schedule")
  }

  func test_schedule_keepsOrder_onASerialQueue() {
    let queue = makeSerialQueue("order")
    let recorder = Recorder<Int>()
    for index in 0..<100 {
      queue.schedule(options: nil) { recorder.append(index) }
    }
    queue.waitUntilAllOperationsAreFinished()
    XCTAssertEqual(recorder.all, Array(0..<100))
  }

  func test_schedule_onASuspendedQueue_waitsForResume() {
    let queue = makeSerialQueue("suspended")
    queue.isSuspended = true
    let recorder = Recorder<String>()
    queue.schedule { recorder.append("ran") }
    let ranWhileSuspended = expectation(description: "ran while suspended")
    ranWhileSuspended.isInverted = true
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
      if recorder.count > 0 { ranWhileSuspended.fulfill() }
    }
    wait(for: [ranWhileSuspended], timeout: 0.1)
    XCTAssertEqual(recorder.all, [])
    queue.isSuspended = false
    queue.waitUntilAllOperationsAreFinished()
    XCTAssertEqual(recorder.all, ["ran"])
  }

  func test_scheduleAfter_waitsForTheDate_andRunsInDateOrder() {
    let queue = makeSerialQueue("after")
    let recorder = Recorder<String>()
    let done = expectation(description: "all ran")
    done.expectedFulfillmentCount = 3
    let start = DispatchTime.now()
    var elapsedAtLast = 0.0
    let now = queue.now
    queue.schedule(after: now.advanced(by: .milliseconds(60)), tolerance: .zero, options: nil) {
      elapsedAtLast = secondsSince(start)
      recorder.append("60 ms")
      done.fulfill()
    }
    queue.schedule(after: now.advanced(by: .milliseconds(20))) {
      recorder.append("20 ms")
      done.fulfill()
    }
    queue.schedule(after: now.advanced(by: -1)) {
      recorder.append("past")
      done.fulfill()
    }
    wait(for: [done], timeout: 1)
    XCTAssertEqual(recorder.all, ["past", "20 ms", "60 ms"])
    XCTAssertGreaterThanOrEqual(elapsedAtLast, 0.059)
  }

  func test_repeating_firesSeveralTimes_thenStopsAfterCancel() {
    let queue = makeSerialQueue("repeating")
    let recorder = Recorder<String?>()
    let threeTicks = expectation(description: "three ticks")
    threeTicks.expectedFulfillmentCount = 3
    threeTicks.assertForOverFulfill = false
    let cancellable = queue.schedule(after: queue.now, interval: .milliseconds(20), tolerance: .milliseconds(1)) {
      recorder.append(OperationQueue.current?.name)
      threeTicks.fulfill()
    }
    wait(for: [threeTicks], timeout: 1)
    cancellable.cancel()
    queue.waitUntilAllOperationsAreFinished()
    let countAtCancel = recorder.count
    let noMoreTicks = expectation(description: "no tick after cancel")
    noMoreTicks.isInverted = true
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
      if recorder.count > countAtCancel { noMoreTicks.fulfill() }
    }
    wait(for: [noMoreTicks], timeout: 0.15)
    XCTAssertEqual(recorder.count, countAtCancel)
    XCTAssertGreaterThanOrEqual(countAtCancel, 3)
    XCTAssertEqual(Set(recorder.all), ["repeating"])
  }

  func test_mainQueue_runsOnTheMainThread() {
    let ran = expectation(description: "ran")
    var onMain = false
    OperationQueue.main.schedule {
      onMain = Thread.isMainThread
      ran.fulfill()
    }
    wait(for: [ran], timeout: 1)
    XCTAssertTrue(onMain)
  }
}
