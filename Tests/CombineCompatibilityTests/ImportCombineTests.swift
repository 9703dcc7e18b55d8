import Combine
import XCTest

/// Code written for Apple's Combine compiles against `import Combine` unchanged.
final class ImportCombineTests: XCTestCase {
  func test_appleStylePipeline_compilesAndRuns() {
    var output: [String] = []
    let cancellable: AnyCancellable = (1...5).publisher
      .filter { $0.isMultiple(of: 2) }
      .map { "#\($0)" }
      .sink { output.append($0) }
    XCTAssertEqual(output, ["#2", "#4"])
    cancellable.cancel()
  }
}
