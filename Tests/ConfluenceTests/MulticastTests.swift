import Confluence
import ConfluenceTesting
import XCTest

final class MulticastTests: XCTestCase {
  func test_subscribesUpstreamOnlyOnConnect_thenFansOut() {
    let upstream = ManualPublisher<Int, TestError>()
    let multicast = upstream.multicast { PassthroughSubject<Int, TestError>() }
    let first = TestSubscriber<Int, TestError>()
    let second = TestSubscriber<Int, TestError>()
    multicast.subscribe(first)
    multicast.subscribe(second)
    XCTAssertEqual(upstream.requested, [])
    let connection = multicast.connect()
    XCTAssertEqual(upstream.requested, [.unlimited])
    upstream.send(1)
    upstream.finish()
    XCTAssertEqual(first.events, [.subscription("Multicast"), .value(1), .completion(.finished)])
    XCTAssertEqual(second.values, [1])
    connection.cancel()
  }

  func test_createSubject_isCalledOnce() {
    var made = 0
    let multicast = [1, 2].publisher.multicast { () -> PassthroughSubject<Int, Never> in
      made += 1
      return PassthroughSubject()
    }
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    multicast.subscribe(first)
    multicast.subscribe(second)
    _ = multicast.connect()
    XCTAssertEqual(made, 1)
    XCTAssertEqual(first.values, [1, 2])
    XCTAssertEqual(second.values, [1, 2])
  }

  func test_perSubscriberDemand_isHonouredByTheSubject() {
    let subject = PassthroughSubject<Int, Never>()
    let multicast = [1, 2, 3].publisher.multicast(subject: subject)
    let limited = TestSubscriber<Int, Never>(initialDemand: .max(1))
    multicast.subscribe(limited)
    _ = multicast.connect()
    XCTAssertEqual(limited.values, [1], "values beyond a subscriber's demand are dropped for it")
  }

  func test_cancellingTheConnection_cancelsUpstream() {
    let upstream = ManualPublisher<Int, TestError>()
    let multicast = upstream.multicast(subject: PassthroughSubject<Int, TestError>())
    let connection = multicast.connect()
    connection.cancel()
    XCTAssertEqual(upstream.cancels, 1)
  }

  func test_cancelInsideReceive_leavesOtherSubscribers() {
    let upstream = ManualPublisher<Int, TestError>()
    let multicast = upstream.multicast(subject: PassthroughSubject<Int, TestError>())
    let quitter = TestSubscriber<Int, TestError>()
    quitter.onValue = { _ in
      quitter.cancel(); return .none
    }
    let stayer = TestSubscriber<Int, TestError>()
    multicast.subscribe(quitter)
    multicast.subscribe(stayer)
    let connection = multicast.connect()
    upstream.send(1)
    upstream.send(2)
    XCTAssertEqual(quitter.values, [1])
    XCTAssertEqual(stayer.values, [1, 2])
    connection.cancel()
  }
}
