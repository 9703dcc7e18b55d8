import Combine
import Foundation
import HackerNews
import NewsServer
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// ``API/liveFeed(_:limit:scheduler:)`` against the demo server's event streams on
/// 127.0.0.1: the server moves, the client follows, and the server counts the requests.
final class LiveFeedTests: XCTestCase {
  /// What a live feed has shown so far: the list, the items, the connection states.
  // Safe: `lock` guards every `var`.
  private final class Follower: @unchecked Sendable {
    let lock = NSLock()
    var ids: [Int] = []
    var items: [Int: Item] = [:]
    var connections: [LiveFeedEvent.Connection] = []
    var finished = false
    /// How many times an id entered the list (each opens the item's stream).
    var entries = 0
    var everListed: Set<Int> = []
    var cancellable: AnyCancellable?

    init(_ publisher: AnyPublisher<LiveFeedEvent, Never>) {
      cancellable = publisher.sink(
        receiveCompletion: { [unowned self] _ in lock.withLock { finished = true } },
        receiveValue: { [unowned self] event in
          lock.withLock {
            switch event {
            case .listed(let listed):
              entries += listed.filter { !ids.contains($0) }.count
              ids = listed
              everListed.formUnion(listed)
            case .item(let item): items[item.id] = item
            case .missing: break
            case .connection(let state): connections.append(state)
            }
          }
        })
    }

    /// Waits (at most 20 seconds, real time: a real server) until `condition` holds.
    func wait(
      _ what: String, file: StaticString = #filePath, line: UInt = #line, until condition: (Follower) -> Bool
    ) {
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline {
        if lock.withLock({ condition(self) }) { return }
        Thread.sleep(forTimeInterval: 0.02)
      }
      XCTFail("never: \(what)", file: file, line: line)
    }
  }

  /// The server's first `limit` top stories now, fetched as a polling client would.
  private func current(_ api: API, limit: Int) throws -> (ids: [Int], items: [Int: Item]) {
    let ids = try XCTUnwrap(record(api.storyIDs(.top)).values.first).prefix(limit)
    var items: [Int: Item] = [:]
    for id in ids { items[id] = try XCTUnwrap(record(api.item(id: id)).values.first ?? nil) }
    return (Array(ids), items)
  }

  private func inSync(_ follower: Follower, _ server: (ids: [Int], items: [Int: Item])) -> Bool {
    follower.ids == server.ids && server.ids.allSatisfy { follower.items[$0] == server.items[$0] }
  }

  func test_liveFeed_followsTheMovesAndNewStories_withOneRequestPerStreamAndNoPolling() throws {
    var configuration = DemoServer.Configuration()
    configuration.seed = 36
    let server = try DemoServer.start(configuration: configuration)
    defer { server.stop() }
    let api = API(baseURL: server.baseURL)
    let limit = 10
    let follower = Follower(api.liveFeed(.top, limit: limit, scheduler: DispatchQueue(label: "live")))
    defer { follower.cancellable?.cancel() }
    follower.wait("the first ten stories") { f in f.ids.count == limit && f.ids.allSatisfy { f.items[$0] != nil } }
    let highest = try XCTUnwrap(follower.lock.withLock { follower.ids.max() })

    // Twelve moves, each followed to the end.
    for _ in 0..<12 {
      let before = server.totalRequestCount
      server.move()
      // The moves only write to the open streams: no request is made until the new ids'
      // streams open (one each).
      follower.wait("the move's new ids' streams") { follower in
        follower.ids.allSatisfy { follower.items[$0] != nil }
      }
      XCTAssertLessThanOrEqual(server.totalRequestCount - before, limit)
      XCTAssertEqual(server.requestCount(path: "/v0/topstories.json"), 1)
    }
    XCTAssertEqual(server.openStreamCount, 1 + limit)

    // What it shows is what a client polling now reads (one request for the feed, one per item).
    let now = try current(api, limit: limit)
    follower.wait("the server's state") { self.inSync($0, now) }
    // Besides those: one request for the feed in all, and one for each time an id entered
    // the list (its stream). Nothing was polled.
    XCTAssertEqual(server.requestCount(path: "/v0/topstories.json"), 1 + 1)
    XCTAssertEqual(server.requestCount(path: "/v0/updates.json"), 0)
    XCTAssertEqual(server.totalRequestCount, 1 + follower.lock.withLock { follower.entries } + 1 + limit)
    XCTAssertTrue(
      follower.lock.withLock { follower.everListed }.contains { $0 > highest }, "no new story arrived in twelve moves")
    XCTAssertEqual(follower.lock.withLock { follower.connections }, [.live])
  }

  func test_liveFeed_droppedStreams_reconnect_andEndInTheServersState() throws {
    var configuration = DemoServer.Configuration()
    configuration.seed = 7
    configuration.streamDropRate = 1  // every move drops a stream
    configuration.tick = 0.1  // and the server asks for a reconnection after 100 ms
    let server = try DemoServer.start(configuration: configuration)
    defer { server.stop() }
    let api = API(baseURL: server.baseURL)
    let limit = 5
    let follower = Follower(api.liveFeed(.top, limit: limit, scheduler: DispatchQueue(label: "live")))
    defer { follower.cancellable?.cancel() }
    follower.wait("the first stories") { f in f.ids.count == limit && f.ids.allSatisfy { f.items[$0] != nil } }
    for _ in 0..<8 {
      server.move()
      Thread.sleep(forTimeInterval: 0.05)
    }
    follower.wait("every stream open again") { $0.connections.last == .live && server.openStreamCount == 1 + limit }
    let connections = follower.lock.withLock { follower.connections }
    XCTAssertTrue(connections.contains { if case .reconnecting = $0 { true } else { false } }, "\(connections)")

    let now = try current(api, limit: limit)
    follower.wait("the server's state") { self.inSync($0, now) }
  }

  func test_liveFeed_againstAPathThatDoesNotStream_saysSoAndFinishes() throws {
    let server = try DemoServer.start()
    defer { server.stop() }
    let api = API(baseURL: server.baseURL.appendingPathComponent("nowhere/"))
    let follower = Follower(api.liveFeed(.top, limit: 5, scheduler: DispatchQueue(label: "live")))
    follower.wait("the end") { $0.finished }
    XCTAssertEqual(follower.connections, [.notStreaming("unacceptable HTTP status 404")])
    XCTAssertEqual(follower.ids, [])
  }
}
