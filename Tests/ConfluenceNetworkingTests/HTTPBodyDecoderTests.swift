import Foundation
import XCTest

@testable import ConfluenceNetworking

/// The body framings of the socket client, fed byte by byte and in one piece without a
/// server: `Content-Length`, `Transfer-Encoding: chunked` (extensions, trailers, malformed
/// sizes) and until the close; and the response head's parser.
final class HTTPBodyDecoderTests: XCTestCase {
  /// Decodes `input` whole and byte by byte; both must agree. Returns the body and whether
  /// the decoder saw its end, or the error.
  private func decode(
    _ input: String, framing: HTTPBodyDecoder.Framing, file: StaticString = #filePath, line: UInt = #line
  ) -> Result<(String, Bool), HTTPStreamError> {
    func run(_ pieces: [[UInt8]]) -> Result<(String, Bool), HTTPStreamError> {
      var decoder = HTTPBodyDecoder(framing: framing)
      var body = Data()
      do {
        for piece in pieces {
          try piece.withBytes { raw throws(HTTPStreamError) in try decoder.decode(raw, into: &body) }
        }
      } catch {
        return .failure(error)
      }
      return .success((String(decoding: body, as: UTF8.self), decoder.isComplete))
    }
    let bytes = Array(input.utf8)
    let whole = run([bytes])
    let byByte = run(bytes.map { [$0] })
    switch (whole, byByte) {
    case (.success(let a), .success(let b)):
      XCTAssertTrue(a == b, "byte by byte: \(b) against \(a)", file: file, line: line)
    case (.failure(let a), .failure(let b)):
      XCTAssertEqual(a, b, "byte by byte", file: file, line: line)
    default:
      XCTFail("whole: \(whole), byte by byte: \(byByte)", file: file, line: line)
    }
    return whole
  }

  func test_chunked_joinsTheChunks_andEndsAtTheLastChunk() throws {
    let (body, complete) = try decode("5\r\nhello\r\n7\r\n, world\r\n0\r\n\r\nignored", framing: .chunked).get()
    XCTAssertEqual(body, "hello, world")
    XCTAssertTrue(complete)
  }

  func test_chunked_sizeInUpperAndLowerCaseHex_andExtensions_areRead() throws {
    let payload = String(repeating: "a", count: 26)
    let (body, complete) = try decode(
      "1A;name=value\r\n\(payload)\r\n1a ; x\r\n\(payload)\r\n0\r\n\r\n", framing: .chunked
    )
    .get()
    XCTAssertEqual(body, payload + payload)
    XCTAssertTrue(complete)
  }

  func test_chunked_trailers_areSkipped() throws {
    let (body, complete) = try decode("3\r\nabc\r\n0\r\nX-Trailer: 1\r\nY: 2\r\n\r\n", framing: .chunked).get()
    XCTAssertEqual(body, "abc")
    XCTAssertTrue(complete)
  }

  func test_chunked_unfinished_isNotComplete() throws {
    let (body, complete) = try decode("3\r\nabc\r\n4\r\nde", framing: .chunked).get()
    XCTAssertEqual(body, "abcde")
    XCTAssertFalse(complete)
  }

  func test_chunked_malformedSize_orMissingCRLF_fails() {
    guard case .failure(.malformedResponse) = decode("zz\r\nabc\r\n", framing: .chunked) else {
      return XCTFail("a size that is not hex")
    }
    guard case .failure(.malformedResponse) = decode("3\r\nabcX\r\n", framing: .chunked) else {
      return XCTFail("data longer than its size")
    }
    guard case .failure(.malformedResponse) = decode("\r\n", framing: .chunked) else {
      return XCTFail("a size line without a size")
    }
    guard case .failure(.malformedResponse) = decode("1000000000000000\r\n", framing: .chunked) else {
      return XCTFail("a size beyond 15 hex digits")
    }
  }

  func test_contentLength_takesThatMany_andIgnoresTheRest() throws {
    let (body, complete) = try decode("0123456789extra", framing: .length(10)).get()
    XCTAssertEqual(body, "0123456789")
    XCTAssertTrue(complete)
    let (short, done) = try decode("01234", framing: .length(10)).get()
    XCTAssertEqual(short, "01234")
    XCTAssertFalse(done)
  }

  func test_untilClose_takesEverything_andIsNeverCompleteBeforeTheClose() throws {
    let (body, complete) = try decode("all of it", framing: .untilClose).get()
    XCTAssertEqual(body, "all of it")
    XCTAssertFalse(complete)
    XCTAssertTrue(HTTPBodyDecoder(framing: .untilClose).endsAtClose)
    XCTAssertFalse(HTTPBodyDecoder(framing: .chunked).endsAtClose)
  }

  // MARK: The response head

  func test_head_statusAndHeaders_repeatedFieldsJoined_namesCaseInsensitive() throws {
    let text = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-A: 1\r\nX-A: 2\r\n\r\nbody"
    let bytes = Array(text.utf8)
    let end = try XCTUnwrap(HTTPResponseHead.endOfHead(in: bytes))
    XCTAssertEqual(String(decoding: bytes[end...], as: UTF8.self), "body")
    let head = try HTTPResponseHead(parsing: bytes[..<end])
    XCTAssertEqual(head.status, 200)
    XCTAssertEqual(head.version, "HTTP/1.1")
    XCTAssertEqual(head.field("content-type"), "text/event-stream")
    XCTAssertEqual(head.field("X-A"), "1, 2")
  }

  func test_head_framing_followsTheStatusAndHeaders() throws {
    func framing(_ text: String, method: String = "GET") throws -> HTTPBodyDecoder.Framing {
      try HTTPResponseHead(parsing: Array(text.utf8)[...]).framing(method: method)
    }
    XCTAssertEqual(try framing("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"), .chunked)
    XCTAssertEqual(try framing("HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n"), .length(12))
    XCTAssertEqual(try framing("HTTP/1.0 200 OK\r\n\r\n"), .untilClose)
    XCTAssertEqual(try framing("HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n"), HTTPBodyDecoder.Framing.none)
    XCTAssertEqual(
      try framing("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", method: "HEAD"), HTTPBodyDecoder.Framing.none)
    XCTAssertThrowsError(try framing("HTTP/1.1 200 OK\r\nContent-Length: many\r\n\r\n"))
  }

  func test_head_laxLineFeeds_areAccepted_garbageIsMalformed() throws {
    let bytes = Array("HTTP/1.1 404 Not Found\nServer: lax\n\n".utf8)
    let end = try XCTUnwrap(HTTPResponseHead.endOfHead(in: bytes))
    XCTAssertEqual(end, bytes.count)
    XCTAssertEqual(try HTTPResponseHead(parsing: bytes[..<end]).field("Server"), "lax")
    XCTAssertThrowsError(try HTTPResponseHead(parsing: Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)[...]))
    XCTAssertNil(HTTPResponseHead.endOfHead(in: Array("HTTP/1.1 200 OK\r\nX: 1\r\n".utf8)))
  }
}
