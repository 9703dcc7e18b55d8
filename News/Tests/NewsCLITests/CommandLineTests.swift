import Foundation
import HackerNews
import NewsCLI
import NewsServer
import XCTest

/// The shape of the command line, run through the binary: argument errors with the
/// subcommand's usage, `version`, `user`, a taken port, and the demo's comment thread.
final class CommandLineTests: XCTestCase {
  /// Each bad invocation: the arguments, a part of the message that says what is wrong, and
  /// the subcommand whose usage must follow.
  func test_everyArgumentError_saysWhatIsWrong_andShowsTheSubcommandsUsage() throws {
    let cases: [(arguments: [String], message: String, usage: String)] = [
      (["top", "--limit", "-5"], "--limit must be between 1 and 500, not -5.", "news top"),
      (["top", "--limit", "0"], "--limit must be between 1 and 500, not 0.", "news top"),
      (["new", "-l", "501"], "--limit must be between 1 and 500, not 501.", "news new"),
      (["jobs", "--demo", "--latency", "50-20"], "--latency 50-20: MIN must be at most MAX", "news jobs"),
      (["top", "--demo", "--latency", "-5"], "--latency -5: a delay cannot be negative.", "news top"),
      (["top", "--concurrency", "0"], "--concurrency must be at least 1, not 0.", "news top"),
      (["best", "--retries", "-1"], "--retries must be 0 or more, not -1.", "news best"),
      (["ask", "--offline", "--demo"], "--offline and --demo cannot be used together.", "news ask"),
      (["item"], "Give an item id, or --rank N", "news item"),
      (["item", "8863", "--rank", "2"], "Give an item id or --rank, not both.", "news item"),
      (["item", "--rank", "0"], "--rank must be 1 or more, not 0.", "news item"),
      (["watch", "--feed", "nope"], "'nope'", "news watch"),
      (["watch", "--interval", "0"], "--interval must be at least 0.1 seconds, not 0.0.", "news watch"),
      (["serve", "--latency", "fast"], "'fast'", "news serve"),
      (["serve", "--port", "70000"], "--port must be between 0 and 65535, not 70000.", "news serve"),
      (["serve", "--fault", "boom"], "'boom'", "news serve"),
      (["serve", "--fail-item", "8863"], "--fail-item takes ID:FAULT", "news serve"),
      (["user"], "Missing expected argument '<name>'", "news user"),
      (["filter", "add", " "], "the keyword is empty.", "news filter add"),
      (["filter", "remove"], "Missing expected argument '<keyword>'", "news filter remove"),
      (["item", "abc"], "The value 'abc' is invalid for '<id>'", "news item"),
      (["show", "--limit", "many"], "The value 'many' is invalid for '--limit <limit>'", "news show"),
      (["top", "--base-url", "ftp://example.org/"], "--base-url must be an http or https URL", "news top"),
      (["user", "a/b"], "'a/b' is not a user name.", "news user"),
    ]
    for (arguments, message, usage) in cases {
      let run = try news(arguments)
      XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
      XCTAssertEqual(run.stdout, "", "\(arguments)")
      XCTAssertTrue(run.stderr.contains(message), "\(arguments): \(run.stderr)")
      XCTAssertTrue(run.stderr.contains("Usage: \(usage) "), "\(arguments): \(run.stderr)")
      XCTAssertFalse(run.stderr.contains("Usage: news <subcommand>"), "\(arguments): \(run.stderr)")
    }
  }

  func test_help_listsTheValidValues_ofTheTypedOptions() throws {
    // Help wraps its lines to the terminal: compare with the white space collapsed.
    func help(_ arguments: [String]) throws -> String {
      let run = try news(arguments + ["--help"])
      XCTAssertEqual(run.status, 0, "\(arguments)")
      return run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
    let watch = try help(["watch"])
    XCTAssertTrue(watch.contains("(values: top, new, best, ask, show, job; default: top)"), watch)
    let serve = try help(["serve"])
    XCTAssertTrue(serve.contains("(values: 500, drop, malformed, hang)"), serve)
    let top = try help(["top"])
    XCTAssertTrue(top.contains("--latency <ms>"), top)
    XCTAssertTrue(top.contains("(default: 10-80)"), top)
    XCTAssertTrue(top.contains("--offline"), top)
    XCTAssertTrue(top.contains("--data-dir <folder>"), top)
  }

  func test_version_asSubcommandAndFlag() throws {
    for arguments in [["version"], ["--version"]] {
      let run = try news(arguments)
      XCTAssertEqual(run.status, 0, "\(arguments)")
      XCTAssertEqual(run.stdout, NewsCommand.version + "\n", "\(arguments)")
    }
  }

  func test_user_demo_printsTheProfile_andAnUnknownUserIsAClearError() throws {
    // The API documentation's example user: {"created": 1650837729, "id": "tukajo", "karma": 1}.
    let run = try news(["user", "tukajo", "--demo", "--latency", "0"])
    XCTAssertEqual(run.status, 0, run.stderr)
    let created = Date(timeIntervalSince1970: 1_650_837_729)
    XCTAssertEqual(run.stdout, "tukajo\n1 karma | joined \(Age.describe(created)) (2022-04-24) | 0 submissions\n")
    let json = try news(["user", "tukajo", "--demo", "--latency", "0", "--json"])
    XCTAssertEqual(json.stdout, #"{"created":1650837729,"id":"tukajo","karma":1}"# + "\n")
    let unknown = try news(["user", "pg", "--demo", "--latency", "0"])
    XCTAssertEqual(unknown.status, 1)
    XCTAssertEqual(unknown.stdout, "")
    XCTAssertEqual(unknown.stderr, "news: user pg is not on the server.\n")
  }

  func test_serve_onATakenPort_saysSo_withoutInternals() throws {
    var configuration = DemoServer.Configuration()
    configuration.port = 0
    let holder = try DemoServer.start(configuration: configuration)
    defer { holder.stop() }
    let run = try news(["serve", "--port", String(holder.port)])
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(
      run.stderr,
      "news: port \(holder.port) on 127.0.0.1 is already in use; choose another with --port, or --port 0 for a free one\n"
    )
  }

  /// The four comments the demo has of the Dropbox thread, in the story's `kids` order
  /// (8952, 9224, 8917, then 8887 after the absent 8884), and a closing line in the header's
  /// terms: 4 of the 71 comments, and 32 ids not on the server (29 top-level ids and the
  /// replies 9272, 9153 and 8889 the four list).
  func test_item8863_demo_showsTheDropboxThread_withItsFourComments() throws {
    let run = try news(["item", "8863", "--demo", "--latency", "0"])
    XCTAssertEqual(run.status, 0, run.stderr)
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    XCTAssertEqual(lines[0], "My YC app: Dropbox - Throw away your USB drive (getdropbox.com)")
    XCTAssertTrue(lines[1].hasPrefix("111 points by dhouston "), lines[1])
    XCTAssertTrue(lines[1].hasSuffix(" | 71 comments | id 8863"), lines[1])
    let authors = lines.filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") && $0.hasSuffix(" ago") }
      .map { $0.trimmingCharacters(in: .whitespaces).split(separator: " ")[0] }
    XCTAssertEqual(authors, ["nickb", "BrandonM", "brett", "markovich"], run.stdout)
    XCTAssertTrue(run.stdout.contains("  I have a few qualms with this app:"), run.stdout)
    XCTAssertTrue(
      run.stdout.hasSuffix("\n4 of the 71 comments shown; 32 of the comment ids listed are not on the server.\n"),
      run.stdout)
  }
}
