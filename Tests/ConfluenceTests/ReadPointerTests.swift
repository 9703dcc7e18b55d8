import XCTest

@testable import Confluence

/// `withReadPointer(to:_:)` hands the operators' value handlers a pointer to the value: to
/// the value itself where the code is specialised, to a copy where it is not (as in this
/// debug build's calls into the library's generic code). Either way the handler reads the
/// value, and nothing is kept or lost.
final class ReadPointerTests: XCTestCase {
  private final class Token {
    let name: String
    init(_ name: String) { self.name = name }
  }

  /// Called through a generic function, which this debug build does not specialise.
  private func read<Value>(_ value: Value) -> Value {
    withReadPointer(to: value) { $0.pointee }
  }

  func testTheHandlerReadsTheValue() {
    XCTAssertEqual(read(42), 42)
    XCTAssertEqual(read("text"), "text")
    XCTAssertEqual(read((Int8(1), 2.5)).1, 2.5)
    XCTAssertEqual(withReadPointer(to: 7) { $0.pointee + 1 }, 8)
  }

  func testAReferenceIsReleasedOnceTheCallReturns() {
    weak var released: Token?
    do {
      let token = Token("held")
      released = token
      XCTAssertEqual(read(token).name, "held")
      XCTAssertNotNil(released)
    }
    XCTAssertNil(released, "the copy the handler read is destroyed with the call")
  }

  /// A value handed to a subscriber that the operators reach through a pointer arrives
  /// whole, whatever its layout: `AnySubscriber`, `flatMap`, `switchToLatest`, `zip`.
  func testValuesThroughTheOperatorsThatHandThemByPointer() {
    let subject = PassthroughSubject<(Int8, String), Never>()
    var seen: [String] = []
    let erased = AnySubscriber<(Int8, String), Never>(
      receiveSubscription: { $0.request(.unlimited) },
      receiveValue: {
        seen.append("any \($0.0) \($0.1)"); return .none
      })
    subject.subscribe(erased)
    let flat = subject.flatMap { Just($0) }.sink { seen.append("flat \($0.0) \($0.1)") }
    let latest = subject.map { Just($0) }.switchToLatest().sink { seen.append("latest \($0.0) \($0.1)") }
    let zipped = subject.zip(subject.map(\.1)).sink { seen.append("zip \($0.0.0) \($0.1)") }
    subject.send((3, "three"))
    XCTAssertEqual(seen.sorted(), ["any 3 three", "flat 3 three", "latest 3 three", "zip 3 three"])
    flat.cancel()
    latest.cancel()
    zipped.cancel()
    // The erased subscriber is not cancelled: finishing lets the subject's subscription go.
    subject.send(completion: .finished)
  }
}
