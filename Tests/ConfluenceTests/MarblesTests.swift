import Confluence
import ConfluenceTesting
import XCTest

final class MarblesTests: XCTestCase {
  func test_parse_oneTickPerCharacter() {
    let events = TestSequence<Int, TestError>(marbles: "-a--b-#", values: ["a": 1, "b": 2], error: TestError())
    XCTAssertEqual(events, [(1, .input(1)), (4, .input(2)), (6, .completion(.failure(TestError())))])
  }

  func test_parse_groupsShareATick_andCountAsOne() {
    let events = TestSequence<String, Never>(marbles: "a(bc)-d|")
    XCTAssertEqual(
      events, [(0, .input("a")), (1, .input("b")), (1, .input("c")), (3, .input("d")), (4, .completion(.finished))])
  }

  func test_render_roundTrips() {
    for diagram in ["-a--b-c|", "(ab)--c", "---|", "a(b|)"] {
      XCTAssertEqual(TestSequence<String, Never>(marbles: diagram).marbles(), diagram)
    }
  }

  func test_render_startsAtTheSubscription() {
    let recorded: TestSequence<Int, Never> = [(200, .subscription), (203, .input(7)), (205, .completion(.finished))]
    XCTAssertEqual(recorded.marbles(values: ["x": 7]), "---x-|")
    XCTAssertEqual(recorded.marbles { _ in "?" }, "---?-|")
  }

  func test_marblesInMarblesOut_throughAPipeline() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "-a--b-c|")
    let results = scheduler.start { input.map { $0.uppercased() } }
    XCTAssertEqual(results.recordedOutput.marbles(), "-A--B-C|")
  }

  func test_failureMarble() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "-1-#", values: ["1": 1], error: TestError())
    let results = scheduler.start { input }
    XCTAssertEqual(results.recordedOutput.marbles(values: ["1": 1]), "-1-#")
  }
}
