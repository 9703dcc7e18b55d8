import Combine
import Foundation
import HackerNews

/// The reader's source with no network (`--offline`): what an earlier run kept in the
/// ``ReaderStore``, delivered as the API would deliver it.
///
/// A feed that was never loaded fails with ``API/Error/addressUnreachable(_:)`` on an
/// `offline:` URL, so the list says it cannot be loaded; a story's comments are those kept
/// (the ids that were not kept are not on this "server").
struct StoredReaderSource: ReaderSource {
  let store: any ReaderStore

  /// The URL errors name: there is no server.
  static let offline = URL(string: "offline:nothing-kept")!

  func feed(_ feed: Feed, limit: Int) -> AnyPublisher<FeedEvent, API.Error> {
    guard let kept = store.cachedFeed(feed) else {
      return Fail(error: API.Error.addressUnreachable(Self.offline)).eraseToAnyPublisher()
    }
    let ids = Array(kept.ids.prefix(limit))
    let items = Dictionary(kept.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let events = ids.enumerated().map { rank, id in
      FeedEvent.item(Ranked(rank: rank, id: id, result: .success(items[id])))
    }
    return Just(FeedEvent.listed(ids)).append(events).setFailureType(to: API.Error.self).eraseToAnyPublisher()
  }

  func comments(of story: Item) -> AnyPublisher<Ranked<Item?>, Never> {
    let kept = Dictionary(
      (store.cachedComments(of: story.id) ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    // Breadth-first, as the API sends them.
    var order: [Int] = []
    var level = story.kids
    while !level.isEmpty {
      order += level
      level = level.flatMap { kept[$0]?.kids ?? [] }
    }
    return order.enumerated()
      .map { Ranked<Item?>(rank: $0.offset, id: $0.element, result: .success(kept[$0.element])) }
      .publisher
      .eraseToAnyPublisher()
  }

  func item(id: Int) -> AnyPublisher<Item?, API.Error> {
    Just(store.cachedItem(id: id)).setFailureType(to: API.Error.self).eraseToAnyPublisher()
  }
}
