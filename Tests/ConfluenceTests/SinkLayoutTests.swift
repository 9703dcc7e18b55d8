import XCTest

@testable import Confluence

/// `Sink.letGoOfClosures()` replaces the closures where it expects them: the object's first
/// stored property. `init` checks this with `assert`, which checks nothing in the optimised
/// build the library has in every configuration; this test checks it for sinks of several
/// input and failure types, whose closures' layout does not depend on them.
final class SinkLayoutTests: XCTestCase {
  private struct Failure: Error {}

  func test_closuresAreTheFirstStoredProperty() {
    XCTAssertTrue(
      Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in }).closuresAreWhereLetGoLooks())
    XCTAssertTrue(
      Subscribers.Sink<String, Failure>(receiveCompletion: { _ in }, receiveValue: { _ in })
        .closuresAreWhereLetGoLooks())
    XCTAssertTrue(
      Subscribers.Sink<(Int, [Double]), Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        .closuresAreWhereLetGoLooks())
  }

  private final class Token {}

  /// The path for code the compiler did not specialise writes the words itself: the
  /// closures' captures are released, the sink stays whole (its description, a cancel, a
  /// value and a completion after it), and nothing it was given runs again.
  func test_lettingGoUnspecialised_releasesTheCapturesAndLeavesTheSinkWhole() {
    func check<Input, Failure: Error>(_ input: Input, _: Failure.Type) {
      weak var valueCapture: Token?
      weak var completionCapture: Token?
      var calls = 0
      var sink: Subscribers.Sink<Input, Failure>?
      do {
        let forValues = Token()
        let forCompletion = Token()
        valueCapture = forValues
        completionCapture = forCompletion
        sink = Subscribers.Sink<Input, Failure>(
          receiveCompletion: { _ in withExtendedLifetime(forCompletion) { calls += 1 } },
          receiveValue: { _ in withExtendedLifetime(forValues) { calls += 1 } })
      }
      XCTAssertNotNil(valueCapture)
      XCTAssertNotNil(completionCapture)
      sink?.letGoOfClosuresUnspecialised()
      XCTAssertNil(valueCapture, "the value closure's capture outlived the letting go")
      XCTAssertNil(completionCapture, "the completion closure's capture outlived the letting go")
      XCTAssertEqual(sink?.description, "Sink")
      sink?.cancel()
      _ = sink?.receive(input)
      sink?.receive(completion: .finished)
      XCTAssertEqual(calls, 0)
      sink = nil
    }
    check(1, Never.self)
    check("a string", Failure.self)
    check((1, [2.5]), Never.self)
  }
}
