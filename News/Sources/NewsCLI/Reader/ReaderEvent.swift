import HackerNews

/// The size of the terminal, in character cells.
struct TerminalSize: Hashable, Sendable {
  var rows: Int
  var columns: Int
}

/// Everything that can change the reader's state: keys, resizes, and what loads deliver.
enum ReaderEvent: Sendable {
  case key(Key)
  case resized(TerminalSize)
  /// The filter text once typing paused (after debounce and removeDuplicates).
  case filterSettled(String)
  /// A feed as the store kept it from an earlier load, shown while it reloads.
  case feedCached(Feed, ids: [Int], items: [Item])
  case feedEvent(Feed, FeedEvent)
  case feedFailed(Feed, API.Error)
  case feedFinished(Feed)
  /// The comments of a story as the store kept them, shown while they reload.
  case commentsCached(storyID: Int, [Item])
  case comment(storyID: Int, Ranked<Item?>)
  case commentsFinished(storyID: Int)
  /// The item asked for by id (`news --item ID`) arrived, or could not be loaded.
  case itemLoaded(Int, Result<Item?, API.Error>)
  /// The refresh timer fired.
  case refreshTick
  /// A link was handed to the opener (`opened`) or could not be, so it is shown instead.
  case linkOpened(String, opened: Bool)
}

/// What the reader does after a transition; the machine only decides, the ``Reader``
/// performs these outside its lock.
enum ReaderAction: Equatable, Sendable {
  /// Starts loading the feed, cancelling any other feed's load.
  case loadFeed(Feed)
  /// Starts loading the story's comments, cancelling the loads of the story before.
  case loadComments(Item)
  /// Loads one item by id, to open it as a story.
  case loadItem(Int)
  /// Cancels the comments' loads (the story was closed).
  case cancelComments
  /// The filter's text changed as the person typed (to be debounced).
  case filterTyped(String)
  case markRead(Int)
  case openLink(String)
  case saveFeed(Feed, ids: [Int], items: [Item])
  case saveComments(storyID: Int, [Item])
  case quit
}
