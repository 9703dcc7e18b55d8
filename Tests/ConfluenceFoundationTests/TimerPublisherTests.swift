import ConfluenceFoundation
import ConfluenceTesting
import Foundation
import XCTest

final class TimerPublisherTests: XCTestCase {
  /// Waits `seconds` on the current run loop and fails if `condition` became true meanwhile.
  private func assertStays(
    _ description: String, for seconds: TimeInterval, file: StaticString = #filePath, line: UInt = #line,
    _ condition: @escaping () -> Bool
  ) {
    let happened = expectation(description: description)
    happened.isInverted = true
    let check = RunLoop.current.schedule(after: RunLoop.current.now, interval: .milliseconds(5)) {
      if condition() { happened.fulfill() }
    }
    wait(for: [happened], timeout: seconds)
    check.cancel()
  }

  private func expectValues(_ subscriber: TestSubscriber<Date, Never>, count: Int) -> XCTestExpectation {
    let reached = expectation(description: "\(count) values")
    let check = RunLoop.current.schedule(after: RunLoop.current.now, interval: .milliseconds(2)) {
      if subscriber.values.count >= count { reached.fulfill() }
    }
    addTeardownBlock { check.cancel() }
    reached.assertForOverFulfill = false
    return reached
  }

  func test_publish_storesItsParameters() {
    // RunLoop.SchedulerOptions has no public initializer, as on Darwin.
    let publisher = Timer.publish(every: 0.5, tolerance: 0.1, on: .main, in: .common, options: nil)
    XCTAssertEqual(publisher.interval, 0.5)
    // As Apple's (recorded by the conformance suite): publish(every:tolerance:…) drops the
    // tolerance; the initialiser keeps it.
    XCTAssertNil(publisher.tolerance)
    XCTAssertEqual(Timer.TimerPublisher(interval: 1, tolerance: 0.1, runLoop: .main, mode: .common).tolerance, 0.1)
    XCTAssertTrue(publisher.runLoop === RunLoop.main)
    XCTAssertEqual(publisher.mode, RunLoop.Mode.common)
    let defaults = Timer.TimerPublisher(interval: 1, runLoop: .current, mode: .default)
    XCTAssertNil(defaults.tolerance)
    XCTAssertNil(defaults.options)
  }

  func test_connect_ticksTheCurrentDate_afterEachInterval() {
    let publisher = Timer.publish(every: 0.03, on: .main, in: .common)
    let subscriber = TestSubscriber<Date, Never>()
    publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.events.count, 1)
    XCTAssertNotNil(subscriber.subscription)
    let connectedAt = Date()
    let connection = publisher.connect()
    wait(for: [expectValues(subscriber, count: 3)], timeout: 1)
    connection.cancel()
    let values = Array(subscriber.values.prefix(3))
    XCTAssertGreaterThanOrEqual(values[0].timeIntervalSince(connectedAt), 0.029, "first tick one interval in")
    XCTAssertLessThan(values[0], values[1])
    XCTAssertLessThan(values[1], values[2])
    XCTAssertGreaterThanOrEqual(values[2].timeIntervalSince(connectedAt), 0.089)
    XCTAssertLessThanOrEqual(values[2], Date())
    XCTAssertNil(subscriber.completion)
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_beforeConnect_nothingTicks() {
    let publisher = Timer.publish(every: 0.01, on: .main, in: .default)
    let subscriber = TestSubscriber<Date, Never>()
    publisher.subscribe(subscriber)
    assertStays("a tick before connect", for: 0.1) { !subscriber.values.isEmpty }
    XCTAssertEqual(subscriber.events.count, 1)
    XCTAssertNotNil(subscriber.subscription)
  }

  func test_cancellingTheConnection_stopsTicks_withoutCompletion() {
    let publisher = Timer.publish(every: 0.01, on: .main, in: .default)
    let subscriber = TestSubscriber<Date, Never>()
    publisher.subscribe(subscriber)
    let connection = publisher.connect()
    wait(for: [expectValues(subscriber, count: 2)], timeout: 1)
    connection.cancel()
    let countAtCancel = subscriber.values.count
    assertStays("a tick after the connection was cancelled", for: 0.1) { subscriber.values.count > countAtCancel }
    XCTAssertNil(subscriber.completion)
    XCTAssertFalse(subscriber.isCancelled)
  }

  func test_demand_isRespected_andTicksWithoutDemandAreDropped() {
    let publisher = Timer.publish(every: 0.01, on: .main, in: .default)
    let subscriber = TestSubscriber<Date, Never>(initialDemand: .max(2))
    publisher.subscribe(subscriber)
    let connection = publisher.connect()
    defer { connection.cancel() }
    wait(for: [expectValues(subscriber, count: 2)], timeout: 1)
    assertStays("a value beyond demand", for: 0.08) { subscriber.values.count > 2 }
    // Several ticks found no demand; none were kept for later.
    subscriber.request(.max(1))
    wait(for: [expectValues(subscriber, count: 3)], timeout: 1)
    assertStays("a value beyond demand", for: 0.05) { subscriber.values.count > 3 }
    XCTAssertEqual(subscriber.values.count, 3)
    XCTAssertEqual(subscriber.demands, [.max(2), .max(1)])
  }

  func test_demandFromReceive_addsUp() {
    let publisher = Timer.publish(every: 0.01, on: .main, in: .default)
    let subscriber = TestSubscriber<Date, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    publisher.subscribe(subscriber)
    let connection = publisher.connect()
    defer { connection.cancel() }
    wait(for: [expectValues(subscriber, count: 3)], timeout: 1)
    XCTAssertEqual(Array(subscriber.demands.prefix(3)), [.max(1), .max(1), .max(1)])
  }

  func test_noDemand_noValues() {
    let publisher = Timer.publish(every: 0.01, on: .main, in: .default)
    let subscriber = TestSubscriber<Date, Never>(initialDemand: .none)
    publisher.subscribe(subscriber)
    let connection = publisher.connect()
    defer { connection.cancel() }
    assertStays("a value without demand", for: 0.08) { !subscriber.values.isEmpty }
  }

  func test_cancelFromReceive_stopsThatSubscriberOnly() {
    let publisher = Timer.publish(every: 0.01, on: .main, in: .default)
    let quitter = TestSubscriber<Date, Never>()
    quitter.onValue = { _ in
      quitter.cancel()
      return .none
    }
    let stayer = TestSubscriber<Date, Never>()
    publisher.subscribe(quitter)
    publisher.subscribe(stayer)
    let connection = publisher.connect()
    defer { connection.cancel() }
    wait(for: [expectValues(stayer, count: 4)], timeout: 1)
    XCTAssertEqual(quitter.values.count, 1)
    XCTAssertTrue(quitter.isCancelled)
    XCTAssertNil(stayer.completion)
  }

  func test_connectTwice_sharesOneTimer() {
    let publisher = Timer.publish(every: 0.01, on: .main, in: .default)
    let subscriber = TestSubscriber<Date, Never>()
    publisher.subscribe(subscriber)
    let first = publisher.connect()
    let second = publisher.connect()
    wait(for: [expectValues(subscriber, count: 2)], timeout: 1)
    first.cancel()
    let countAtCancel = subscriber.values.count
    assertStays("a tick from a second timer", for: 0.08) { subscriber.values.count > countAtCancel }
    second.cancel()
  }

  func test_reconnect_afterCancel_ticksAgain() {
    let publisher = Timer.publish(every: 0.01, on: .main, in: .default)
    let subscriber = TestSubscriber<Date, Never>()
    publisher.subscribe(subscriber)
    publisher.connect().cancel()
    let connection = publisher.connect()
    wait(for: [expectValues(subscriber, count: 2)], timeout: 1)
    connection.cancel()
  }

  func test_ticksOnAnotherThreadsRunLoop() {
    let loopThread = RunLoopThread(passLength: 5)
    defer { loopThread.stop() }
    let runLoop = loopThread.runLoop
    let publisher = Timer.publish(every: 0.01, on: runLoop, in: .default)
    let onLoop = Recorder<Bool>()
    let twoTicks = expectation(description: "two ticks")
    twoTicks.expectedFulfillmentCount = 2
    twoTicks.assertForOverFulfill = false
    let cancellable = publisher.sink { _ in
      onLoop.append(!Thread.isMainThread && RunLoop.current === runLoop)
      twoTicks.fulfill()
    }
    let connection = publisher.connect()  // from the main thread, onto a sleeping loop
    wait(for: [twoTicks], timeout: 1)
    connection.cancel()
    cancellable.cancel()
    XCTAssertEqual(Set(onLoop.all), [true])
    runLoop.schedule {}  // lets the loop see `stop()` now
  }

  func test_cancelAndDisconnect_releaseTheSubscriber() {
    let tracker = LifetimeTracker()
    weak var weakPublisher: Timer.TimerPublisher?
    do {
      let publisher = Timer.publish(every: 0.01, on: .main, in: .default)
      weakPublisher = publisher
      let ticked = expectation(description: "ticked")
      ticked.assertForOverFulfill = false
      let cancellable = publisher.sink { [probe = tracker.make()] _ in
        _ = probe
        ticked.fulfill()
      }
      let connection = publisher.connect()
      wait(for: [ticked], timeout: 1)
      XCTAssertEqual(tracker.liveCount, 1)
      cancellable.cancel()
      XCTAssertEqual(tracker.liveCount, 0, "cancel released the subscriber")
      connection.cancel()
    }
    XCTAssertNil(weakPublisher, "the cancelled connection released the publisher's state")
  }

  // Apple: neither the connection nor the subscription customizes its reflection.
  func test_connectionAndSubscription_doNotCustomizeTheirReflection() throws {
    let publisher = Timer.publish(every: 2, tolerance: 0.5, on: .main, in: .default)
    let connection = publisher.connect()
    defer { connection.cancel() }
    XCTAssertFalse(connection is CustomStringConvertible)
    XCTAssertFalse(connection is CustomReflectable)
    XCTAssertFalse(connection is CustomPlaygroundDisplayConvertible)
    let subscriber = TestSubscriber<Date, Never>(initialDemand: .none)
    publisher.subscribe(subscriber)
    let subscription = try XCTUnwrap(subscriber.subscription)
    XCTAssertFalse(subscription is CustomStringConvertible)
    XCTAssertFalse(subscription is CustomReflectable)
    XCTAssertFalse(subscription is CustomPlaygroundDisplayConvertible)
    XCTAssertFalse(subscription is CustomDebugStringConvertible)
    subscriber.cancel()
  }

  // "Combine in Action", chapter 11, "Using the Timer class": a timer publisher, autoconnected and
  // counted with scan, exactly as the book writes it; only the interval is 50 ms instead
  // of one second.
  func test_book_timerPublisher_autoconnect_scanCounter() {
    var output: [String] = []
    let threeLines = expectation(description: "three lines")
    let subscription =
      Timer
      .publish(every: 0.05, on: .main, in: .common)
      .autoconnect()
      .scan(0) { counter, _ in counter + 1 }
      .sink { counter in
        output.append("Counter is \(counter)")
        if counter == 3 { threeLines.fulfill() }
      }
    wait(for: [threeLines], timeout: 1)
    subscription.cancel()
    XCTAssertEqual(Array(output.prefix(3)), ["Counter is 1", "Counter is 2", "Counter is 3"])
  }
}
