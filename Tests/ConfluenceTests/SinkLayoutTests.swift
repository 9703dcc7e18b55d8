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
}
