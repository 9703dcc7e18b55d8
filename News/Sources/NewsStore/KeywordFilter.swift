import Foundation
import HackerNews

/// The rule of the keyword filters: a story is hidden when its title contains one of the
/// keywords, ignoring case.
///
/// ```swift
/// KeywordFilter.hides(story, keywords: ["crypto"])   // true for "Crypto winter is here"
/// ```
public enum KeywordFilter {
  /// Whether `keywords` hide `item` (items without a title are never hidden).
  public static func hides(_ item: Item, keywords: [String]) -> Bool {
    guard let title = item.title, !keywords.isEmpty else { return false }
    return keywords.contains { !$0.isEmpty && title.range(of: $0, options: [.caseInsensitive]) != nil }
  }

  /// `keyword` as the filters keep it: trimmed of surrounding white space.
  public static func normalized(_ keyword: String) -> String {
    keyword.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
