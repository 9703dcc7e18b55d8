import Foundation
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The real `news` binary in a real terminal: tmux runs a shell in a pane of a fixed size,
/// the test types as a person would and reads the screen with `capture-pane`.
final class ReaderTmuxTests: XCTestCase {
  private var tmux: URL!
  private var folder: URL!

  override func setUpWithError() throws {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    guard
      let found = path.split(separator: ":").map({ URL(fileURLWithPath: String($0)).appendingPathComponent("tmux") })
        .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
    else {
      throw XCTSkip(
        "tmux is not installed: the test that drives the interactive reader in a terminal needs it (apt-get install tmux)"
      )
    }
    tmux = found
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("news-tmux-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDown() {
    if tmux != nil, folder != nil { _ = try? run(["kill-server"]) }
    if let folder { try? FileManager.default.removeItem(at: folder) }
  }

  /// Runs `tmux arguments` on the test's own server and returns what it printed.
  ///
  /// Spawned and reaped directly (posix_spawn, waitpid), with its output in a file: the
  /// server that `new-session` starts keeps the descriptors it was given, so a pipe would
  /// never reach its end.
  @discardableResult
  private func run(_ arguments: [String]) throws -> String {
    let output = folder.appendingPathComponent("tmux-output").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv =
      ([tmux.path, "-S", folder.appendingPathComponent("socket").path, "-f", "/dev/null"] + arguments).map {
        strdup($0)
      } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, tmux.path, &actions, nil, argv, environ)
    guard spawned == 0 else { throw XCTSkip("tmux could not be started: \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    return try String(contentsOfFile: output, encoding: .utf8)
  }

  private func screen() throws -> [String] {
    // One line per row, each ended by a newline.
    try run(["capture-pane", "-p", "-t", "reader"]).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .map(String.init)
  }

  /// The screen once `condition` holds, polled for at most 30 seconds.
  private func waitForScreen(
    _ what: String, file: StaticString = #filePath, line: UInt = #line, _ condition: ([String]) -> Bool
  ) throws -> [String] {
    let deadline = Date().addingTimeInterval(30)
    var last: [String] = []
    while Date() < deadline {
      last = try screen()
      if condition(last) { return last }
      Thread.sleep(forTimeInterval: 0.05)
    }
    XCTFail("the screen never showed \(what); it shows:\n" + last.joined(separator: "\n"), file: file, line: line)
    return last
  }

  /// The line with the selection mark.
  private func selected(_ screen: [String]) -> String? { screen.first { $0.hasPrefix("▶") } }

  private func keys(_ keys: String...) throws { try run(["send-keys", "-t", "reader"] + keys) }

  /// Starts `sh` in a pane of `columns` × `rows` with a `$ ` prompt and `environment`, and
  /// waits for its first prompt.
  private func startShell(columns: Int, rows: Int, environment: [String] = []) throws {
    try run(
      ["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-s", "reader", "env", "PS1=$ ", "ENV="]
        + environment + ["TERM=xterm-256color", "sh"])
    try waitForPrompt("the shell's first prompt")
  }

  /// The screen once the shell shows its prompt on the last line that is not empty, below a
  /// line ending with `marker`; with no marker, once the prompt is all there is.
  ///
  /// What is typed before the prompt is echoed above it, and what the command prints then
  /// lands after the `$ `: every command is typed only once its prompt is there.
  @discardableResult
  private func waitForPrompt(
    after marker: String? = nil, _ what: String, file: StaticString = #filePath, line: UInt = #line
  ) throws -> [String] {
    try waitForScreen(what, file: file, line: line) { screen in
      let lines = screen.filter { !$0.isEmpty }
      guard lines.last == "$" else { return false }
      guard let marker else { return lines.count == 1 }
      return lines.dropLast().contains { $0.hasSuffix(marker) }
    }
  }

  func test_newsDemo_opensTheReader_movesOpensGoesBack_andQuitLeavesTheTerminalAsItWas() throws {
    let news = try newsBinary().path
    try startShell(columns: 100, rows: 30, environment: ["XDG_DATA_HOME=\(folder.path)/data"])
    let before = folder.appendingPathComponent("before").path
    let after = folder.appendingPathComponent("after").path
    // The shell saves the terminal's settings, runs the reader, saves them again and
    // prints a line made by arithmetic, so it appears only once the command has ended.
    try keys(
      "stty -g > '\(before)'; '\(news)' --demo --latency 0-20 --tick 600; stty -g > '\(after)'; echo ended-$((20+4))",
      "Enter")

    // The list opens, with the first story selected.
    var shown = try waitForScreen("the top stories, loaded") {
      $0.first == "Hacker News  [1 top]  2 new  3 best  4 ask  5 show  6 jobs"
    }
    XCTAssertEqual(shown.count, 30)
    XCTAssertEqual(shown[20], "  10. How Not to Die (2007) (paulgraham.com)")
    XCTAssertEqual(
      selected(shown), "▶  1. When your data doesn’t fit in memory: the basic techniques (pythonspeed.com)")
    // The demo's front page streams (it moves every --tick seconds; not in this test).
    XCTAssertEqual(shown.last, "● live · j/k move · Enter open · 1-6 feeds · / filter · r refresh · ? keys · q quit")

    // j and k move the selection.
    try keys("j", "j")
    shown = try waitForScreen("the third story selected") {
      self.selected($0)?.contains(" 3. Floating Point C vs. C++") == true
    }
    try keys("k")
    shown = try waitForScreen("the second story selected") {
      self.selected($0)?.contains(" 2. The Next 50 Years of Databases") == true
    }

    // Enter opens the story; the snapshot has none of its 19 comments, and says so.
    try keys("Enter")
    shown = try waitForScreen("the story") { $0.contains("0 comments, 19 not on the server") }
    XCTAssertEqual(
      Array(shown.prefix(5)),
      [
        "Hacker News  [1 top]  2 new  3 best  4 ask  5 show  6 jobs", "",
        "▶ The Next 50 Years of Databases (2015) (cs.cmu.edu)",
        "  160 points by strikelaserclaw 6 hours ago",
        "  http://www.cs.cmu.edu/~pavlo/blog/2015/09/the-next-50-years-of-databases.html",
      ])
    XCTAssertEqual(shown.last, "j/k comment · n/p top-level · Enter fold · d/u scroll · h back · ? keys · q quit")

    // h goes back to the list, the story now marked read.
    try keys("h")
    shown = try waitForScreen("the list again") {
      self.selected($0)?.contains(" 2. The Next 50 Years of Databases") == true
    }
    XCTAssertTrue(
      shown.contains("      160 points by strikelaserclaw 6 hours ago | 81 comments · read"),
      shown.joined(separator: "\n"))

    // q gives the terminal back: the shell's screen as it was, its prompt, the same settings.
    try keys("q")
    shown = try waitForPrompt(after: "ended-24", "the shell after the reader")
    XCTAssertFalse(
      shown.contains { $0.contains("Hacker News") },
      "the reader's screen is still there:\n" + shown.joined(separator: "\n"))
    XCTAssertTrue(shown.contains { $0.hasPrefix("$ stty -g") }, "the command line before the reader is gone")
    XCTAssertEqual(shown.filter { !$0.isEmpty }.last, "$")
    XCTAssertEqual(
      try run(["display-message", "-p", "-t", "reader", "#{alternate_on} #{cursor_flag}"]), "0 1\n",
      "the alternate screen is still on or the cursor still hidden")
    XCTAssertEqual(
      try String(contentsOfFile: after, encoding: .utf8), try String(contentsOfFile: before, encoding: .utf8),
      "the terminal's settings (termios) differ from before the reader")
  }

  /// `news --demo` on a moving front page with faults: stories move and arrive as the
  /// demo server streams them (a new one marked new, where it ranks), the selection stays
  /// on its story, and dropped streams show on the status line and reconnect.
  func test_newsDemo_frontPageChangesLive_selectionStaysOnItsStory_andDroppedStreamsReconnect() throws {
    let news = try newsBinary().path
    try startShell(columns: 100, rows: 30, environment: ["XDG_DATA_HOME=\(folder.path)/data"])
    try keys("'\(news)' --demo --latency 0 --tick 0.4 --seed 36 --faults; echo ended-$((30+6))", "Enter")
    let first = try waitForScreen("the live list") { $0.last?.hasPrefix("● live · j/k move") == true }
    try keys("j", "j", "j")
    let chosen = try waitForScreen("the fourth story selected, loaded") {
      self.selected($0)?.contains(" 4. ") == true && self.selected($0)?.hasSuffix("…") == false
    }
    // The title of the selected story, without its mark and rank.
    func title(_ line: String?) -> String? {
      guard let line, let dot = line.firstIndex(of: ".") else { return nil }
      return String(line[line.index(after: dot)...]).trimmingCharacters(in: .whitespaces)
    }
    let story = try XCTUnwrap(title(selected(chosen)))

    // A new story arrives, marked new; the page has changed from the first frame.
    let arrived = try waitForScreen("a new story") { $0.contains { $0.hasSuffix(" · new") } }
    XCTAssertNotEqual(Array(arrived[2..<28]), Array(first[2..<28]))
    // A dropped stream shows, and the reader is live again after it.
    _ = try waitForScreen("a dropped stream") { $0.last?.hasPrefix("○ reconnecting") == true }
    let again = try waitForScreen("live again") { $0.last?.hasPrefix("● live · ") == true }
    // Whatever moved, the selection is on the story it was on.
    XCTAssertEqual(title(selected(arrived)), story, arrived.joined(separator: "\n"))
    XCTAssertEqual(title(selected(again)), story, again.joined(separator: "\n"))
    try keys("q")
    try waitForPrompt(after: "ended-36", "the shell after the reader")
  }

  /// The pid of the program running in the pane's shell (its only child).
  private func childOfPaneShell() throws -> pid_t? {
    let shell = try run(["display-message", "-p", "-t", "reader", "#{pane_pid}"]).trimmingCharacters(
      in: .whitespacesAndNewlines)
    let children = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
    return children?.split(separator: " ").first.flatMap { pid_t($0) }
  }

  func test_ctrlC_andSIGTERM_alsoLeaveTheTerminalAsItWas() throws {
    let news = try newsBinary().path
    try startShell(columns: 80, rows: 24, environment: ["XDG_DATA_HOME=\(folder.path)/data"])
    let before = folder.appendingPathComponent("before").path
    try keys("stty -g > '\(before)'", "Enter")
    try waitForPrompt(after: "before'", "the shell after stty")
    let header = "Hacker News  [1 top]  2 new  3 best  4 ask  5 show  6 jobs"
    for (index, ending) in ["Ctrl-C", "SIGTERM"].enumerated() {
      let after = folder.appendingPathComponent("after-\(index)").path
      try keys("clear; '\(news)' --demo --latency 0; stty -g > '\(after)'; echo ended-$((\(index)+40))", "Enter")
      _ = try waitForScreen("the reader (\(ending))") { $0.first == header }
      if ending == "Ctrl-C" {
        try keys("C-c")
      } else {
        guard let pid = try childOfPaneShell() else {
          throw XCTSkip("/proc/PID/task/PID/children is not available here")
        }
        XCTAssertEqual(kill(pid, SIGTERM), 0)
      }
      let shown = try waitForPrompt(after: "ended-\(index + 40)", "the shell after \(ending)")
      XCTAssertFalse(
        shown.contains { $0.contains("Hacker News") }, "after \(ending):\n" + shown.joined(separator: "\n"))
      XCTAssertEqual(
        try run(["display-message", "-p", "-t", "reader", "#{alternate_on} #{cursor_flag}"]), "0 1\n", ending)
      XCTAssertEqual(
        try String(contentsOfFile: after, encoding: .utf8), try String(contentsOfFile: before, encoding: .utf8), ending)
    }
  }

  /// The Dropbox thread (item 8863) with its four comments, served by the demo server.
  func test_newsDemoItem8863_showsTheDropboxThreadWithItsFourComments() throws {
    let news = try newsBinary().path
    try startShell(columns: 100, rows: 40, environment: ["XDG_DATA_HOME=\(folder.path)/data"])
    try keys("'\(news)' --demo --latency 0 --tick 600 --item 8863; echo ended-$((20+4))", "Enter")
    let shown = try waitForScreen("the Dropbox thread") { $0.contains { $0.hasPrefix("4 comments") } }
    XCTAssertEqual(shown[2], "▶ My YC app: Dropbox - Throw away your USB drive (getdropbox.com)")
    // The four comments of the demo's thread, by their authors.
    for author in ["nickb", "BrandonM", "brett", "markovich"] {
      XCTAssertTrue(shown.contains { $0.contains(author) }, "\(author):\n" + shown.joined(separator: "\n"))
    }
    try keys("h")
    _ = try waitForScreen("the list") { self.selected($0)?.contains(" 1. ") == true }
    try keys("q")
    try waitForPrompt(after: "ended-24", "the shell after the reader")
  }

  /// A warning that comes while a feed loads starts on a line of its own: the progress line
  /// ("Loading top stories …"), which stands where the cursor is, is cleared first. Here the
  /// warning is of a database another process holds locked (the `sqlite3` shell, started by a
  /// script in the pane, which waits until the shell holds the lock).
  func test_top_aWarningWhileTheFeedLoads_startsOnALineOfItsOwn() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else {
      throw XCTSkip("needs the sqlite3 shell")
    }
    let news = try newsBinary().path
    let database = "\(folder.path)/data/news/news.sqlite"
    let holdLock = folder.appendingPathComponent("hold-lock.sh")
    try """
    ( printf ".timeout 10000\\nBEGIN EXCLUSIVE;\\nINSERT INTO filter (keyword, addedAt) VALUES ('held', 0);\\nSELECT 'locked';\\n"
      sleep 20 ) | /usr/bin/sqlite3 -bail "$1" > "$2" &
    until grep -q locked "$2"; do sleep 0.1; done
    """.write(to: holdLock, atomically: true, encoding: .utf8)
    try startShell(columns: 150, rows: 30, environment: ["XDG_DATA_HOME=\(folder.path)/data"])
    try keys("'\(news)' top --demo --latency 0 --limit 2 > /dev/null; echo made-$((1+1))", "Enter")
    try waitForPrompt(after: "made-2", "the database made")
    try keys("clear; sh '\(holdLock.path)' '\(database)' '\(folder.path)/held'; echo held-$((2+2))", "Enter")
    try waitForPrompt(after: "held-4", "the lock held")
    try keys("clear; '\(news)' top --demo --latency 0 --limit 5; echo ended-$((20+4))", "Enter")
    let shown = try waitForPrompt(after: "ended-24", "the stories and the warning")
    let warning = "news: warning: the database \(database) is locked by another process"
    XCTAssertTrue(shown.contains { $0.hasPrefix(warning) }, shown.joined(separator: "\n"))
    XCTAssertFalse(shown.contains { $0.contains("…news: warning") }, shown.joined(separator: "\n"))
    XCTAssertTrue(shown.contains { $0.hasPrefix("5. ") }, "every story is printed:\n" + shown.joined(separator: "\n"))
  }

  /// What the reader loads is kept: a run against the demo server opens a story (a read
  /// mark) and quits; a run with `--offline` on the same data folder, with no server, shows
  /// the stories and the read mark. A corrupt database file is reported on the status line
  /// and the reader still starts.
  func test_reader_keepsStoriesAndReadMarks_forAnOfflineRun_andStartsWithACorruptDatabase() throws {
    let news = try newsBinary().path
    let data = folder.appendingPathComponent("kept").path
    try startShell(columns: 100, rows: 30)
    try keys("'\(news)' --demo --latency 0 --tick 600 --data-dir '\(data)'; echo ended-$((20+1))", "Enter")
    _ = try waitForScreen("the top stories") {
      self.selected($0)?.contains(" 1. ") == true && !$0[0].contains("loading")
    }
    try keys("j", "Enter")
    _ = try waitForScreen("the second story") {
      $0.contains { $0.contains("The Next 50 Years of Databases") } && $0[2].hasPrefix("▶")
    }
    try keys("h")
    _ = try waitForScreen("the list again") { self.selected($0)?.contains(" 2. ") == true }
    try keys("q")
    try waitForPrompt(after: "ended-21", "the shell after the first run")

    // No server now: only what the first run kept.
    try keys("clear; '\(news)' --offline --data-dir '\(data)'; echo ended-$((20+2))", "Enter")
    let shown = try waitForScreen("the kept stories") { self.selected($0)?.contains(" 1. ") == true }
    XCTAssertTrue(
      shown.contains { $0.contains("When your data doesn’t fit in memory") }, shown.joined(separator: "\n"))
    let marked = shown.firstIndex { $0.contains(" 2. The Next 50 Years of Databases") }
    XCTAssertNotNil(marked, shown.joined(separator: "\n"))
    if let marked { XCTAssertTrue(shown[marked + 1].hasSuffix(" · read"), shown[marked + 1]) }
    let first = shown.firstIndex { $0.contains(" 1. When your data") }
    if let first { XCTAssertFalse(shown[first + 1].hasSuffix(" · read"), shown[first + 1]) }
    try keys("q")
    try waitForPrompt(after: "ended-22", "the shell after the offline run")

    // A database file that is not a database: a clear message, and the reader runs.
    let corrupt = folder.appendingPathComponent("corrupt")
    try FileManager.default.createDirectory(at: corrupt, withIntermediateDirectories: true)
    try Data(repeating: 0x41, count: 4096).write(to: corrupt.appendingPathComponent("news.sqlite"))
    try keys("clear; '\(news)' --demo --latency 0 --data-dir '\(corrupt.path)'; echo ended-$((20+3))", "Enter")
    let broken = try waitForScreen("the list with the database warning") {
      self.selected($0)?.contains(" 1. ") == true && $0.last?.contains("is damaged or not a database") == true
    }
    XCTAssertTrue(broken.last!.hasPrefix("the database \(corrupt.path)/news.sqlite"), broken.last!)
    try keys("q")
    try waitForPrompt(after: "ended-23", "the shell after the run without a database")
  }
}
