import Confluence
import ConfluenceTesting
import XCTest

/// Every subscription's `description`, `customMirror` and `playgroundDescription` match
/// Apple's, since that is what `print` and debuggers show. Extend this file as types land.
final class DescriptionTests: XCTestCase {
  /// Asserts the three faces of `object`: its description, the labels of its mirror's
  /// children, and a playground description equal to the description.
  private func assertDescribed(
    _ object: Any?, as description: String, mirrorLabels: [String],
    file: StaticString = #filePath, line: UInt = #line
  ) {
    guard let object else {
      XCTFail("no object to describe", file: file, line: line)
      return
    }
    XCTAssertEqual(String(describing: object), description, file: file, line: line)
    guard let reflectable = object as? CustomReflectable else {
      XCTFail("\(type(of: object)) is not CustomReflectable", file: file, line: line)
      return
    }
    XCTAssertEqual(reflectable.customMirror.children.map { $0.label ?? "" }, mirrorLabels, file: file, line: line)
    XCTAssertEqual(Mirror(reflecting: object).children.map { $0.label ?? "" }, mirrorLabels, file: file, line: line)
    guard let playground = object as? CustomPlaygroundDisplayConvertible else {
      XCTFail("\(type(of: object)) is not CustomPlaygroundDisplayConvertible", file: file, line: line)
      return
    }
    XCTAssertEqual(playground.playgroundDescription as? String, description, file: file, line: line)
  }

  /// The subscription a publisher hands its subscriber (requesting nothing, so it is kept).
  private func subscription<P: Publisher>(of publisher: P) -> Subscription? {
    let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: .none)
    publisher.subscribe(subscriber)
    return subscriber.subscription
  }

  // MARK: Publishers

  func test_just() {
    let subscription = subscription(of: Just(1))
    assertDescribed(subscription, as: "Just", mirrorLabels: [""])
    XCTAssertEqual(subscription.map { Mirror(reflecting: $0).children.first?.value as? Int }, 1)
  }

  func test_sequence_showsTheSequence() {
    assertDescribed(subscription(of: [1, 2, 3].publisher), as: "[1, 2, 3]", mirrorLabels: ["sequence"])
    assertDescribed(subscription(of: (1...3).publisher), as: "1...3", mirrorLabels: ["sequence"])
  }

  func test_emptySubscription() {
    assertDescribed(Subscriptions.empty, as: "Empty", mirrorLabels: [])
    // An empty sequence hands out the empty subscription, then finishes at once.
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    [Int]().publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.finished)])
  }

  // MARK: Operators

  func test_map_handsOnTheUpstreamSubscription() {
    assertDescribed(subscription(of: Just(1).map { $0 + 1 }), as: "Just", mirrorLabels: [""])
  }

  func test_filter() {
    // Named explicitly: `Just(1).filter` is Apple's eager overload, an `Optional.Publisher`.
    let filter = Publishers.Filter(upstream: Just(1)) { _ in true }
    // Apple's filter is a relay: the subscriber sees upstream's own subscription.
    assertDescribed(subscription(of: filter), as: "Just", mirrorLabels: [""])
  }

  func test_print() {
    assertDescribed(subscription(of: Just(1).print(to: LineCollector())), as: "Print", mirrorLabels: [])
  }

  func test_handleEvents() {
    assertDescribed(subscription(of: Just(1).handleEvents()), as: "HandleEvents", mirrorLabels: [])
  }

  func test_breakpoint() {
    // A relay, as Apple's: the subscriber sees upstream's own subscription.
    assertDescribed(subscription(of: Just(1).breakpoint()), as: "Just", mirrorLabels: [""])
    assertDescribed(
      subscription(of: Publishers.Sequence<[Int], TestError>(sequence: [1]).breakpointOnError()),
      as: "[1]", mirrorLabels: ["sequence"])
  }

  func test_operatorsShowTheirUpstreamToPrint() {
    let collector = LineCollector()
    _ = Just(1).filter { _ in true }.handleEvents().breakpoint().print("p", to: collector).sink { _ in }
    XCTAssertEqual(collector.lines.first, "p: receive subscription: (HandleEvents)", "breakpoint relays HandleEvents'")
    _ = [7].publisher.print("q", to: collector).map { $0 }.print("r", to: collector).sink { _ in }
    XCTAssertTrue(collector.lines.contains("q: receive subscription: ([7])"))
    XCTAssertTrue(collector.lines.contains("r: receive subscription: (Print)"))
  }

  // MARK: Subscribers

  func test_sink() {
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    assertDescribed(sink, as: "Sink", mirrorLabels: [])
  }
}
