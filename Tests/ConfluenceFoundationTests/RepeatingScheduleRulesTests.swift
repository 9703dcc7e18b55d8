import ConfluenceFoundation
import Foundation
import XCTest

/// The rule Apple gives every Foundation scheduler's `schedule(after:interval:tolerance:options:_:)`,
/// checked against each of them (`DispatchQueue`, `OperationQueue`, `RunLoop`) on a real
/// clock, with generous bounds: the action runs at the date, then every interval, until the
/// returned `AnyCancellable` is cancelled (or released).
final class RepeatingScheduleRulesTests: XCTestCase {
  /// Schedules `action` to repeat on one scheduler and returns the cancellable.
  private typealias Repeat = (_ delay: Double, _ interval: Double, _ action: @escaping () -> Void) -> Cancellable

  private var members: [(name: String, schedule: Repeat)] {
    let dispatchQueue = DispatchQueue(label: "repeating rules")
    let operationQueue = OperationQueue()
    operationQueue.maxConcurrentOperationCount = 1
    let runLoop = RunLoop.current
    return [
      (
        "DispatchQueue",
        { delay, interval, action in
          dispatchQueue.schedule(
            after: dispatchQueue.now.advanced(by: .init(floatLiteral: delay)), interval: .init(floatLiteral: interval),
            action)
        }
      ),
      (
        "OperationQueue",
        { delay, interval, action in
          operationQueue.schedule(
            after: operationQueue.now.advanced(by: .init(delay)), interval: .init(interval), action)
        }
      ),
      (
        // Its ticks run while the test waits (XCTest's wait runs the current run loop).
        "RunLoop",
        { delay, interval, action in
          runLoop.schedule(after: runLoop.now.advanced(by: .init(delay)), interval: .init(interval), action)
        }
      ),
    ]
  }

  func test_runsAtTheDate_thenEveryInterval_untilCancelled() {
    let delay = 0.3
    let interval = 0.3
    let tickCount = 5
    for (name, schedule) in members {
      let start = DispatchTime.now()
      let ticks = Recorder<Double>()
      let allTicks = expectation(description: "\(name): \(tickCount) ticks")
      allTicks.expectedFulfillmentCount = tickCount
      allTicks.assertForOverFulfill = false
      let cancellable = schedule(delay, interval) {
        ticks.append(secondsSince(start))
        allTicks.fulfill()
      }
      XCTAssertTrue(cancellable is AnyCancellable, name)
      wait(for: [allTicks], timeout: 10)
      cancellable.cancel()
      let times = Array(ticks.all.prefix(tickCount))
      guard times.count == tickCount else {
        XCTFail("\(name): \(times.count) ticks")
        continue
      }
      XCTAssertEqual(times[0], delay, accuracy: delay / 3, "\(name): the first run is at the date")
      let intervals = zip(times.dropFirst(), times).map { $0 - $1 }
      let average = intervals.reduce(0, +) / Double(intervals.count)
      XCTAssertEqual(average, interval, accuracy: interval / 3, "\(name): every interval (\(intervals))")
      let countAtCancel = ticks.count
      let noMore = expectation(description: "\(name): no tick after the cancel")
      noMore.isInverted = true
      DispatchQueue.global().asyncAfter(deadline: .now() + 2 * interval) {
        if ticks.count > countAtCancel + 1 { noMore.fulfill() }
      }
      wait(for: [noMore], timeout: 3 * interval)
      XCTAssertLessThanOrEqual(ticks.count, countAtCancel + 1, "\(name): at most a tick already going")
    }
  }

  func test_releasingTheCancellable_stopsIt() {
    for (name, schedule) in members {
      let ticks = Recorder<Int>()
      var cancellable: Cancellable? = schedule(0.05, 0.01) { ticks.append(1) }
      XCTAssertNotNil(cancellable)
      cancellable = nil
      let ticked = expectation(description: "\(name): a tick after the release")
      ticked.isInverted = true
      DispatchQueue.global().asyncAfter(deadline: .now() + 0.15) {
        if ticks.count > 0 { ticked.fulfill() }
      }
      wait(for: [ticked], timeout: 0.2)
      XCTAssertEqual(ticks.count, 0, name)
    }
  }
}
