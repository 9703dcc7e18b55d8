import Combine
import Foundation
import HackerNews
import NewsServer
import XCTest

/// The `@Published` view model `news watch` binds to, against the live demo server.
final class FeedViewModelTests: XCTestCase {
  func test_refresh_publishesTheFeedOnTheMainQueue_thenTheChangedItems() throws {
    var configuration = DemoServer.Configuration()
    configuration.seed = 3
    let server = try DemoServer.start(configuration: configuration)
    defer { server.stop() }
    let api = API(baseURL: server.baseURL, session: makeSession())
    let model = FeedViewModel(api: api, feed: .top, limit: 10, maxConcurrent: 4)
    var published: [[Item]] = []
    var onMain = true
    let first = expectation(description: "first list")
    let second = expectation(description: "second list")
    let cancellable = model.$stories.dropFirst().sink { stories in
      onMain = onMain && Thread.isMainThread
      published.append(stories)
      if published.count == 1 { first.fulfill() } else if published.count == 2 { second.fulfill() }
    }
    model.refresh()
    wait(for: [first], timeout: 10)
    XCTAssertEqual(published[0].map(\.id), Array(try Snapshot.bundled().ids(ofFeed: "top").prefix(10)))

    server.move()
    let updates = try XCTUnwrap(record(api.updates()).values.first)
    let before = server.totalRequestCount
    model.refresh(changed: Set(updates.items))
    wait(for: [second], timeout: 10)
    let refetched = server.totalRequestCount - before - 1  // minus the feed list
    let visibleChanges = Set(published[1].map(\.id)).intersection(updates.items)
    let newcomers = Set(published[1].map(\.id)).subtracting(published[0].map(\.id))
    XCTAssertEqual(refetched, visibleChanges.union(newcomers).count)
    XCTAssertTrue(onMain)
    XCTAssertNil(model.error)
    cancellable.cancel()
  }

  func test_refresh_unreachable_setsTheError() {
    let api = API(baseURL: URL(string: "http://127.0.0.1:1/v0/")!, session: makeSession())
    let model = FeedViewModel(api: api, feed: .top, limit: 10)
    let failed = expectation(description: "error")
    let cancellable = model.$error.compactMap { error -> API.Error? in error }.sink { _ in failed.fulfill() }
    model.refresh()
    wait(for: [failed], timeout: 10)
    XCTAssertEqual(model.error, .addressUnreachable(URL(string: "http://127.0.0.1:1/v0/topstories.json")!))
    XCTAssertEqual(model.stories, [])
    cancellable.cancel()
  }
}
