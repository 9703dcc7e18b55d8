import Foundation
import XCTest

@testable import ConfluenceNetworking

/// The line splitter under `HTTPLinesPublisher` and the event-stream parser, fed chunk by
/// chunk without a server: every split of each input gives the same lines.
final class LineScannerTests: XCTestCase {
  private enum Outcome: Equatable {
    case lines([String])
    case failed([String], HTTPStreamError)
  }

  /// Feeds `chunks` and then ends the stream; the lines, and the error if one ended it.
  private func scan(
    _ chunks: [[UInt8]], terminators: LineScanner.Terminators = .lineFeed, maximumLength: Int = 1 << 20
  ) -> Outcome {
    var scanner = LineScanner(terminators: terminators, maximumLength: maximumLength)
    var lines: [String] = []
    do {
      for chunk in chunks {
        scanner.append(Data(chunk))
        while let line = try scanner.nextLine({ String(decoding: $0, as: UTF8.self) }) { lines.append(line) }
      }
      if let last = try scanner.finalLine({ String(decoding: $0, as: UTF8.self) }) { lines.append(last) }
    } catch {
      return .failed(lines, error)
    }
    return .lines(lines)
  }

  /// Scans `input` whole, byte by byte, and split at every position (and at every pair of
  /// positions for short inputs); all must agree. Returns the outcome.
  private func scanEveryWay(
    _ input: [UInt8], terminators: LineScanner.Terminators = .lineFeed, maximumLength: Int = 1 << 20,
    file: StaticString = #filePath, line: UInt = #line
  ) -> Outcome {
    let expected = scan([input], terminators: terminators, maximumLength: maximumLength)
    XCTAssertEqual(
      scan(input.map { [$0] }, terminators: terminators, maximumLength: maximumLength), expected, "byte by byte",
      file: file, line: line)
    for split in 0...input.count {
      let pieces = [Array(input[..<split]), Array(input[split...])]
      XCTAssertEqual(
        scan(pieces, terminators: terminators, maximumLength: maximumLength), expected, "split at \(split)",
        file: file, line: line)
      if input.count <= 24 {
        for second in split...input.count {
          let three = [Array(input[..<split]), Array(input[split..<second]), Array(input[second...])]
          XCTAssertEqual(
            scan(three, terminators: terminators, maximumLength: maximumLength), expected,
            "split at \(split) and \(second)", file: file, line: line)
        }
      }
    }
    return expected
  }

  private func scanEveryWay(
    _ text: String, terminators: LineScanner.Terminators = .lineFeed, maximumLength: Int = 1 << 20,
    file: StaticString = #filePath, line: UInt = #line
  ) -> Outcome {
    scanEveryWay(Array(text.utf8), terminators: terminators, maximumLength: maximumLength, file: file, line: line)
  }

  func test_LF_andCRLF_endLines_theTerminatorIsNotPartOfTheLine() {
    XCTAssertEqual(scanEveryWay("one\ntwo\r\nthree\n"), .lines(["one", "two", "three"]))
  }

  func test_CRLF_splitAcrossChunks_isOneTerminator() {
    XCTAssertEqual(scan([Array("a\r".utf8), Array("\nb\r".utf8), Array("\n".utf8)]), .lines(["a", "b"]))
  }

  func test_loneCR_isAnOrdinaryByte_forLines() {
    XCTAssertEqual(scanEveryWay("a\rb\nc"), .lines(["a\rb", "c"]))
  }

  func test_emptyLines_areEmptyStrings() {
    XCTAssertEqual(scanEveryWay("\n\r\nx\n\n"), .lines(["", "", "x", ""]))
  }

  func test_finalLineWithoutNewline_isDelivered_aTrailingNewlineAddsNoEmptyLine() {
    XCTAssertEqual(scanEveryWay("first\nlast"), .lines(["first", "last"]))
    XCTAssertEqual(scanEveryWay("first\nlast\n"), .lines(["first", "last"]))
    XCTAssertEqual(scanEveryWay(""), .lines([]))
  }

  func test_multiByteUTF8_splitInsideACharacter_isReassembled() {
    XCTAssertEqual(scanEveryWay("héllo wörld\n日本語\n🎉🎉\n"), .lines(["héllo wörld", "日本語", "🎉🎉"]))
  }

  func test_invalidUTF8_becomesReplacementCharacters() {
    XCTAssertEqual(scanEveryWay([0x61, 0xC3, 0x0A, 0x62, 0xFF, 0x0A]), .lines(["a\u{FFFD}", "b\u{FFFD}"]))
  }

  func test_lineAtTheLimit_passes_oneByteMore_throwsLineTooLong() {
    XCTAssertEqual(scanEveryWay("12345\n1234\n", maximumLength: 5), .lines(["12345", "1234"]))
    XCTAssertEqual(scanEveryWay("12345\r\n", maximumLength: 5), .lines(["12345"]), "the CR of CRLF does not count")
    XCTAssertEqual(
      scan([Array("ok\n123456\nnever".utf8)], maximumLength: 5), .failed(["ok"], .lineTooLong(maximumLength: 5)))
    XCTAssertEqual(scan([Array("123456".utf8)], maximumLength: 5), .failed([], .lineTooLong(maximumLength: 5)))
  }

  func test_tooLongLine_isDetectedBeforeItsEnd_soTheCarryStaysBounded() {
    var scanner = LineScanner(terminators: .lineFeed, maximumLength: 8)
    scanner.append(Data("1234".utf8))
    XCTAssertNil(try scanner.nextLine { _ in () })
    scanner.append(Data("56789".utf8))
    XCTAssertThrowsError(try scanner.nextLine { _ in () }) {
      XCTAssertEqual($0 as? HTTPStreamError, .lineTooLong(maximumLength: 8))
    }
  }

  func test_anyNewline_CR_LF_CRLF_eachEndOneLine() {
    XCTAssertEqual(scanEveryWay("a\rb\nc\r\nd\r\re", terminators: .anyNewline), .lines(["a", "b", "c", "d", "", "e"]))
  }

  func test_anyNewline_CRAtTheEndOfAChunk_andLFAtTheStartOfTheNext_areOneTerminator() {
    XCTAssertEqual(
      scan([Array("a\r".utf8), Array("\n".utf8), Array("\r".utf8), Array("\nb".utf8)], terminators: .anyNewline),
      .lines(["a", "", "b"]))
  }

  func test_nextLine_returnsNilUntilTheNextChunk_thenContinues() throws {
    var scanner = LineScanner(terminators: .lineFeed, maximumLength: 100)
    scanner.append(Data("a\nb".utf8))
    XCTAssertEqual(try scanner.nextLine { String(decoding: $0, as: UTF8.self) }, "a")
    XCTAssertNil(try scanner.nextLine { String(decoding: $0, as: UTF8.self) })
    XCTAssertTrue(scanner.isDrained)
    scanner.append(Data("c\n".utf8))
    XCTAssertEqual(try scanner.nextLine { String(decoding: $0, as: UTF8.self) }, "bc")
  }

  func test_sliceOfALargerData_isScannedFromItsOwnStart() throws {
    let whole = Data("skip\nline one\nline two\n".utf8)
    var scanner = LineScanner(terminators: .lineFeed, maximumLength: 100)
    scanner.append(whole[5...])
    XCTAssertEqual(try scanner.nextLine { String(decoding: $0, as: UTF8.self) }, "line one")
    XCTAssertEqual(try scanner.nextLine { String(decoding: $0, as: UTF8.self) }, "line two")
  }
}
