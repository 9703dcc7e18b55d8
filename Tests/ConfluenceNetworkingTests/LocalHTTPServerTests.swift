import ConfluenceTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `LocalHTTPServer` itself: a server started right after another one stopped answers with
/// its own routes, never the stopped one's.
final class LocalHTTPServerTests: XCTestCase {
  /// The stopped server's accept loop must not outlive its listening socket's descriptor:
  /// the next server's socket may get the same number (this once answered a test's request
  /// with the stopped server's 404).
  func test_aServerStartedRightAfterAnotherStopped_answersWithItsOwnRoutes() throws {
    for iteration in 0..<200 {
      let previous = try LocalHTTPServer()
      previous.stop()
      let server = try LocalHTTPServer()
      defer { server.stop() }
      server.route("/mine", .respond(status: 200, body: Data("mine".utf8)))
      let body = try Data(contentsOf: server.url("/mine"))
      XCTAssertEqual(String(decoding: body, as: UTF8.self), "mine", "iteration \(iteration)")
      if String(decoding: body, as: UTF8.self) != "mine" { return }
    }
  }
}
