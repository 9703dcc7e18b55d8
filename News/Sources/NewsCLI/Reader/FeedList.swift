import HackerNews

/// One feed as the reader has it: its ids in rank order and the items that arrived.
struct FeedList: Equatable, Sendable {
  var ids: [Int] = []
  var items: [Int: Item] = [:]
  /// Why an id has no item: not on the server, or the error that stopped its load.
  var failures: [Int: String] = [:]
  var loading = false
  /// Whether the ids came from the feed's event stream (and will keep coming).
  var live = false
  /// Ids that arrived in the list while it was live and have not been selected yet.
  var fresh: Set<Int> = []
  /// Why the list itself could not be loaded.
  var error: String?
}
