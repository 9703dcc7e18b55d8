import HackerNews
import NewsStore
import XCTest

final class MemoryStoreTests: XCTestCase {
  func test_keepsWhatTheDatabaseKeeps_forTheLengthOfTheRun() throws {
    let store = MemoryStore()
    let story = Item(id: 1, kind: .story, title: "Rust in production", kids: [2])
    let comment = Item(id: 2, kind: .comment, text: "yes", parent: 1)
    try store.save(items: [story, comment])
    try store.saveListing([1, 3], of: .show)
    XCTAssertEqual(try store.stories(feed: .show), [story])
    XCTAssertEqual(try store.lastListing()?.feed, .show)
    XCTAssertEqual(try store.thread(of: story).map(\.item), [comment])
    try store.markRead(id: 1)
    XCTAssertEqual(try store.readIDs(), [1])
    XCTAssertTrue(try store.addFilter("rust"))
    XCTAssertFalse(try store.addFilter(" RUST "))
    XCTAssertTrue(KeywordFilter.hides(story, keywords: try store.filters()))
    XCTAssertTrue(try store.removeFilter("Rust"))
    XCTAssertEqual(try store.filters(), [])
  }
}
