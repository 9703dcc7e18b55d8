import Combine
import ConfluenceTesting
import Foundation
import HackerNews
import NewsStore
import XCTest

@testable import NewsCLI

/// The reader on the commands' SQLite database (``StoryReaderStore``): what one run loads
/// and reads is there for the next, even offline; a database that cannot be used is said on
/// the status line and the reader runs without it.
extension ReaderTests {
  /// A data folder of the test's own, removed when the test ends.
  private func makeFolder() -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("news-reader-db-\(UUID().uuidString)")
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    return folder
  }

  /// A store on the database in `folder`, opened afresh (as a new run opens it).
  private func openStore(
    _ folder: URL, reporting report: @escaping @Sendable (String) -> Void = { XCTFail("warning: \($0)") }
  ) throws -> StoryReaderStore {
    StoryReaderStore(try StoreOptions(offline: false, dataDir: folder.path).open(reporting: report))
  }

  func test_aSecondRun_onTheDatabase_showsTheKeptListAtOnce_withItsReadMarks() throws {
    let folder = makeFolder()
    let first = makeReader(store: try openStore(folder))
    first.wait(100)
    first.press(.character("j"), .enter, .backspace, .character("q"))

    // A new run: before anything arrives, the list from the file, story 2 read.
    let second = makeReader(store: try openStore(folder))
    assertFrame(
      second.frame,
      [Self.header + "  loading …", ""] + Self.firstPage(selected: 1, read: [2]) + [
        "", Self.listKeys,
      ])
    XCTAssertEqual(try SQLiteStore.open(at: folder).readIDs(), [2])
  }

  func test_offline_aSecondRun_onTheDatabase_readsTheKeptListAndThread_withItsReadMarks() throws {
    let folder = makeFolder()
    let online = makeReader(rows: 20, store: try openStore(folder))
    online.wait(100)
    online.press(.enter, thenWait: 100)  // story 1 and its thread, kept as they finish
    online.press(.character("h"), .character("q"))

    let offline = makeReader(rows: 20, store: try openStore(folder), offline: true)
    offline.wait(0)
    XCTAssertEqual(offline.source.log, [], "the offline reader asked the network")
    XCTAssertEqual(
      Array(offline.frame[2...3]),
      ["▶ 1. Combine on Linux (example.org)", "     120 points by alice 3 hours ago | 3 comments · read"])
    offline.press(.enter, thenWait: 0)
    assertFrame(
      offline.frame,
      [Self.header, ""] + Self.storyTop + [
        "3 comments",
        "", "  erin 2 hours ago", "  Works well on Linux.",
        "", "    frank 1 hour ago", "    Thanks!",
        "", "  gina 1 hour ago", "  Try debounce.",
      ] + Array(repeating: "", count: 3) + [Self.storyKeys])
  }

  func test_aCorruptDatabase_isSaidOnTheStatusLine_andTheReaderRunsWithoutIt() throws {
    let folder = makeFolder()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent(DataDirectory.fileName)
    try Data(repeating: 0x41, count: 4096).write(to: file)
    let warning = CurrentValueSubject<String?, Never>(nil)
    let store = try openStore(folder, reporting: { warning.send($0) })
    let harness = makeReader(
      columns: 200, store: store, warnings: warning.compactMap { $0 }.eraseToAnyPublisher())
    harness.wait(100)
    assertFrame(
      harness.frame,
      [Self.header, ""] + Self.firstPage(selected: 1) + [
        "",
        "the database \(file.path) is damaged or not a database; move it away or delete it to start afresh; going on without it",
      ])
    // It reads on: a story opens, and the next key clears the message.
    harness.press(.character("j"), .enter, .backspace)
    assertFrame(
      harness.frame,
      [Self.header, ""] + Self.firstPage(selected: 2, read: [2]) + ["", Self.listKeys])
    // The file is left as it was.
    XCTAssertEqual(try Data(contentsOf: file), Data(repeating: 0x41, count: 4096))
  }
}
