import Foundation
import HackerNews
import XCTest

/// The shapes the real API sends: real responses of the Hacker News API, as published in its
/// documentation and captured by public clients (`Fixtures/`).
final class ItemDecodingTests: XCTestCase {
  let decoder = JSONDecoder()

  func test_story_decodesEveryField() throws {
    let item = try decoder.decode(Item.self, from: fixture("item-8863"))
    XCTAssertEqual(item.id, 8863)
    XCTAssertEqual(item.kind, .story)
    XCTAssertEqual(item.by, "dhouston")
    XCTAssertEqual(item.descendants, 71)
    XCTAssertEqual(item.kids.count, 33)
    XCTAssertEqual(item.kids.first, 8952)
    XCTAssertEqual(item.score, 111)
    XCTAssertEqual(item.url, "http://www.getdropbox.com/u/2/screencast.html")
    XCTAssertFalse(item.deleted)
    XCTAssertFalse(item.dead)
  }

  func test_comment_hasParentAndHTMLTextButNoScore() throws {
    let item = try decoder.decode(Item.self, from: fixture("item-2921983"))
    XCTAssertEqual(item.kind, .comment)
    XCTAssertEqual(item.parent, 2921506)
    XCTAssertNil(item.score)
    XCTAssertNil(item.title)
    XCTAssertTrue(item.text?.contains("<p>") == true)
  }

  func test_poll_andPollOption() throws {
    let poll = try decoder.decode(Item.self, from: fixture("item-30239441"))
    XCTAssertEqual(poll.kind, .poll)
    XCTAssertEqual(poll.parts, [30239442, 30239443, 30239444, 30239445, 30239446])
    XCTAssertTrue(poll.text?.contains("&#x2F;") == true)
    let option = try decoder.decode(Item.self, from: fixture("item-160705"))
    XCTAssertEqual(option.kind, .pollOption)
    XCTAssertEqual(option.poll, 160704)
    XCTAssertEqual(option.score, 335)
  }

  func test_job_hasNoComments() throws {
    let job = try decoder.decode(Item.self, from: fixture("item-40481509"))
    XCTAssertEqual(job.kind, .job)
    XCTAssertEqual(job.kids, [])
    XCTAssertNil(job.descendants)
  }

  func test_deletedComment_hasNoAuthorAndNoText() throws {
    let item = try decoder.decode(Item.self, from: fixture("item-40475078"))
    XCTAssertTrue(item.deleted)
    XCTAssertNil(item.by)
    XCTAssertNil(item.text)
    XCTAssertEqual(item.parent, 40464529)
  }

  func test_deadComment_isFlaggedDead() throws {
    let item = try decoder.decode(Item.self, from: fixture("item-40476894"))
    XCTAssertTrue(item.dead)
    XCTAssertEqual(item.text, "[dead]")
  }

  func test_null_decodesAsNoItem() throws {
    XCTAssertNil(try decoder.decode(Item?.self, from: fixture("item-missing")))
    XCTAssertThrowsError(try decoder.decode(Story.self, from: fixture("item-missing")))
  }

  func test_onlyID_isRequired() throws {
    let item = try decoder.decode(Item.self, from: Data(#"{"id":5}"#.utf8))
    XCTAssertEqual(item, Item(id: 5))
    XCTAssertThrowsError(try decoder.decode(Item.self, from: Data(#"{"by":"pg"}"#.utf8)))
  }

  func test_unknownKind_decodesWithItsName() throws {
    let item = try decoder.decode(Item.self, from: Data(#"{"id":5,"type":"thread"}"#.utf8))
    XCTAssertEqual(item.kind?.rawValue, "thread")
  }

  func test_user_withoutSubmissions() throws {
    let user = try decoder.decode(User.self, from: fixture("user-tukajo"))
    XCTAssertEqual(user, User(id: "tukajo", created: 1650837729, karma: 1))
  }

  func test_updates_decodes() throws {
    let updates = try decoder.decode(Updates.self, from: Data(#"{"items":[1,2],"profiles":["pg"]}"#.utf8))
    XCTAssertEqual(updates, Updates(items: [1, 2], profiles: ["pg"]))
  }

  func test_story_debugDescription_printsLikeTheChapter() throws {
    let story = try decoder.decode(Story.self, from: fixture("item-1000"))
    XCTAssertEqual(
      String(reflecting: story),
      "\nHow Important is the .com TLD?\nby python_kiss\nhttp://www.netbusinessblog.com/2007/02/19/how-important-is-the-dot-com/\n-----"
    )
  }

  func test_story_withoutURLOrTitle_decodesEmpty() throws {
    let story = try decoder.decode(Story.self, from: Data(#"{"id":7,"type":"story","dead":true}"#.utf8))
    XCTAssertEqual(story.title, "")
    XCTAssertEqual(story.url, "")
    XCTAssertEqual(story.by, "")
  }

  func test_stories_sortNewestFirst() {
    let old = Story(id: 1, title: "a", by: "x", time: 100, url: "")
    let new = Story(id: 2, title: "b", by: "y", time: 200, url: "")
    XCTAssertEqual([old, new].sorted(), [new, old])
  }
}
