import HackerNews

/// The interactive reader's whole state, and its transitions.
///
/// A pure value: ``handle(_:)`` changes the state for one event and returns what must be
/// done (load, cancel, save, open, quit) as ``ReaderAction``s; it performs nothing itself.
/// The screen is a function of this state alone (``ReaderRenderer``).
struct ReaderState: Equatable, Sendable {
  /// How many stories a feed load asks for.
  var limit: Int
  var size: TerminalSize
  var feed: Feed = .top
  var feeds: [Feed: FeedList] = [:]
  /// The selected row of each feed's visible list.
  var selection: [Feed: Int] = [:]
  /// The filter being typed, `nil` when the filter prompt is closed.
  var filterInput: String?
  /// The filter applied to the list (the typed text once typing paused).
  var filter = ""
  var story: StoryView?
  var showHelp = false
  /// A message for the status line; cleared by the next key.
  var status = ""
  var readMarks: Set<Int> = []
  /// Whether feeds are followed through their event streams; off once the server showed
  /// it does not stream (the reader then loads and refreshes them).
  var streaming = true
  /// The state of the current feed's streams, for the status line; `nil` when not streaming.
  var connection: LiveFeedEvent.Connection?

  init(limit: Int, size: TerminalSize, readMarks: Set<Int> = []) {
    self.limit = limit
    self.size = size
    self.readMarks = readMarks
  }

  /// The current feed.
  var list: FeedList { feeds[feed] ?? FeedList() }

  /// The ids of the current feed shown with the filter applied: every id without a filter,
  /// else the loaded items whose title or author contains the filter (ignoring case).
  var visibleIDs: [Int] {
    let list = self.list
    guard !filter.isEmpty else { return list.ids }
    return list.ids.filter { id in
      guard let item = list.items[id] else { return false }
      let title = HTMLText(item.title ?? "").plainText
      return title.localizedCaseInsensitiveContains(filter) || (item.by ?? "").localizedCaseInsensitiveContains(filter)
    }
  }

  /// The selected row of the visible list.
  var selectedRow: Int { min(selection[feed] ?? 0, max(0, visibleIDs.count - 1)) }

  /// The story ids a page of the list shows (two lines each).
  var pageSize: Int { max(1, (size.rows - 3) / 2) }

  // MARK: Transitions

  /// The actions that open the reader: load the first feed and, with `item`, that item,
  /// which opens as a story when it arrives.
  mutating func start(openingItem item: Int? = nil) -> [ReaderAction] {
    guard let item else { return startLoading(feed) }
    status = "Opening item \(item) …"
    return startLoading(feed) + [.loadItem(item)]
  }

  /// The state after `event`, and what to do.
  mutating func handle(_ event: ReaderEvent) -> [ReaderAction] {
    switch event {
    case .key(let key):
      return handle(key)
    case .resized(let size):
      self.size = size
      return []
    case .filterSettled(let text):
      filter = text
      selection[feed] = 0
      return []
    case .feedCached(let feed, let ids, let items):
      var list = feeds[feed] ?? FeedList()
      guard list.ids.isEmpty else { return [] }
      list.ids = ids
      for item in items { list.items[item.id] = item }
      feeds[feed] = list
      return []
    case .feedEvent(let feed, .listed(let ids)):
      feeds[feed, default: FeedList()].ids = ids
      feeds[feed, default: FeedList()].error = nil
      return []
    case .feedEvent(let feed, .item(let ranked)):
      switch ranked.result {
      case .success(let item?):
        feeds[feed, default: FeedList()].items[ranked.id] = item
        feeds[feed, default: FeedList()].failures[ranked.id] = nil
      case .success(nil):
        feeds[feed, default: FeedList()].failures[ranked.id] = "not on the server"
      case .failure(let error):
        if feeds[feed]?.items[ranked.id] == nil {
          feeds[feed, default: FeedList()].failures[ranked.id] = error.errorDescription ?? "\(error)"
        }
      }
      return []
    case .live(let feed, let event):
      return handleLive(feed, event)
    case .feedFailed(let feed, let error):
      feeds[feed, default: FeedList()].loading = false
      feeds[feed, default: FeedList()].error = error.errorDescription ?? "\(error)"
      return []
    case .feedFinished(let feed):
      feeds[feed, default: FeedList()].loading = false
      let list = feeds[feed]!
      return [.saveFeed(feed, ids: list.ids, items: list.ids.compactMap { list.items[$0] })]
    case .commentsCached(let id, let comments):
      guard story?.story.id == id else { return [] }
      for comment in comments where story!.comments[comment.id] == nil { story!.comments[comment.id] = comment }
      return []
    case .comment(let id, let ranked):
      guard story?.story.id == id else { return [] }
      switch ranked.result {
      case .success(let item?):
        story!.comments[ranked.id] = item
        story!.failures[ranked.id] = nil
      case .success(nil):
        story!.missing.insert(ranked.id)
      case .failure(let error):
        if story!.comments[ranked.id] == nil { story!.failures[ranked.id] = error.errorDescription ?? "\(error)" }
      }
      return []
    case .commentsFinished(let id):
      guard story?.story.id == id else { return [] }
      story!.loading = false
      let view = story!
      let order = view.visibleRowsIgnoringCollapse.compactMap { view.comments[$0] }
      return [.saveComments(storyID: id, order)]
    case .itemLoaded(let id, .success(let item?)):
      if status == "Opening item \(id) …" { status = "" }
      story = StoryView(story: item)
      readMarks.insert(id)
      return [.markRead(id), .loadComments(item)]
    case .itemLoaded(let id, .success(nil)):
      status = "Item \(id) is not on the server."
      return []
    case .itemLoaded(let id, .failure(let error)):
      status = "Cannot load item \(id): \(error.errorDescription ?? "\(error)")"
      return []
    case .refreshTick:
      // While the streams keep the list current (or reconnect), nothing is polled.
      guard !list.loading, !(streaming && list.live) else { return [] }
      return startLoading(feed)
    case .linkOpened(let url, let opened):
      status = opened ? "Opened \(url)" : url
      return []
    case .storeWarning(let message):
      status = message
      return []
    }
  }

  private mutating func startLoading(_ feed: Feed) -> [ReaderAction] {
    // Only one feed loads at a time: a new load cancels the others.
    for other in feeds.keys where other != feed { feeds[other]!.loading = false }
    feeds[feed, default: FeedList()].loading = true
    feeds[feed, default: FeedList()].live = false
    feeds[feed, default: FeedList()].fresh = []
    connection = nil
    return [.loadFeed(feed, live: streaming)]
  }

  /// What a feed's event streams changed: the list (new ids marked fresh, the selection kept
  /// on its story), an item, or the streams' state.
  private mutating func handleLive(_ feed: Feed, _ event: LiveFeedEvent) -> [ReaderAction] {
    var list = feeds[feed] ?? FeedList()
    switch event {
    case .listed(let ids):
      let selectedID = feed == self.feed ? visibleIDs.dropFirst(selectedRow).first : nil
      if list.live { list.fresh.formUnion(ids.filter { !list.ids.contains($0) }) }
      list.fresh.formIntersection(ids)
      list.ids = ids
      list.live = true
      list.error = nil
      feeds[feed] = list
      if let selectedID, let row = visibleIDs.firstIndex(of: selectedID) { selection[feed] = row }
    case .item(let item):
      list.items[item.id] = item
      list.failures[item.id] = nil
      feeds[feed] = list
    case .missing(let id):
      list.failures[id] = "not on the server"
      feeds[feed] = list
    case .connection(.notStreaming):
      streaming = false
      connection = nil
      guard feed == self.feed else { return [] }
      return startLoading(feed)
    case .connection(let state):
      if feed == self.feed { connection = state }
      return []
    }
    // The first whole list has loaded: keep it, as a load that finished does.
    guard list.loading, list.live, list.ids.allSatisfy({ list.items[$0] != nil || list.failures[$0] != nil })
    else { return [] }
    feeds[feed]!.loading = false
    return [.saveFeed(feed, ids: list.ids, items: list.ids.compactMap { list.items[$0] })]
  }

  private mutating func handle(_ key: Key) -> [ReaderAction] {
    status = ""
    if key == .control("c") { return [.quit] }
    if showHelp {
      showHelp = false
      return key == .character("q") ? [.quit] : []
    }
    if filterInput != nil, story == nil, let actions = editFilter(key) { return actions }
    switch key {
    case .character("q"):
      return [.quit]
    case .character("?"):
      showHelp = true
      return []
    case .character("o"):
      let item = story?.story ?? visibleIDs.dropFirst(selectedRow).first.flatMap { list.items[$0] }
      guard let item else { return [] }
      if let url = item.url, !url.isEmpty { return [.openLink(url)] }
      return [.openLink("https://news.ycombinator.com/item?id=\(item.id)")]
    default:
      break
    }
    return story == nil ? handleList(key) : handleStory(key)
  }

  /// A key while the filter prompt is open; `nil` for keys the list handles as usual.
  private mutating func editFilter(_ key: Key) -> [ReaderAction]? {
    switch key {
    case .character(let character):
      filterInput!.append(character)
      return [.filterTyped(filterInput!)]
    case .backspace:
      if filterInput!.isEmpty {
        filterInput = nil
        return []
      }
      filterInput!.removeLast()
      return [.filterTyped(filterInput!)]
    case .enter:
      filterInput = nil
      return []
    case .escape:
      filterInput = nil
      return [.filterTyped("")]
    default:
      return nil
    }
  }

  private mutating func handleList(_ key: Key) -> [ReaderAction] {
    let count = visibleIDs.count
    let row = selectedRow
    func select(_ row: Int) {
      selection[feed] = max(0, min(row, count - 1))
      // A new story is seen once the selection reaches it.
      if let id = visibleIDs.dropFirst(selectedRow).first { feeds[feed]?.fresh.remove(id) }
    }
    switch key {
    case .down, .character("j"): select(row + 1)
    case .up, .character("k"): select(row - 1)
    case .pageDown, .character(" "): select(row + pageSize)
    case .pageUp, .character("b"): select(row - pageSize)
    case .home, .character("g"): select(0)
    case .end, .character("G"): select(count - 1)
    case .enter, .right, .character("l"):
      guard let id = visibleIDs.dropFirst(row).first else { return [] }
      guard let item = list.items[id] else {
        status = "Story \(id) has not loaded yet."
        return []
      }
      story = StoryView(story: item)
      readMarks.insert(id)
      return [.markRead(id), .loadComments(item)]
    case .character("/"):
      filterInput = filter
    case .escape:
      guard !filter.isEmpty else { return [] }
      return [.filterTyped("")]
    case .character("r"):
      return startLoading(feed)
    case .tab:
      return switchFeed(to: Feed.allCases[(Feed.allCases.firstIndex(of: feed)! + 1) % Feed.allCases.count])
    case .backTab:
      let count = Feed.allCases.count
      return switchFeed(to: Feed.allCases[(Feed.allCases.firstIndex(of: feed)! + count - 1) % count])
    case .character(let digit) where ("1"..."6").contains(digit):
      return switchFeed(to: Feed.allCases[Int(String(digit))! - 1])
    default:
      break
    }
    return []
  }

  private mutating func switchFeed(to feed: Feed) -> [ReaderAction] {
    guard feed != self.feed else { return [] }
    self.feed = feed
    return startLoading(feed)
  }

  private mutating func handleStory(_ key: Key) -> [ReaderAction] {
    let rows = story!.visibleRows
    let index = story!.cursor.flatMap { id in rows.firstIndex { $0.id == id } }
    let page = max(1, size.rows - 5)
    switch key {
    case .pageDown, .character("d"):
      story!.scroll = min(story!.scroll + page, 50 * page)
      return []
    case .pageUp, .character("u"):
      story!.scroll = max(0, story!.scroll - page)
      return []
    default:
      story!.scroll = 0
    }
    switch key {
    case .backspace, .left, .escape, .character("h"):
      story = nil
      return [.cancelComments]
    case .down, .character("j"):
      let next = index.map { $0 + 1 } ?? 0
      if next < rows.count { story!.cursor = rows[next].id }
    case .up, .character("k"):
      if let index { story!.cursor = index == 0 ? nil : rows[index - 1].id }
    case .character("n"), .character("J"), .character("]"):
      let start = index.map { $0 + 1 } ?? 0
      if let next = rows[start...].first(where: { $0.depth == 1 }) { story!.cursor = next.id }
    case .character("p"), .character("K"), .character("["):
      guard let index else { break }
      if let previous = rows[..<index].last(where: { $0.depth == 1 }) { story!.cursor = previous.id }
    case .home, .character("g"):
      story!.cursor = nil
    case .end, .character("G"):
      story!.cursor = rows.last?.id
    case .enter, .character(" "), .character("c"):
      guard let id = story!.cursor, story!.comments[id]?.kids.isEmpty == false else { break }
      if story!.collapsed.remove(id) == nil { story!.collapsed.insert(id) }
    case .character("r"):
      story!.loading = true
      return [.loadComments(story!.story)]
    default:
      break
    }
    return []
  }
}
