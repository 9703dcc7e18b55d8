import Confluence
import ConfluenceTesting
import XCTest

final class MakeConnectableTests: XCTestCase {
  func test_holdsValuesUntilConnect() {
    let connectable = [1, 2, 3].publisher.makeConnectable()
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    connectable.subscribe(first)
    connectable.subscribe(second)
    XCTAssertEqual(first.values, [])
    let connection = connectable.connect()
    XCTAssertEqual(first.values, [1, 2, 3])
    XCTAssertEqual(second.values, [1, 2, 3])
    XCTAssertEqual(second.completion, .finished)
    connection.cancel()
  }

  func test_copiesShareOneConnectionPoint() {
    let connectable = [1].publisher.makeConnectable()
    let copy = connectable
    let subscriber = TestSubscriber<Int, Never>()
    copy.subscribe(subscriber)
    _ = connectable.connect()
    XCTAssertEqual(subscriber.values, [1])
  }

  func test_shareThenMakeConnectable_appleExample() {
    let subject = PassthroughSubject<Int, Never>()
    let connectable = subject.share().makeConnectable()
    var received: [String] = []
    let first = connectable.sink { received.append("1: \($0)") }
    let second = connectable.sink { received.append("2: \($0)") }
    subject.send(0)
    XCTAssertEqual(received, [], "not connected yet")
    let connection = connectable.connect()
    subject.send(1)
    XCTAssertEqual(received, ["1: 1", "2: 1"])
    _ = (first, second, connection)
  }
}
