import Foundation
import HackerNews
import NewsStore

/// The reader's ``ReaderStore`` on the commands' database (a NewsStore `StoryStore`): read
/// marks, the last listing of each feed, and the stories and comments loaded, kept between
/// runs.
///
/// Every call goes through ``Kept``: when the database fails, the reader goes on without it
/// (reads find nothing, writes are dropped) and the failure is reported once, through the
/// `Kept`'s report (the reader's status line, never standard error, which would garble the
/// full screen).
final class StoryReaderStore: ReaderStore {
  let kept: Kept

  init(_ kept: Kept) { self.kept = kept }

  func readMarks() -> Set<Int> { kept.attempt([]) { try $0.readIDs() } }

  func markRead(_ id: Int) { kept.attempt(()) { try $0.markRead(id: id) } }

  func cachedFeed(_ feed: Feed) -> (ids: [Int], items: [Item])? {
    kept.attempt(nil) { store -> (ids: [Int], items: [Item])? in
      guard let listing = try store.listing(of: feed) else { return nil }
      let items = try store.items(ids: listing.ids)
      return (listing.ids, listing.ids.compactMap { items[$0] })
    }
  }

  func saveFeed(_ feed: Feed, ids: [Int], items: [Item]) {
    kept.attempt(()) {
      try $0.save(items: items)
      try $0.saveListing(ids, of: feed)
    }
  }

  func cachedComments(of id: Int) -> [Item]? {
    kept.attempt(nil) { store -> [Item]? in
      guard let story = try store.item(id: id) else { return nil }
      let thread = try store.thread(of: story)
      return thread.isEmpty ? nil : thread.map(\.item)
    }
  }

  func saveComments(_ comments: [Item], of id: Int) { kept.attempt(()) { try $0.save(items: comments) } }

  func cachedItem(id: Int) -> Item? { kept.attempt(nil) { try $0.item(id: id) } }
}
