import Foundation
import XCTest

/// The `news` binary writing into a pipe whose reader goes away early, as in
/// `news top --demo | head -2`: it must end quietly, with status 0.
final class PipeTests: XCTestCase {
  /// Runs `news arguments | reader` in bash; returns what the reader printed, the status of
  /// `news` and what `news` wrote on standard error.
  func pipe(_ arguments: [String], into reader: String) throws -> (stdout: String, status: Int32, stderr: String) {
    let binary = try newsBinary().path
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("news-pipe-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let errors = folder.appendingPathComponent("stderr").path
    let quoted = ([binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", "\(quoted) 2>'\(errors)' | \(reader); echo \"status ${PIPESTATUS[0]}\""]
    process.environment = ProcessInfo.processInfo.environment.merging(["XDG_DATA_HOME": folder.path]) { $1 }
    let out = Pipe()
    process.standardOutput = out
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    if lines.last == "" { lines.removeLast() }
    let statusLine = try XCTUnwrap(lines.popLast())
    XCTAssertTrue(statusLine.hasPrefix("status "), statusLine)
    let status = Int32(statusLine.dropFirst("status ".count)) ?? -1
    let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
    return (lines.map { $0 + "\n" }.joined(), status, stderr)
  }

  func test_top_intoHead2_printsTwoLines_andExits0() throws {
    let run = try pipe(["top", "--demo", "--limit", "100"], into: "head -2")
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(run.stderr, "")
    XCTAssertEqual(run.stdout.split(separator: "\n").count, 2, run.stdout)
    XCTAssertTrue(run.stdout.hasPrefix("  1. When your data doesn’t fit in memory"), run.stdout)
  }

  func test_ask_intoHead30_exits0() throws {
    let run = try pipe(["ask", "--demo"], into: "head -30")
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(run.stderr, "")
    XCTAssertEqual(run.stdout.split(separator: "\n").count, 30, run.stdout)
  }

  func test_readerThatNeverReads_endsTheRunQuietly() throws {
    // `true` exits at once: every write of news meets a closed pipe.
    for arguments in [
      ["top", "--demo", "--limit", "50", "--latency", "0"], ["item", "8863", "--demo", "--latency", "0"], ["version"],
    ] {
      let run = try pipe(arguments, into: "true")
      XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)")
      XCTAssertEqual(run.stderr, "", "\(arguments)")
    }
  }
}
