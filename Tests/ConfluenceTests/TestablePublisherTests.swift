import Confluence
import ConfluenceTesting
import XCTest

final class TestablePublisherTests: XCTestCase {
  // The EntwineTest example of "Using Combine", with the book's timings.
  func test_bookExample_mapOnRelativePublisher() {
    let testScheduler = TestScheduler(initialClock: 0)
    let testablePublisher: TestablePublisher<String, Never> = testScheduler.createRelativeTestablePublisher([
      (100, .input("a")),
      (200, .input("b")),
      (300, .input("c")),
    ])
    let subjectUnderTest = testablePublisher.map { $0.uppercased() }
    let results = testScheduler.start { subjectUnderTest }
    XCTAssertEqual(
      results.recordedOutput,
      [
        (200, .subscription),
        (300, .input("A")),
        (400, .input("B")),
        (500, .input("C")),
      ])
  }

  func test_absolutePublisher_isHot_lateSubscriberMissesPastEvents() {
    let testScheduler = TestScheduler(initialClock: 0)
    let publisher: TestablePublisher<Int, Never> = testScheduler.createAbsoluteTestablePublisher([
      (100, .input(1)),
      (250, .input(2)),
      (300, .completion(.finished)),
    ])
    let results = testScheduler.start { publisher }
    XCTAssertEqual(results.recordedOutput, [(200, .subscription), (250, .input(2)), (300, .completion(.finished))])
  }

  func test_cancelAt900_stopsRecording_andRemovesPendingEvents() {
    let testScheduler = TestScheduler(initialClock: 0)
    let publisher: TestablePublisher<Int, Never> = testScheduler.createRelativeTestablePublisher([
      (100, .input(1)),
      (1_000, .input(2)),
    ])
    let results = testScheduler.start { publisher }
    XCTAssertEqual(results.recordedOutput, [(200, .subscription), (300, .input(1))])
    XCTAssertEqual(testScheduler.pendingActionCount, 0)
  }

  func test_failure_isRecordedWithItsTime() {
    let testScheduler = TestScheduler(initialClock: 0)
    let publisher: TestablePublisher<Int, TestError> = testScheduler.createRelativeTestablePublisher([
      (10, .input(1)),
      (20, .completion(.failure(TestError("boom")))),
      (30, .input(2)),
    ])
    let results = testScheduler.start { publisher }
    XCTAssertEqual(
      results.recordedOutput,
      [(200, .subscription), (210, .input(1)), (220, .completion(.failure(TestError("boom"))))])
  }

  func test_demand_isHonoured_valuesWithoutDemandAreDropped() {
    let testScheduler = TestScheduler(initialClock: 0)
    let publisher: TestablePublisher<Int, Never> = testScheduler.createRelativeTestablePublisher([
      (1, .input(1)), (2, .input(2)), (3, .input(3)), (4, .completion(.finished)),
    ])
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    publisher.subscribe(subscriber)
    testScheduler.run()
    XCTAssertEqual(
      subscriber.events, [.subscription("TestablePublisher"), .value(1), .value(2), .completion(.finished)])
  }

  func test_resume_runsEverything() {
    let testScheduler = TestScheduler(initialClock: 0)
    let publisher: TestablePublisher<Int, Never> = testScheduler.createRelativeTestablePublisher([
      (5, .input(1)), (8, .completion(.finished)),
    ])
    let subscriber = testScheduler.createTestableSubscriber(Int.self, Never.self)
    publisher.subscribe(subscriber)
    testScheduler.resume()
    XCTAssertEqual(subscriber.recordedOutput, [(0, .subscription), (5, .input(1)), (8, .completion(.finished))])
  }

  func test_testableSubscriber_demandIsConfigurable() {
    let testScheduler = TestScheduler(initialClock: 0)
    let publisher: TestablePublisher<Int, Never> = testScheduler.createRelativeTestablePublisher([
      (1, .input(1)), (2, .input(2)), (3, .input(3)),
    ])
    let results = testScheduler.start(initialDemand: .max(1)) { publisher }
    XCTAssertEqual(results.recordedOutput, [(200, .subscription), (201, .input(1))])
  }

  func test_cancel_releasesTheSubscriber() {
    let testScheduler = TestScheduler(initialClock: 0)
    let publisher: TestablePublisher<Int, Never> = testScheduler.createRelativeTestablePublisher([(50, .input(1))])
    var subscriber: TestSubscriber<Int, Never>? = TestSubscriber()
    publisher.subscribe(subscriber!)
    subscriber?.cancel()
    weak let weakSubscriber = subscriber
    subscriber = nil
    XCTAssertNil(weakSubscriber)
    XCTAssertEqual(testScheduler.pendingActionCount, 0)
  }
}
