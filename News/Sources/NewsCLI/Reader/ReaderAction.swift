import HackerNews

/// What the reader does after a transition; the machine only decides, the ``Reader``
/// performs these outside its lock.
enum ReaderAction: Equatable, Sendable {
  /// Starts loading the feed, cancelling any other feed's load: `live`, by following its
  /// event streams where the source has them; else by loading it once.
  case loadFeed(Feed, live: Bool)
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
