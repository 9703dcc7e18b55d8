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

  // As Apple's: a repeating schedule repeats (RepeatingScheduleRulesTests checks the
  // cadence for every scheduler). Each run is one operation, added through addOperation(_:)
  // as the run before it starts; the first is added at once.
  func test_repeating_eachRunIsOneOperation_addedAsTheRunBeforeItStarts() {
    let queue = CountingOperationQueue()
    queue.maxConcurrentOperationCount = 1
    queue.name = "repeating"
    let recorder = Recorder<String?>()
    let threeRuns = expectation(description: "three runs")
    threeRuns.expectedFulfillmentCount = 3
    threeRuns.assertForOverFulfill = false
    let addedAtEachRun = Recorder<Int>()
    let cancellable = queue.schedule(after: queue.now.advanced(by: .milliseconds(20)), interval: .milliseconds(20)) {
      if recorder.appendCounting(OperationQueue.current?.name) <= 3 {
        addedAtEachRun.append(queue.added)
        threeRuns.fulfill()
      }
    }
    XCTAssertEqual(queue.added, 1, "the first run, added at once")
    wait(for: [threeRuns], timeout: 2)
    cancellable.cancel()
    queue.waitUntilAllOperationsAreFinished()
    XCTAssertEqual(addedAtEachRun.all, [2, 3, 4], "each run added the next before its action")
    XCTAssertEqual(queue.added, recorder.count + 1, "one operation per run, and the one cancelled")
    XCTAssertEqual(Set(recorder.all), ["repeating"])
    XCTAssertEqual(queue.operationCount, 0, "the waiting run left the queue when cancelled")
  }

  func test_repeating_releasingTheCancellable_stopsIt() {
    let queue = makeSerialQueue("released")
    let recorder = Recorder<Int>()
    var cancellable: Cancellable? = queue.schedule(after: queue.now, interval: .milliseconds(10)) {
      recorder.append(1)
    }
    XCTAssertTrue(cancellable is AnyCancellable)
    cancellable = nil
    queue.waitUntilAllOperationsAreFinished()
    let countAtRelease = recorder.count
    XCTAssertLessThanOrEqual(countAtRelease, 1, "at most the run already going")
    let ticked = expectation(description: "a run after release")
    ticked.isInverted = true
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.08) {
      if recorder.count > countAtRelease { ticked.fulfill() }
    }
    wait(for: [ticked], timeout: 0.1)
    XCTAssertEqual(queue.operationCount, 0)
  }

  func test_repeating_cancelAllOperations_stopsIt() {
    let queue = makeSerialQueue("cancel all")
    let recorder = Recorder<Int>()
    let twoRuns = expectation(description: "two runs")
    twoRuns.expectedFulfillmentCount = 2
    twoRuns.assertForOverFulfill = false
    let cancellable = queue.schedule(after: queue.now, interval: .milliseconds(20)) {
      recorder.append(1)
      twoRuns.fulfill()
    }
    wait(for: [twoRuns], timeout: 2)
    queue.cancelAllOperations()
    queue.waitUntilAllOperationsAreFinished()
    let countAtCancel = recorder.count
    let ticked = expectation(description: "a run after cancelAllOperations")
    ticked.isInverted = true
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
      if recorder.count > countAtCancel { ticked.fulfill() }
    }
    wait(for: [ticked], timeout: 0.15)
    XCTAssertEqual(queue.operationCount, 0)
    withExtendedLifetime(cancellable) {}
  }

  func test_repeating_cancelledBeforeItsDate_neverRuns_andLeavesTheQueue() {
    let queue = CountingOperationQueue()
    let recorder = Recorder<String>()
    let cancellable = queue.schedule(after: queue.now.advanced(by: 10), interval: 1) { recorder.append("ran") }
    XCTAssertEqual(queue.operationCount, 1, "added at once, waiting for its date")
    cancellable.cancel()
    queue.waitUntilAllOperationsAreFinished()
    XCTAssertEqual(queue.operationCount, 0, "a cancelled operation does not wait for its date")
    XCTAssertEqual(recorder.all, [])
  }

  // MARK: One operation per action, through addOperation(_:)

  func test_eachScheduledAction_isAddedAsExactlyOneOperation() {
    let queue = CountingOperationQueue()
    queue.maxConcurrentOperationCount = 1
    let done = expectation(description: "all ran")
    done.expectedFulfillmentCount = 3
    queue.schedule { done.fulfill() }
    XCTAssertEqual(queue.added, 1, "immediate")
    queue.schedule(after: queue.now.advanced(by: .milliseconds(30))) { done.fulfill() }
    XCTAssertEqual(queue.added, 2, "delayed: added when scheduled, not when due")
    var repeating: Cancellable?
    repeating = queue.schedule(after: queue.now.advanced(by: .milliseconds(10)), interval: .seconds(10)) {
      done.fulfill()
    }
    XCTAssertEqual(queue.added, 3, "repeating: its first run")
    wait(for: [done], timeout: 1)
    repeating?.cancel()
    queue.waitUntilAllOperationsAreFinished()
    XCTAssertEqual(queue.added, 4, "nothing more was added when the actions came due but the repeating's next run")
    repeating = nil
  }

  func test_delayedOperation_waitsForItsDate_whileLaterImmediateOnesRun_onASerialQueue() {
    let queue = CountingOperationQueue()
    queue.maxConcurrentOperationCount = 1
    let recorder = Recorder<String>()
    let done = expectation(description: "both ran")
    done.expectedFulfillmentCount = 2
    queue.schedule(after: queue.now.advanced(by: .milliseconds(40))) {
      recorder.append("delayed")
      done.fulfill()
    }
    queue.schedule {
      recorder.append("immediate")
      done.fulfill()
    }
    wait(for: [done], timeout: 1)
    XCTAssertEqual(recorder.all, ["immediate", "delayed"])
  }

  func test_cancelAllOperations_cancelsAWaitingDelayedAction() {
    let queue = CountingOperationQueue()
    let recorder = Recorder<String>()
    queue.schedule(after: queue.now.advanced(by: .milliseconds(30))) { recorder.append("ran") }
    queue.cancelAllOperations()
    let noRun = expectation(description: "no run")
    noRun.isInverted = true
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.08) {
      if recorder.count > 0 { noRun.fulfill() }
    }
    wait(for: [noRun], timeout: 0.1)
    queue.waitUntilAllOperationsAreFinished()
    XCTAssertEqual(recorder.all, [])
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

/// An operation queue that counts the operations handed to `addOperation(_:)`, as a subclass
/// in app code may.
private final class CountingOperationQueue: OperationQueue, @unchecked Sendable {
  // @unchecked Sendable: `count` is read and written only with `lock` held.
  private let lock = NSLock()
  private var count = 0

  var added: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }

  override func addOperation(_ op: Operation) {
    lock.lock()
    count += 1
    lock.unlock()
    super.addOperation(op)
  }
}
