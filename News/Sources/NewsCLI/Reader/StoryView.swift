import HackerNews

/// An open story and its comment thread.
struct StoryView: Equatable, Sendable {
  var story: Item
  var comments: [Int: Item] = [:]
  /// Comments the server has no item for (the offline snapshot has none).
  var missing: Set<Int> = []
  /// Comments that failed to load, by id, with why.
  var failures: [Int: String] = [:]
  var loading = true
  /// Comments whose replies are hidden.
  var collapsed: Set<Int> = []
  /// The selected comment; `nil` when the story itself (above the comments) is selected.
  var cursor: Int?
  /// Lines scrolled down from where the selected comment puts the view (PgDn, `d`), for
  /// text longer than the screen; moving to another comment resets it.
  var scroll = 0

  /// One visible comment: its id and depth (1 for a top-level comment).
  struct Row: Equatable, Sendable {
    var id: Int
    var depth: Int
  }

  /// The comments shown, in thread order, without the replies of collapsed comments.
  var visibleRows: [Row] {
    var rows: [Row] = []
    var seen = Set<Int>()
    func walk(_ ids: [Int], depth: Int) {
      for id in ids where seen.insert(id).inserted {
        guard comments[id] != nil || failures[id] != nil else { continue }
        rows.append(Row(id: id, depth: depth))
        if let item = comments[id], !collapsed.contains(id) { walk(item.kids, depth: depth + 1) }
      }
    }
    walk(story.kids, depth: 1)
    return rows
  }

  /// How many loaded replies sit below `id`, at any depth.
  func replyCount(of id: Int) -> Int {
    var count = 0
    var seen = Set<Int>()
    func walk(_ ids: [Int]) {
      for kid in ids where seen.insert(kid).inserted {
        guard comments[kid] != nil || failures[kid] != nil else { continue }
        count += 1
        walk(comments[kid]?.kids ?? [])
      }
    }
    walk(comments[id]?.kids ?? [])
    return count
  }
}

extension StoryView {
  /// Every loaded comment in thread order, collapsed or not.
  var visibleRowsIgnoringCollapse: [Int] {
    var copy = self
    copy.collapsed = []
    return copy.visibleRows.map(\.id)
  }
}
