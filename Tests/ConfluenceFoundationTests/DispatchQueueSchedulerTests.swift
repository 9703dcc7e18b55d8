import ConfluenceFoundation
import Dispatch
import Foundation
import XCTest

final class DispatchQueueSchedulerTests: XCTestCase {
  private let queueKey = DispatchSpecificKey<String>()

  private func makeQueue(_ label: String, attributes: DispatchQueue.Attributes = []) -> DispatchQueue {
    let queue = DispatchQueue(label: label, attributes: attributes)
    queue.setSpecific(key: queueKey, value: label)
    return queue
  }

  func test_schedule_runsOnTheQueue() {
    let queue = makeQueue("schedule")
    let ran = expectation(description: "ran")
    var label: String?
    queue.schedule {
      label = DispatchQueue.getSpecific(key: self.queueKey)
      ran.fulfill()
    }
    wait(for: [ran], timeout: 1)
    XCTAssertEqual(label, "schedule")
  }

  func test_schedule_keepsOrder_onASerialQueue() {
    let queue = makeQueue("order")
    let recorder = Recorder<Int>()
    let done = expectation(description: "all ran")
    for index in 0..<100 {
      queue.schedule {
        if recorder.appendCounting(index) == 100 { done.fulfill() }
      }
    }
    wait(for: [done], timeout: 1)
    XCTAssertEqual(recorder.all, Array(0..<100))
  }

  func test_scheduleOptions_groupQosAndFlags() {
    let queue = makeQueue("options", attributes: .concurrent)
    let group = DispatchGroup()
    let recorder = Recorder<String>()
    queue.schedule(options: .init(qos: .userInitiated, group: group)) { recorder.append("in group") }
    queue.schedule(options: .init(qos: .utility, flags: .barrier)) { recorder.append("barrier") }
    XCTAssertEqual(group.wait(timeout: .now() + 1), .success)
    let drained = expectation(description: "drained")
    queue.schedule(options: nil) { drained.fulfill() }
    wait(for: [drained], timeout: 1)
    XCTAssertEqual(Set(recorder.all), ["in group", "barrier"])

    var options = DispatchQueue.SchedulerOptions()
    XCTAssertEqual(options.qos, .unspecified)
    XCTAssertEqual(options.flags, [])
    XCTAssertNil(options.group)
    options.flags = [.barrier, .enforceQoS]
    XCTAssertEqual(options.flags, [.barrier, .enforceQoS])
  }

  func test_scheduleAfter_waitsForTheDate() {
    let queue = makeQueue("after")
    let ran = expectation(description: "ran")
    let start = DispatchTime.now()
    var elapsed = 0.0
    queue.schedule(after: queue.now.advanced(by: .milliseconds(50))) {
      elapsed = secondsSince(start)
      ran.fulfill()
    }
    wait(for: [ran], timeout: 1)
    XCTAssertGreaterThanOrEqual(elapsed, 0.05)
  }

  func test_scheduleAfter_runsInDateOrder_andAPastDateRunsSoon() {
    let queue = makeQueue("dates")
    let recorder = Recorder<String>()
    let done = expectation(description: "all ran")
    done.expectedFulfillmentCount = 3
    let now = queue.now
    queue.schedule(after: now.advanced(by: .milliseconds(60)), tolerance: .zero, options: nil) {
      recorder.append("60 ms")
      done.fulfill()
    }
    queue.schedule(
      after: now.advanced(by: .milliseconds(20)), tolerance: .milliseconds(1), options: .init(qos: .utility)
    ) {
      recorder.append("20 ms")
      done.fulfill()
    }
    queue.schedule(after: now.advanced(by: .seconds(-1))) {
      recorder.append("past")
      done.fulfill()
    }
    wait(for: [done], timeout: 1)
    XCTAssertEqual(recorder.all, ["past", "20 ms", "60 ms"])
  }

  func test_repeating_firesSeveralTimes_thenStopsAfterCancel() {
    let queue = makeQueue("repeating")
    let recorder = Recorder<Double>()
    let threeTicks = expectation(description: "three ticks")
    let start = DispatchTime.now()
    var cancellable: Cancellable?
    queue.sync {
      cancellable = queue.schedule(after: queue.now.advanced(by: .milliseconds(10)), interval: .milliseconds(20)) {
        if recorder.appendCounting(secondsSince(start)) == 3 {
          cancellable?.cancel()
          threeTicks.fulfill()
        }
      }
    }
    wait(for: [threeTicks], timeout: 1)
    let noMoreTicks = expectation(description: "no tick after cancel")
    noMoreTicks.isInverted = true
    queue.schedule(after: queue.now.advanced(by: .milliseconds(100))) {
      if recorder.count > 3 { noMoreTicks.fulfill() }
    }
    wait(for: [noMoreTicks], timeout: 0.15)
    XCTAssertEqual(recorder.count, 3)
    // 10 ms, then every 20 ms: the third tick is at least 50 ms in.
    XCTAssertGreaterThanOrEqual(recorder.all.last ?? 0, 0.05)
  }

  func test_repeating_releasingTheCancellableStopsIt() {
    let queue = makeQueue("released")
    let recorder = Recorder<Int>()
    var cancellable: Cancellable? = queue.schedule(
      after: queue.now.advanced(by: .seconds(10)), interval: .milliseconds(10)
    ) {
      recorder.append(1)
    }
    XCTAssertNotNil(cancellable)
    cancellable = nil
    let ticked = expectation(description: "a tick after release")
    ticked.isInverted = true
    queue.schedule(after: queue.now.advanced(by: .milliseconds(50))) {
      if recorder.count > 0 { ticked.fulfill() }
    }
    wait(for: [ticked], timeout: 0.1)
    XCTAssertEqual(recorder.count, 0)
  }

  func test_repeating_withOptions_runsTheHandlerOnTheQueue() {
    let queue = makeQueue("repeating options")
    let ran = expectation(description: "ticked twice")
    ran.expectedFulfillmentCount = 2
    ran.assertForOverFulfill = false
    var labels: [String?] = []
    let cancellable = queue.schedule(
      after: queue.now, interval: .milliseconds(10), tolerance: .milliseconds(1), options: .init(qos: .userInitiated)
    ) {
      labels.append(DispatchQueue.getSpecific(key: self.queueKey))
      ran.fulfill()
    }
    wait(for: [ran], timeout: 1)
    queue.sync { cancellable.cancel() }
    XCTAssertEqual(Set(queue.sync { labels }), ["repeating options"])
  }

  func test_mainQueue_runsWhenTheMainRunLoopRuns() {
    let ran = expectation(description: "ran on main")
    var onMain = false
    DispatchQueue.main.schedule {
      onMain = Thread.isMainThread
      ran.fulfill()
    }
    wait(for: [ran], timeout: 1)  // XCTest runs the main run loop, which drains the main queue
    XCTAssertTrue(onMain)
  }

  // "Combine in Action", chapter 11, "Using DispatchQueue": a repeating action on the main queue
  // sends a counter into a PassthroughSubject that a subscriber prints, as the book writes
  // it; only the interval is 50 ms instead of one second.
  func test_book_dispatchQueueTimer_emitsACounter() {
    let queue = DispatchQueue.main
    var output: [String] = []
    let threeLines = expectation(description: "three lines")

    // 1
    let source = PassthroughSubject<Int, Never>()
    // 2
    var counter = 0
    // 3
    let cancellable = queue.schedule(after: queue.now, interval: .milliseconds(50)) {
      source.send(counter)
      counter += 1
    }
    // 4
    let subscription = source.sink {
      output.append("Timer emitted \($0)")
      if output.count == 3 { threeLines.fulfill() }
    }

    wait(for: [threeLines], timeout: 1)
    cancellable.cancel()
    subscription.cancel()
    XCTAssertEqual(Array(output.prefix(3)), ["Timer emitted 0", "Timer emitted 1", "Timer emitted 2"])
  }
}
