import Foundation

/// Where the reader keeps its database: `--data-dir` if given, else `$XDG_DATA_HOME/news`,
/// else `~/.local/share/news` (the XDG Base Directory default).
///
/// ```swift
/// let folder = DataDirectory.resolve(override: nil, environment: ["HOME": "/home/ada"])
/// // /home/ada/.local/share/news
/// ```
public enum DataDirectory {
  /// The database's file name inside the folder.
  public static let fileName = "news.sqlite"

  /// The folder for `override` (a path given on the command line) in `environment`.
  public static func resolve(
    override: String?, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    if let override, !override.isEmpty {
      return URL(fileURLWithPath: (override as NSString).expandingTildeInPath, isDirectory: true)
    }
    // The spec: a relative $XDG_DATA_HOME is invalid and is ignored.
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("news", isDirectory: true)
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return URL(fileURLWithPath: home, isDirectory: true)
      .appendingPathComponent(".local/share/news", isDirectory: true)
  }
}
