import Confluence
import ConfluenceTesting
import Foundation
import XCTest

/// Chapter 13 ("Resource Management") and chapter 9's multicast of a request, from
/// "Combine in Action", with the book's printed output. A FakeDataTask stands in for URLSession's
/// DataTaskPublisher (the response is 303425 bytes, as in the book).
final class ResourceSharingBookTests: XCTestCase {
  private let response = Data(count: 303_425)

  func test_share_secondSubscriberJoinsTheSameRequest() {
    let log = Transcript()
    let task = FakeDataTask()
    let shared = task.map(\.self).print("shared", to: log).share()
    log.say("subscribing first")
    let subscription1 = shared.sink(
      receiveCompletion: { _ in }, receiveValue: { log.say("subscription1 received: '\($0)'") })
    log.say("subscribing second")
    let subscription2 = shared.sink(
      receiveCompletion: { _ in }, receiveValue: { log.say("subscription2 received: '\($0)'") })
    task.respond(with: response)
    XCTAssertEqual(
      log.lines,
      [
        "subscribing first",
        "shared: receive subscription: (DataTaskPublisher)",
        "shared: request unlimited",
        "subscribing second",
        "shared: receive value: (303425 bytes)",
        "subscription1 received: '303425 bytes'",
        "subscription2 received: '303425 bytes'",
        "shared: receive finished",
      ])
    XCTAssertEqual(task.requestsStarted, 1)
    _ = (subscription1, subscription2)
  }

  func test_withoutShare_eachSubscriberStartsItsOwnRequest() {
    let log = Transcript()
    let task = FakeDataTask()
    let unshared = task.map(\.self).print("shared", to: log)
    log.say("subscribing first")
    let subscription1 = unshared.sink(
      receiveCompletion: { _ in }, receiveValue: { log.say("subscription1 received: '\($0)'") })
    log.say("subscribing second")
    let subscription2 = unshared.sink(
      receiveCompletion: { _ in }, receiveValue: { log.say("subscription2 received: '\($0)'") })
    task.respond(with: response)
    XCTAssertEqual(
      log.lines,
      [
        "subscribing first",
        "shared: receive subscription: (DataTaskPublisher)",
        "shared: request unlimited",
        "subscribing second",
        "shared: receive subscription: (DataTaskPublisher)",
        "shared: request unlimited",
        "shared: receive value: (303425 bytes)",
        "subscription1 received: '303425 bytes'",
        "shared: receive finished",
        "shared: receive value: (303425 bytes)",
        "subscription2 received: '303425 bytes'",
        "shared: receive finished",
      ])
    XCTAssertEqual(task.requestsStarted, 2)
    _ = (subscription1, subscription2)
  }

  func test_share_lateSubscriberReceivesOnlyTheCompletion() {
    let log = Transcript()
    let task = FakeDataTask()
    let shared = task.map(\.self).print("shared", to: log).share()
    log.say("subscribing first")
    let subscription1 = shared.sink(
      receiveCompletion: { _ in }, receiveValue: { log.say("subscription1 received: '\($0)'") })
    task.respond(with: response)
    log.say("subscribing second")
    let subscription2 = shared.sink(
      receiveCompletion: { log.say("subscription2 completion \($0)") },
      receiveValue: { log.say("subscription2 received: '\($0)'") })
    XCTAssertEqual(
      log.lines,
      [
        "subscribing first",
        "shared: receive subscription: (DataTaskPublisher)",
        "shared: request unlimited",
        "shared: receive value: (303425 bytes)",
        "subscription1 received: '303425 bytes'",
        "shared: receive finished",
        "subscribing second",
        "subscription2 completion finished",
      ])
    XCTAssertEqual(task.requestsStarted, 1, "no second request")
    _ = (subscription1, subscription2)
  }

  func test_multicastSubject_startsWorkOnlyOnConnect() {
    let log = Transcript()
    let task = FakeDataTask()
    let subject = PassthroughSubject<Data, URLError>()
    let multicasted = task.map(\.self).print("multicast", to: log).multicast(subject: subject)
    let subscription1 = multicasted.sink(
      receiveCompletion: { _ in }, receiveValue: { log.say("subscription1 received: '\($0)'") })
    let subscription2 = multicasted.sink(
      receiveCompletion: { _ in }, receiveValue: { log.say("subscription2 received: '\($0)'") })
    XCTAssertEqual(log.lines, [], "nothing happens before connect()")
    let cancellable = multicasted.connect()
    task.respond(with: response)
    XCTAssertEqual(
      log.lines,
      [
        "multicast: receive subscription: (DataTaskPublisher)",
        "multicast: request unlimited",
        "multicast: receive value: (303425 bytes)",
        "subscription1 received: '303425 bytes'",
        "subscription2 received: '303425 bytes'",
        "multicast: receive finished",
      ])
    _ = (subscription1, subscription2, cancellable)
  }

  func test_chapter9_multicastOfARequest_withClosure() {
    let task = FakeDataTask()
    let publisher = task.map(\.self).multicast { PassthroughSubject<Data, URLError>() }
    var received: [String] = []
    let subscription1 = publisher.sink(receiveCompletion: { _ in }, receiveValue: { received.append("one: \($0)") })
    let subscription2 = publisher.sink(receiveCompletion: { _ in }, receiveValue: { received.append("two: \($0)") })
    let connection = publisher.connect()
    task.respond(with: Data(count: 12))
    XCTAssertEqual(received, ["one: 12 bytes", "two: 12 bytes"])
    XCTAssertEqual(task.requestsStarted, 1)
    _ = (subscription1, subscription2, connection)
  }
}
