import Combine
import ConfluenceTesting
import Foundation
import HackerNews
import XCTest

@testable import NewsCLI

typealias QueueTestScheduler = TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>

/// 2019-11-12 12:00 UTC: the time every test's ages are measured from.
let readerNow = Date(timeIntervalSince1970: 1_573_560_000)

/// A story posted `hours` before ``readerNow``.
func story(
  _ id: Int, _ title: String, by: String, hours: Int, url: String? = nil, score: Int = 10, kids: [Int] = [],
  descendants: Int? = nil
) -> Item {
  Item(
    id: id, kind: .story, by: by, time: Int(readerNow.timeIntervalSince1970) - hours * 3600, title: title, url: url,
    score: score, descendants: descendants ?? kids.count, kids: kids)
}

/// A comment posted `hours` before ``readerNow``.
func comment(_ id: Int, parent: Int, by: String, hours: Int, _ text: String, kids: [Int] = []) -> Item {
  Item(
    id: id, kind: .comment, by: by, time: Int(readerNow.timeIntervalSince1970) - hours * 3600, text: text, kids: kids,
    parent: parent)
}

/// A scripted ``ReaderSource`` on the test scheduler: each feed and each story's comments
/// arrive `latency` after they are asked for. Records every load that starts, ends or is
/// cancelled.
// Safe: `lock` guards `feeds`, `comments` and `events`.
final class FakeSource: ReaderSource, @unchecked Sendable {
  private let lock = NSLock()
  private var feeds: [Feed: [Item]] = [:]
  private var comments: [Int: [Item]] = [:]
  private var extraItems: [Int: Item] = [:]
  private var events: [String] = []
  let scheduler: QueueTestScheduler
  let latency: DispatchQueue.SchedulerTimeType.Stride

  init(scheduler: QueueTestScheduler, latency: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(100)) {
    self.scheduler = scheduler
    self.latency = latency
  }

  private var streams: [Feed: PassthroughSubject<LiveFeedEvent, Never>] = [:]

  func setFeed(_ feed: Feed, _ items: [Item]) { lock.withLock { feeds[feed] = items } }
  /// Makes `feed` live: ``liveFeed(_:limit:)`` publishes what the test sends to the subject.
  func stream(_ feed: Feed) -> PassthroughSubject<LiveFeedEvent, Never> {
    lock.withLock {
      let subject = PassthroughSubject<LiveFeedEvent, Never>()
      streams[feed] = subject
      return subject
    }
  }

  func liveFeed(_ feed: Feed, limit: Int) -> AnyPublisher<LiveFeedEvent, Never>? {
    guard let subject = lock.withLock({ streams[feed] }) else { return nil }
    return
      subject
      .receive(on: scheduler)
      .handleEvents(
        receiveSubscription: { [weak self] _ in self?.record("live \(feed)") },
        receiveCancel: { [weak self] in self?.record("live \(feed) cancelled") }
      )
      .eraseToAnyPublisher()
  }
  func setComments(of id: Int, _ items: [Item]) { lock.withLock { comments[id] = items } }
  /// Adds an item that is in no feed (found only by id).
  func addItem(_ item: Item) { lock.withLock { extraItems[item.id] = item } }
  /// What was loaded and cancelled, in order: "feed top", "comments 1 cancelled", …
  var log: [String] { lock.withLock { events } }
  private func record(_ event: String) { lock.withLock { events.append(event) } }

  func feed(_ feed: Feed, limit: Int) -> AnyPublisher<FeedEvent, API.Error> {
    let items = Array(lock.withLock { feeds[feed] ?? [] }.prefix(limit))
    let ranked = items.enumerated().map {
      FeedEvent.item(Ranked(rank: $0.offset, id: $0.element.id, result: .success($0.element)))
    }
    return Just(FeedEvent.listed(items.map(\.id)))
      .append(ranked)
      .delay(for: latency, scheduler: scheduler)
      .setFailureType(to: API.Error.self)
      .handleEvents(
        receiveSubscription: { [weak self] _ in self?.record("feed \(feed)") },
        receiveCompletion: { [weak self] _ in self?.record("feed \(feed) loaded") },
        receiveCancel: { [weak self] in self?.record("feed \(feed) cancelled") }
      )
      .eraseToAnyPublisher()
  }

  func item(id: Int) -> AnyPublisher<Item?, API.Error> {
    let item = lock.withLock { extraItems[id] ?? feeds.values.joined().first { $0.id == id } }
    return Just(item)
      .delay(for: latency, scheduler: scheduler)
      .setFailureType(to: API.Error.self)
      .handleEvents(receiveSubscription: { [weak self] _ in self?.record("item \(id)") })
      .eraseToAnyPublisher()
  }

  func comments(of story: Item) -> AnyPublisher<Ranked<Item?>, Never> {
    let items = lock.withLock { comments[story.id] ?? [] }
    let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
    // Breadth-first, as the API sends them; ids without an item are not on the server.
    var order: [Int] = []
    var level = story.kids
    while !level.isEmpty {
      order += level
      level = level.flatMap { byID[$0]?.kids ?? [] }
    }
    let ranked = order.enumerated().map {
      Ranked<Item?>(rank: $0.offset, id: $0.element, result: .success(byID[$0.element]))
    }
    return ranked.publisher
      .delay(for: latency, scheduler: scheduler)
      .handleEvents(
        receiveSubscription: { [weak self] _ in self?.record("comments \(story.id)") },
        receiveCompletion: { [weak self] _ in self?.record("comments \(story.id) loaded") },
        receiveCancel: { [weak self] in self?.record("comments \(story.id) cancelled") }
      )
      .eraseToAnyPublisher()
  }
}

/// A reader on virtual time: keys typed by the test, frames kept, links recorded.
final class ReaderHarness {
  let scheduler = QueueTestScheduler.dispatchQueue()
  let source: FakeSource
  let store: any ReaderStore
  let keys = PassthroughSubject<Key, Never>()
  let sizes = PassthroughSubject<TerminalSize, Never>()
  private(set) var frames: [[String]] = []
  private(set) var opened: [String] = []
  private(set) var quits = 0
  var reader: Reader<QueueTestScheduler>!

  init(
    rows: Int = 12, columns: Int = 64, limit: Int = 30, refresh: DispatchQueue.SchedulerTimeType.Stride? = nil,
    canOpenLinks: Bool = true, store: any ReaderStore = MemoryReaderStore(), openingItem: Int? = nil,
    offline: Bool = false, warnings: AnyPublisher<String, Never> = Empty().eraseToAnyPublisher(),
    configure: (FakeSource) -> Void
  ) {
    source = FakeSource(scheduler: scheduler)
    self.store = store
    configure(source)
    reader = Reader(
      source: offline ? StoredReaderSource(store: store) : source, store: store, keys: keys.eraseToAnyPublisher(),
      sizes: sizes.eraseToAnyPublisher(),
      size: TerminalSize(rows: rows, columns: columns), limit: limit, scheduler: scheduler,
      debounce: .milliseconds(250), refresh: refresh, style: .plain, now: { readerNow },
      openLink: { [unowned self] url in
        opened.append(url)
        return canOpenLinks
      },
      draw: { [unowned self] in frames.append($0) },
      quit: { [unowned self] in quits += 1 }, warnings: warnings)
    reader.start(openingItem: openingItem)
  }

  /// The frame on the screen now.
  var frame: [String] { frames.last ?? [] }

  /// Types `keys`, each handled at once, then lets `milliseconds` of virtual time pass.
  func press(_ keys: Key..., thenWait milliseconds: Int = 0) {
    for key in keys {
      self.keys.send(key)
      scheduler.advance(by: .zero)
    }
    wait(milliseconds)
  }

  /// Types `text`, one character every `gap` milliseconds.
  func type(_ text: String, gap: Int) {
    for character in text {
      press(.character(character))
      wait(gap)
    }
  }

  func wait(_ milliseconds: Int) {
    scheduler.advance(by: .milliseconds(milliseconds))
  }
}

/// Compares frames line by line, so that a failure shows the lines that differ.
func assertFrame(_ actual: [String], _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
  if actual == expected { return }
  var report = "frames differ:\n"
  for index in 0..<max(actual.count, expected.count) {
    let a = index < actual.count ? actual[index] : "<none>"
    let e = index < expected.count ? expected[index] : "<none>"
    report += (a == e ? "   " : "-> ") + "got |\(a)|\n" + (a == e ? "" : "   want |\(e)|\n")
  }
  XCTFail(report, file: file, line: line)
}
