import HackerNews

/// Everything that can change the reader's state: keys, resizes, and what loads deliver.
enum ReaderEvent: Sendable {
  case key(Key)
  case resized(TerminalSize)
  /// The filter text once typing paused (after debounce and removeDuplicates).
  case filterSettled(String)
  /// A feed as the store kept it from an earlier load, shown while it reloads.
  case feedCached(Feed, ids: [Int], items: [Item])
  case feedEvent(Feed, FeedEvent)
  /// What the feed's event streams changed (``API/liveFeed(_:limit:scheduler:)``).
  case live(Feed, LiveFeedEvent)
  case feedFailed(Feed, API.Error)
  case feedFinished(Feed)
  /// The comments of a story as the store kept them, shown while they reload.
  case commentsCached(storyID: Int, [Item])
  case comment(storyID: Int, Ranked<Item?>)
  case commentsFinished(storyID: Int)
  /// The item asked for by id (`news --item ID`) arrived, or could not be loaded.
  case itemLoaded(Int, Result<Item?, API.Error>)
  /// The store (the database) failed; the reader goes on without it.
  case storeWarning(String)
  /// The refresh timer fired.
  case refreshTick
  /// A link was handed to the opener (`opened`) or could not be, so it is shown instead.
  case linkOpened(String, opened: Bool)
}
