import Foundation

/// Why the database cannot be used, in words for the person at the terminal.
///
/// ```swift
/// do { store = try SQLiteStore.open(at: directory) }
/// catch let error as StoreError { print("news: \(error); going on without it") }
/// ```
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file is not a SQLite database, or its pages are damaged.
  case corrupt(path: String)
  /// Another process holds the database locked for longer than the wait.
  case locked(path: String)
  /// The file or its folder cannot be created, opened or written, for `reason`.
  case unavailable(path: String, reason: String)

  public var description: String {
    switch self {
    case .corrupt(let path):
      return "the database \(path) is damaged or not a database; move it away or delete it to start afresh"
    case .locked(let path):
      return "the database \(path) is locked by another process"
    case .unavailable(let path, let reason):
      return "cannot use the database \(path): \(reason)"
    }
  }
}
