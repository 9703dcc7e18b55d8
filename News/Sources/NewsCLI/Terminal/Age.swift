import Foundation

/// "3 hours ago": how long ago something happened, as Hacker News says it.
public enum Age {
  /// The age of `date` at `now`: "just now", "1 minute ago", "5 hours ago", "2 days ago",
  /// "3 months ago", "6 years ago". Dates in the future (clock skew) read "just now".
  public static func describe(_ date: Date, now: Date = Date()) -> String {
    let seconds = Int(now.timeIntervalSince(date))
    func ago(_ n: Int, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s") ago" }
    switch seconds {
    case ..<60: return "just now"
    case ..<3600: return ago(seconds / 60, "minute")
    case ..<86_400: return ago(seconds / 3600, "hour")
    case ..<(30 * 86_400): return ago(seconds / 86_400, "day")
    case ..<(365 * 86_400): return ago(seconds / (30 * 86_400), "month")
    default: return ago(seconds / (365 * 86_400), "year")
    }
  }
}

/// The site of a link, as Hacker News shows it after a title.
public enum Domain {
  /// The host of `url` without a leading `www.`; `nil` for text posts and links without a
  /// host. The result is safe to print.
  public static func of(_ url: String?) -> String? {
    guard let url, let host = URLComponents(string: url)?.host, !host.isEmpty else { return nil }
    let lowered = TerminalText.line(host.lowercased())
    let name = lowered.hasPrefix("www.") ? String(lowered.dropFirst(4)) : lowered
    return name.isEmpty ? nil : name
  }
}
