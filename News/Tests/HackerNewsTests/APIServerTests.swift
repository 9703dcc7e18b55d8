import Combine
import Foundation
import HackerNews
import NewsServer
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The client against the offline demo server, over real HTTP on loopback.
final class APIServerTests: XCTestCase {
  var server: DemoServer!
  var api: API!

  func start(
    _ configuration: DemoServer.Configuration = .init(), snapshot: Snapshot? = nil,
    policy: RetryPolicy = .init(retries: 3, initialDelay: 0.01)
  ) throws {
    server = try DemoServer.start(snapshot: snapshot, configuration: configuration)
    api = API(baseURL: server.baseURL, session: makeSession(), retryPolicy: policy)
  }

  override func tearDown() {
    server?.stop()
    server = nil
    api = nil
  }

  // MARK: The chapter's API

  func test_story_publishesTheStoryAndFinishes() throws {
    try start()
    let recording = record(api.story(id: 1000))
    XCTAssertEqual(recording.values.map(\.title), ["How Important is the .com TLD?"])
    XCTAssertEqual(recording.values.first?.by, "python_kiss")
    XCTAssertEqual(recording.completion, .finished)
  }

  func test_story_ofUnknownID_finishesWithoutValue() throws {
    try start()
    let recording = record(api.story(id: -5))
    XCTAssertTrue(recording.values.isEmpty)
    XCTAssertEqual(recording.completion, .finished)
  }

  func test_mergedStories_publishesEachStoryOnce() throws {
    try start()
    let recording = record(api.mergedStories(ids: [1000, 8863, 30239441]))
    XCTAssertEqual(Set(recording.values.map(\.id)), [1000, 8863, 30239441])
    XCTAssertEqual(recording.completion, .finished)
  }

  func test_mergedStories_takesAtMostMaxStories() throws {
    server = try DemoServer.start()
    api = API(baseURL: server.baseURL, session: makeSession(), maxStories: 2)
    let recording = record(api.mergedStories(ids: [1000, 8863, 30239441]))
    XCTAssertEqual(Set(recording.values.map(\.id)), [1000, 8863])
  }

  func test_stories_growsOneStoryAtATime_sortedNewestFirst() throws {
    try start()
    let recording = record(api.stories())
    XCTAssertEqual(recording.values.map(\.count), Array(1...10))
    let last = try XCTUnwrap(recording.values.last)
    XCTAssertEqual(last, last.sorted())
    let snapshot = try Snapshot.bundled()
    XCTAssertEqual(Set(last.map(\.id)), Set(snapshot.ids(ofFeed: "new").prefix(10)))
    XCTAssertEqual(recording.completion, .finished)
  }

  func test_stories_unreachable_failsWithAddressUnreachable() {
    let api = API(baseURL: URL(string: "http://127.0.0.1:1/v0/")!, session: makeSession())
    let recording = record(api.stories())
    XCTAssertEqual(recording.failure, .addressUnreachable(URL(string: "http://127.0.0.1:1/v0/newstories.json")!))
  }

  // MARK: The reader's API

  func test_item_ofUnknownID_isNil() throws {
    try start()
    let recording = record(api.item(id: 1))
    XCTAssertEqual(recording.values.count, 1)
    XCTAssertEqual(recording.values.first ?? Item(id: 0), nil)
    XCTAssertEqual(recording.completion, .finished)
  }

  func test_item_deletedAndDead_arriveAsTheAPISendsThem() throws {
    try start()
    XCTAssertEqual(record(api.item(id: 40475078)).values.first??.deleted, true)
    XCTAssertEqual(record(api.item(id: 40476894)).values.first??.dead, true)
  }

  func test_feed_listsIDsFirst_thenEveryItemOnce_inAnyOrder() throws {
    try start()
    let recording = record(api.feed(.top, limit: 30, maxConcurrent: 8))
    let snapshot = try Snapshot.bundled()
    guard case .listed(let ids) = recording.values.first else { return XCTFail("no id list first") }
    XCTAssertEqual(ids, Array(snapshot.ids(ofFeed: "top").prefix(30)))
    let items = recording.values.dropFirst().compactMap { event -> Ranked<Item?>? in
      if case .item(let ranked) = event { return ranked }
      return nil
    }
    XCTAssertEqual(items.map(\.rank).sorted(), Array(0..<30))
    for ranked in items {
      XCTAssertEqual(ranked.id, ids[ranked.rank])
      XCTAssertEqual(try ranked.result.get()?.id, ranked.id)
    }
    XCTAssertEqual(recording.completion, .finished)
  }

  func test_feed_keepsAtMostMaxConcurrentRequestsInFlight() throws {
    var configuration = DemoServer.Configuration()
    configuration.latency = 20...20
    try start(configuration)
    _ = server.takeMaxConcurrentRequests()
    let recording = record(api.feed(.new, limit: 40, maxConcurrent: 4))
    XCTAssertEqual(recording.values.count, 41)
    XCTAssertEqual(server.takeMaxConcurrentRequests(), 4)
  }

  func test_feeds_askAndJob_areDerivedFromTheSnapshot() throws {
    try start()
    let ask = try XCTUnwrap(record(api.storyIDs(.ask)).values.first)
    XCTAssertFalse(ask.isEmpty)
    let first = try XCTUnwrap(record(api.item(id: ask[0])).values.first ?? nil)
    XCTAssertTrue(first.title?.hasPrefix("Ask HN") == true)
    let jobs = try XCTUnwrap(record(api.storyIDs(.job)).values.first)
    let job = try XCTUnwrap(record(api.item(id: jobs[0])).values.first ?? nil)
    XCTAssertEqual(job.kind, .job)
  }

  func test_user_maxItem_updates() throws {
    try start()
    XCTAssertEqual(record(api.user(id: "tukajo")).values.first??.karma, 1)
    XCTAssertEqual(record(api.user(id: "nobody")).values.count, 1)
    XCTAssertNil(record(api.user(id: "nobody")).values.first ?? User(id: "x"))
    XCTAssertEqual(record(api.maxItem()).values, [40481509])
    XCTAssertEqual(record(api.updates()).values, [Updates()])
  }

  func test_updates_inLiveMode_listWhatChanged() throws {
    var configuration = DemoServer.Configuration()
    configuration.seed = 7
    try start(configuration)
    let before = try XCTUnwrap(record(api.storyIDs(.top)).values.first)
    server.move()
    let updates = try XCTUnwrap(record(api.updates()).values.first)
    XCTAssertFalse(updates.items.isEmpty)
    XCTAssertFalse(updates.profiles.isEmpty)
    let after = try XCTUnwrap(record(api.storyIDs(.top)).values.first)
    XCTAssertNotEqual(before, after)
    XCTAssertEqual(Set(before), Set(after))
  }

  // MARK: Comments

  func commentSnapshot() throws -> Snapshot {
    try makeSnapshot(
      feeds: [
        "top": [
          ["id": 1, "type": "story", "title": "Root", "by": "a", "time": 100, "kids": [2, 3, 99], "descendants": 5]
        ]
      ],
      items: [
        ["id": 2, "type": "comment", "by": "b", "parent": 1, "text": "first", "kids": [4]],
        ["id": 3, "type": "comment", "by": "c", "parent": 1, "text": "second", "kids": [5, 6]],
        ["id": 4, "type": "comment", "by": "d", "parent": 2, "text": "reply", "kids": [7]],
        ["id": 5, "type": "comment", "deleted": true, "parent": 3],
        ["id": 6, "type": "comment", "by": "e", "dead": true, "text": "[dead]", "parent": 3],
        ["id": 7, "type": "comment", "by": "f", "parent": 4, "text": "deep"],
      ])
  }

  func test_comments_breadthFirst_withMissingDeletedAndDead() throws {
    try start(snapshot: commentSnapshot())
    let root = try XCTUnwrap(record(api.item(id: 1)).values.first ?? nil)
    let recording = record(api.comments(of: root, maxConcurrent: 2))
    let byRank = recording.values.sorted { $0.rank < $1.rank }
    XCTAssertEqual(byRank.map(\.id), [2, 3, 99, 4, 5, 6, 7])
    XCTAssertEqual(byRank.map(\.rank), Array(0..<7))
    XCTAssertNil(try byRank[2].result.get())
    XCTAssertEqual(try byRank[4].result.get()?.deleted, true)
    XCTAssertEqual(try byRank[5].result.get()?.dead, true)
    XCTAssertEqual(recording.completion, .finished)
  }

  // MARK: Faults

  func test_serverError_isRetried_thenNamedInTheError() throws {
    var configuration = DemoServer.Configuration()
    configuration.failingItems = [8863: .serverError]
    try start(configuration)
    let recording = record(api.item(id: 8863))
    XCTAssertEqual(
      recording.failure, .serverError(status: 500, url: server.baseURL.appendingPathComponent("item/8863.json")))
    XCTAssertEqual(server.requestCount(path: "/v0/item/8863.json"), 4)
  }

  func test_droppedConnection_isRetried_thenConnectionLost() throws {
    var configuration = DemoServer.Configuration()
    configuration.failingItems = [8863: .drop]
    try start(configuration)
    let recording = record(api.item(id: 8863))
    XCTAssertEqual(recording.failure, .connectionLost(server.baseURL.appendingPathComponent("item/8863.json")))
    XCTAssertEqual(server.requestCount(path: "/v0/item/8863.json"), 4)
  }

  func test_malformedJSON_isNotRetried_andIsInvalidResponse() throws {
    var configuration = DemoServer.Configuration()
    configuration.failingItems = [8863: .malformed]
    try start(configuration)
    let recording = record(api.item(id: 8863))
    XCTAssertEqual(recording.failure, .invalidResponse)
    XCTAssertEqual(server.requestCount(path: "/v0/item/8863.json"), 1)
  }

  func test_noAnswer_timesOut_afterRetries() throws {
    var configuration = DemoServer.Configuration()
    configuration.failingItems = [8863: .hang]
    try start(configuration, policy: RetryPolicy(retries: 1, initialDelay: 0.01, timeout: 0.5))
    let started = Date()
    let recording = record(api.item(id: 8863))
    XCTAssertEqual(recording.failure, .timedOut(server.baseURL.appendingPathComponent("item/8863.json")))
    XCTAssertEqual(server.requestCount(path: "/v0/item/8863.json"), 2)
    XCTAssertLessThan(Date().timeIntervalSince(started), 5)
  }

  func test_randomFaults_areRetriedAway() throws {
    var configuration = DemoServer.Configuration()
    configuration.failRate = 0.3
    configuration.faults = [.serverError, .drop]
    configuration.seed = 42
    try start(configuration, policy: RetryPolicy(retries: 8, initialDelay: 0.005))
    let recording = record(api.feed(.top, limit: 60, maxConcurrent: 8))
    let failures = recording.values.compactMap { event -> API.Error? in
      if case .item(let ranked) = event, case .failure(let error) = ranked.result { return error }
      return nil
    }
    XCTAssertEqual(recording.values.count, 61)
    XCTAssertEqual(failures, [])
    XCTAssertGreaterThan(server.totalRequestCount, 61)
  }

  func test_aFailedItem_costsNoSibling() throws {
    var configuration = DemoServer.Configuration()
    configuration.failingItems = [8863: .serverError]
    try start(configuration, policy: .never)
    let recording = record(api.items(ids: [1000, 8863, 30239441], maxConcurrent: 3))
    let byRank = recording.values.sorted { $0.rank < $1.rank }
    XCTAssertEqual(byRank.map(\.id), [1000, 8863, 30239441])
    XCTAssertEqual(try byRank[0].result.get()?.id, 1000)
    XCTAssertThrowsError(try byRank[1].result.get())
    XCTAssertEqual(try byRank[2].result.get()?.id, 30239441)
  }

  func test_unreachableHost_failsAtOnce_withAddressUnreachable() {
    let api = API(baseURL: URL(string: "http://127.0.0.1:1/v0/")!, session: makeSession())
    let started = Date()
    let recording = record(api.item(id: 1))
    XCTAssertEqual(recording.failure, .addressUnreachable(URL(string: "http://127.0.0.1:1/v0/item/1.json")!))
    XCTAssertEqual(recording.failure?.errorDescription, "cannot reach 127.0.0.1:1")
    XCTAssertLessThan(Date().timeIntervalSince(started), 2)
  }
}
