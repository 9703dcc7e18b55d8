import Foundation
import GRDB
import HackerNews
import NewsStore
import XCTest

final class SQLiteStoreTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("news-store-\(UUID().uuidString)", isDirectory: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private let story = Item(
    id: 8863, kind: .story, by: "dhouston", time: 1_175_714_200,
    title: "My YC app: Dropbox - Throw away your USB drive", url: "http://www.getdropbox.com/u/2/screencast.html",
    score: 111, descendants: 71, kids: [9224, 8952])
  private let comment = Item(
    id: 9224, kind: .comment, by: "BrandonM", text: "I have a few qualms", kids: [9272], parent: 8863)
  private let reply = Item(id: 9272, kind: .comment, by: "dhouston", text: "thanks for the feedback", parent: 9224)
  private let other = Item(id: 1000, kind: .story, by: "pg", title: "Crypto winter, again", score: 3)

  func test_everything_survivesReopening() throws {
    do {
      let store = try SQLiteStore.open(at: directory)
      try store.save(items: [story, comment, reply, other])
      try store.saveListing([1000, 8863, 4242], of: .top)
      try store.saveListing([8863], of: .best)
      try store.markRead(id: 8863)
      XCTAssertTrue(try store.addFilter("  crypto "))
      XCTAssertFalse(try store.addFilter("CRYPTO"), "a filter differing only in case is the same filter")
      XCTAssertTrue(try store.addFilter("rust"))
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent("news.sqlite").path))

    let store = try SQLiteStore.open(at: directory)
    XCTAssertEqual(try store.item(id: 8863), story)
    XCTAssertNil(try store.item(id: 4242))
    // 4242 was listed but never loaded: skipped, the order of the rest kept.
    XCTAssertEqual(try store.stories(feed: .top).map(\.id), [1000, 8863])
    XCTAssertEqual(try store.listing(of: .top)?.ids, [1000, 8863, 4242])
    XCTAssertEqual(try store.lastListing()?.feed, .best, "best was listed after top")
    XCTAssertEqual(try store.lastListing()?.id(atRank: 1), 8863)
    XCTAssertNil(try store.lastListing()?.id(atRank: 2))
    XCTAssertEqual(try store.stories(feed: .new), [])
    XCTAssertTrue(try store.isRead(id: 8863))
    XCTAssertFalse(try store.isRead(id: 1000))
    XCTAssertEqual(try store.readIDs(), [8863])
    XCTAssertEqual(try store.filters(), ["crypto", "rust"])
    XCTAssertTrue(try store.removeFilter("Crypto"))
    XCTAssertFalse(try store.removeFilter("crypto"))
    XCTAssertEqual(try store.filters(), ["rust"])
    let thread = try store.thread(of: story)
    XCTAssertEqual(thread.map(\.item.id), [9224, 9272], "8952 was never loaded")
    XCTAssertEqual(thread.map(\.depth), [0, 1])
  }

  func test_save_replacesTheItemKeptUnderItsID() throws {
    let store = try SQLiteStore.open(at: directory)
    try store.save(items: [story])
    var moved = story
    moved.score = 500
    try store.save(items: [moved])
    XCTAssertEqual(try store.item(id: 8863)?.score, 500)
  }

  func test_open_garbageFile_throwsCorrupt() throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("news.sqlite")
    try Data(repeating: 0x5A, count: 4096).write(to: file)
    XCTAssertThrowsError(try SQLiteStore.open(at: directory)) { error in
      XCTAssertEqual(error as? StoreError, .corrupt(path: file.path))
      XCTAssertTrue("\(error)".contains("is damaged or not a database"), "\(error)")
    }
  }

  func test_open_folderThatCannotBeCreated_throwsUnavailable() throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let blocker = directory.appendingPathComponent("file")
    try Data("x".utf8).write(to: blocker)
    XCTAssertThrowsError(try SQLiteStore.open(at: blocker.appendingPathComponent("news"))) { error in
      guard case .unavailable = error as? StoreError else { return XCTFail("\(error)") }
    }
  }

  func test_write_whileAnotherConnectionHoldsTheLock_throwsLocked() throws {
    let store = try SQLiteStore.open(at: directory, busyTimeout: 0.05)
    let path = directory.appendingPathComponent("news.sqlite").path
    // Another connection (as another process would) takes the write lock and keeps it.
    var configuration = Configuration()
    configuration.allowsUnsafeTransactions = true
    let other = try DatabaseQueue(path: path, configuration: configuration)
    try other.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
    XCTAssertThrowsError(try store.markRead(id: 1)) { error in
      XCTAssertEqual(error as? StoreError, .locked(path: path))
    }
    try other.inDatabase { db in try db.execute(sql: "COMMIT") }
    try store.markRead(id: 1)
    XCTAssertTrue(try store.isRead(id: 1))
  }
}
