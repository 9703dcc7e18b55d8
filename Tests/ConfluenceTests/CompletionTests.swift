import Confluence
import ConfluenceTesting
import Foundation
import XCTest

final class CompletionTests: XCTestCase {
  func test_equatable() {
    XCTAssertEqual(Subscribers.Completion<TestError>.finished, .finished)
    XCTAssertEqual(Subscribers.Completion<TestError>.failure(TestError("a")), .failure(TestError("a")))
    XCTAssertNotEqual(Subscribers.Completion<TestError>.failure(TestError("a")), .finished)
  }

  func test_codable_roundTrips() throws {
    struct CodableError: Error, Codable, Equatable { let code: Int }
    let completions: [Subscribers.Completion<CodableError>] = [.finished, .failure(CodableError(code: 7))]
    let data = try JSONEncoder().encode(completions)
    XCTAssertEqual(try JSONDecoder().decode([Subscribers.Completion<CodableError>].self, from: data), completions)
  }
}
