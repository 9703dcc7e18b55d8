import Foundation
import HackerNews

/// The ids of one feed as they were last listed, in rank order, and when.
///
/// ```swift
/// if let listing = try store.lastListing(), listing.ids.indices.contains(2) {
///   print("#3 of the \(listing.feed) stories is item \(listing.ids[2])")
/// }
/// ```
public struct Listing: Sendable, Hashable {
  /// The feed.
  public var feed: Feed
  /// The ids, in rank order (the first is rank 1).
  public var ids: [Int]
  /// When the listing was saved.
  public var date: Date

  /// A listing of `ids` of `feed` saved at `date`.
  public init(feed: Feed, ids: [Int], date: Date) {
    self.feed = feed
    self.ids = ids
    self.date = date
  }

  /// The id at `rank` (from 1), if the listing is that long.
  public func id(atRank rank: Int) -> Int? {
    ids.indices.contains(rank - 1) ? ids[rank - 1] : nil
  }
}
