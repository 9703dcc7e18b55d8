import Confluence
import XCTest

final class CombineIdentifierTests: XCTestCase {
  func test_init_isUnique() {
    let ids = (0..<1000).map { _ in CombineIdentifier() }
    XCTAssertEqual(Set(ids).count, 1000)
  }

  func test_initWithObject_isStableAndDistinct() {
    final class Object {}
    let a = Object()
    let b = Object()
    XCTAssertEqual(CombineIdentifier(a), CombineIdentifier(a))
    XCTAssertNotEqual(CombineIdentifier(a), CombineIdentifier(b))
  }

  func test_classConformers_getIdentifierFromIdentity() {
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    XCTAssertEqual(sink.combineIdentifier, CombineIdentifier(sink))
  }

  func test_fanInSideSubscribers_haveDistinctStableIdentifiers_unlikeAnyObjectsOrCountersOnes() {
    // What zip and combineLatest hand each upstream: identifiers that tell the sides and
    // the subscriptions apart, the same every time a side is asked.
    final class Recorder<Output>: Publisher {
      typealias Failure = Never
      var identifiers: [CombineIdentifier] = []
      func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        identifiers += [subscriber.combineIdentifier, subscriber.combineIdentifier]
        subscriber.receive(subscription: Subscriptions.empty)
      }
    }
    let a = Recorder<Int>()
    let b = Recorder<String>()
    let c = Recorder<Int>()
    let d = Recorder<Int>()
    let zip = a.zip(b).sink { _ in }
    let combined = a.combineLatest(b, c, d).sink { _ in }
    // `a` and `b` were subscribed by both (4 identifiers each), `c` and `d` by the
    // combineLatest only (2 each); every subscriber was asked twice.
    let recorded = [a.identifiers, b.identifiers, c.identifiers, d.identifiers]
    XCTAssertEqual(recorded.map(\.count), [4, 4, 2, 2])
    var all: [CombineIdentifier] = []
    for identifiers in recorded {
      for pair in stride(from: 0, to: identifiers.count - 1, by: 2) {
        XCTAssertEqual(identifiers[pair], identifiers[pair + 1], "stable")
        all.append(identifiers[pair])
      }
    }
    XCTAssertEqual(Set(all).count, 6, "2 sides of the zip and 4 of the combineLatest, all different")
    let others = (0..<100).map { _ in CombineIdentifier() } + [CombineIdentifier(a), CombineIdentifier(b)]
    XCTAssertTrue(Set(all).isDisjoint(with: others))
    withExtendedLifetime((zip, combined)) {}
  }

  func test_description_isHex() {
    let description = CombineIdentifier().description
    XCTAssertTrue(description.hasPrefix("0x"), description)
    XCTAssertNotNil(UInt64(description.dropFirst(2), radix: 16))
  }
}
