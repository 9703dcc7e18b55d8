import Combine
import Foundation

/// A view model that keeps the first stories of a feed, in the manner of the source
/// documents' list view models: bind to ``stories`` with `$stories.sink` (or `assign`).
///
/// ``refresh(changed:)`` fetches the feed's ids, then the items that changed or that it has
/// not loaded yet, and publishes the new list once they have all arrived; items that did
/// not change come from its cache. ``stories`` and ``error`` change on the main queue.
///
/// ```swift
/// let model = FeedViewModel(api: API(), feed: .top, limit: 30)
/// let cancellable = model.$stories.sink { stories in print(stories.count, "stories") }
/// model.refresh()
/// ```
///
/// Thread safety: use it from the main thread.
public final class FeedViewModel: ObservableObject {
  /// The stories of the feed, in rank order.
  @Published public private(set) var stories: [Item] = []
  /// Why the last refresh failed, or `nil` if it succeeded.
  @Published public private(set) var error: API.Error?

  /// The feed.
  public let feed: Feed
  /// How many stories.
  public let limit: Int
  private let api: API
  private let maxConcurrent: Int
  private var cache: [Int: Item] = [:]
  private var loading: AnyCancellable?

  /// A model of the first `limit` stories of `feed`.
  public init(api: API, feed: Feed, limit: Int, maxConcurrent: Int = 8) {
    self.api = api
    self.feed = feed
    self.limit = limit
    self.maxConcurrent = maxConcurrent
  }

  /// Reloads the list, and the items in `changed`; a refresh still running is cancelled.
  public func refresh(changed: Set<Int> = []) {
    let api = self.api
    let maxConcurrent = self.maxConcurrent
    let limit = self.limit
    let cached = Set(cache.keys)
    loading = api.storyIDs(feed)
      .map { Array($0.prefix(limit)) }
      .flatMap { ids -> AnyPublisher<([Int], [Ranked<Item?>]), API.Error> in
        let needed = ids.filter { changed.contains($0) || !cached.contains($0) }
        return api.items(ids: needed, maxConcurrent: maxConcurrent)
          .collect()
          .map { (ids, $0) }
          .setFailureType(to: API.Error.self)
          .eraseToAnyPublisher()
      }
      .receive(on: DispatchQueue.main)
      .sink(
        receiveCompletion: { [weak self] completion in
          if case .failure(let error) = completion { self?.error = error }
        },
        receiveValue: { [weak self] ids, fetched in
          guard let self else { return }
          for ranked in fetched {
            if case .success(let item?) = ranked.result { self.cache[item.id] = item }
          }
          self.error =
            fetched.lazy.compactMap { ranked -> API.Error? in
              if case .failure(let error) = ranked.result { return error } else { return nil }
            }.first
          self.stories = ids.compactMap { self.cache[$0] }
        })
  }
}
