import Foundation
import GRDB
import HackerNews

/// A ``StoryStore`` in a SQLite file, through GRDB.
///
/// Items are kept as the API's JSON, one row per id; a listing as its feed, its ids and its
/// date; read marks and filters in tables of their own. Every call is one transaction, so a
/// process stopped with Ctrl-C keeps everything its finished calls wrote. The file is in
/// write-ahead-log mode (`news.sqlite-wal` and `news.sqlite-shm` beside it while open). Another process
/// may use the same file: a call waits up to `busyTimeout` for the other's write to end,
/// then fails with ``StoreError/locked(path:)``.
///
/// ```swift
/// let store = try SQLiteStore.open(at: URL(fileURLWithPath: "/tmp/news"))
/// try store.addFilter("crypto")
/// try store.filters()   // ["crypto"]
/// ```
public final class SQLiteStore: StoryStore {
  /// The database file.
  public let path: String
  private let queue: DatabaseQueue

  /// Opens (creating it and its folder if needed) the database in `directory`.
  ///
  /// - Parameters:
  ///   - directory: The folder of the database (``DataDirectory/resolve(override:environment:)``).
  ///   - busyTimeout: How long a call waits for another process's write, in seconds.
  /// - Throws: ``StoreError`` when the file is damaged, locked, or cannot be created.
  public static func open(at directory: URL, busyTimeout: TimeInterval = 2) throws -> SQLiteStore {
    let path = directory.appendingPathComponent(DataDirectory.fileName).path
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw StoreError.unavailable(path: path, reason: "cannot create the folder \(directory.path)")
    }
    return try SQLiteStore(path: path, busyTimeout: busyTimeout)
  }

  /// Opens (creating it if needed) the database file at `path`.
  ///
  /// - Throws: ``StoreError`` when the file is damaged, locked, or cannot be created.
  public init(path: String, busyTimeout: TimeInterval = 2) throws {
    self.path = path
    var configuration = Configuration()
    configuration.busyMode = .timeout(busyTimeout)
    configuration.label = "news"
    // Write-ahead logging: a commit is one append, with no sync of the file on each, so an
    // item can be written as it arrives; a committed transaction survives the process
    // being killed (only a power cut can take back the last ones).
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA journal_mode = WAL")
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
    }
    do {
      queue = try DatabaseQueue(path: path, configuration: configuration)
      try Self.migrator.migrate(queue)
    } catch {
      throw Self.storeError(error, path: path)
    }
  }

  private static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.create(table: "item") { t in
        t.primaryKey("id", .integer)
        t.column("json", .blob).notNull()
        t.column("savedAt", .double).notNull()
      }
      try db.create(table: "listing") { t in
        t.primaryKey("feed", .text)
        t.column("ids", .text).notNull()
        t.column("savedAt", .double).notNull()
      }
      try db.create(table: "readMark") { t in
        t.primaryKey("id", .integer)
        t.column("readAt", .double).notNull()
      }
      try db.create(table: "filter") { t in
        t.primaryKey("keyword", .text).collate(.nocase)
        t.column("addedAt", .double).notNull()
      }
    }
    return migrator
  }

  static func storeError(_ error: any Error, path: String) -> StoreError {
    if let error = error as? StoreError { return error }
    guard let error = error as? DatabaseError else {
      return .unavailable(path: path, reason: "\(error)")
    }
    switch error.resultCode {
    case .SQLITE_NOTADB, .SQLITE_CORRUPT:
      return .corrupt(path: path)
    case .SQLITE_BUSY, .SQLITE_LOCKED:
      return .locked(path: path)
    default:
      return .unavailable(path: path, reason: error.message ?? "\(error.resultCode)")
    }
  }

  private func write<T>(_ body: (Database) throws -> T) throws -> T {
    do { return try queue.write(body) } catch { throw Self.storeError(error, path: path) }
  }

  private func read<T>(_ body: (Database) throws -> T) throws -> T {
    do { return try queue.read(body) } catch { throw Self.storeError(error, path: path) }
  }

  private static let encoder = JSONEncoder()
  private static let decoder = JSONDecoder()

  public func save(items: [Item]) throws {
    guard !items.isEmpty else { return }
    let now = Date().timeIntervalSince1970
    let rows = try items.map { ($0.id, try Self.encoder.encode($0)) }
    try write { db in
      for (id, json) in rows {
        try db.execute(
          sql: "INSERT OR REPLACE INTO item (id, json, savedAt) VALUES (?, ?, ?)", arguments: [id, json, now])
      }
    }
  }

  public func item(id: Int) throws -> Item? {
    try items(ids: [id])[id]
  }

  public func items(ids: [Int]) throws -> [Int: Item] {
    guard !ids.isEmpty else { return [:] }
    let rows = try read { db in
      try Row.fetchAll(
        db, sql: "SELECT id, json FROM item WHERE id IN (SELECT value FROM json_each(?))",
        arguments: [Self.idList(ids)])
    }
    var result: [Int: Item] = [:]
    for row in rows {
      let data: Data = row["json"]
      if let item = try? Self.decoder.decode(Item.self, from: data) { result[row["id"]] = item }
    }
    return result
  }

  public func saveListing(_ ids: [Int], of feed: Feed) throws {
    let now = Date().timeIntervalSince1970
    try write { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO listing (feed, ids, savedAt) VALUES (?, ?, ?)",
        arguments: [feed.rawValue, Self.idList(ids), now])
    }
  }

  public func listing(of feed: Feed) throws -> Listing? {
    try read { db in
      try Row.fetchOne(db, sql: "SELECT * FROM listing WHERE feed = ?", arguments: [feed.rawValue])
    }.flatMap(Self.listing(from:))
  }

  public func lastListing() throws -> Listing? {
    try read { db in
      try Row.fetchOne(db, sql: "SELECT * FROM listing ORDER BY savedAt DESC, rowid DESC LIMIT 1")
    }.flatMap(Self.listing(from:))
  }

  public func stories(feed: Feed) throws -> [Item] {
    guard let listing = try listing(of: feed) else { return [] }
    let kept = try items(ids: listing.ids)
    return listing.ids.compactMap { kept[$0] }
  }

  public func markRead(id: Int) throws {
    let now = Date().timeIntervalSince1970
    try write { db in
      try db.execute(sql: "INSERT OR IGNORE INTO readMark (id, readAt) VALUES (?, ?)", arguments: [id, now])
    }
  }

  public func isRead(id: Int) throws -> Bool {
    try read { db in
      try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM readMark WHERE id = ?)", arguments: [id]) ?? false
    }
  }

  public func readIDs() throws -> Set<Int> {
    try read { db in try Int.fetchSet(db, sql: "SELECT id FROM readMark") }
  }

  public func filters() throws -> [String] {
    try read { db in try String.fetchAll(db, sql: "SELECT keyword FROM filter ORDER BY addedAt, rowid") }
  }

  @discardableResult public func addFilter(_ keyword: String) throws -> Bool {
    let keyword = KeywordFilter.normalized(keyword)
    guard !keyword.isEmpty else { return false }
    let now = Date().timeIntervalSince1970
    return try write { db in
      try db.execute(sql: "INSERT OR IGNORE INTO filter (keyword, addedAt) VALUES (?, ?)", arguments: [keyword, now])
      return db.changesCount > 0
    }
  }

  @discardableResult public func removeFilter(_ keyword: String) throws -> Bool {
    let keyword = KeywordFilter.normalized(keyword)
    return try write { db in
      try db.execute(sql: "DELETE FROM filter WHERE keyword = ?", arguments: [keyword])
      return db.changesCount > 0
    }
  }

  private static func idList(_ ids: [Int]) -> String {
    "[" + ids.map(String.init).joined(separator: ",") + "]"
  }

  private static func listing(from row: Row) -> Listing? {
    let name: String = row["feed"]
    let text: String = row["ids"]
    guard let feed = Feed(rawValue: name),
      let ids = try? decoder.decode([Int].self, from: Data(text.utf8))
    else { return nil }
    return Listing(feed: feed, ids: ids, date: Date(timeIntervalSince1970: row["savedAt"]))
  }
}
