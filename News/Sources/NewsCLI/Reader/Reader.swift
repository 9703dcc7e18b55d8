import Combine
import Foundation
import HackerNews

/// The interactive reader: keys and resizes in, frames out, on one scheduler.
///
/// The reader is built the way the book builds a UI on Combine. Keys and terminal sizes
/// arrive as publishers (in the app, ``TerminalInput`` wraps `read(2)` on standard input
/// and `SIGWINCH` in subjects); every event goes through ``ReaderState/handle(_:)``, and
/// the state, sent to a `CurrentValueSubject`, is mapped to a frame by ``ReaderRenderer``
/// (`removeDuplicates` keeps unchanged frames off the terminal). What the state machine
/// asks for runs through pipelines:
///
/// - the filter text: `debounce` then `removeDuplicates`, so the list is filtered once
///   typing pauses and not again for the same text;
/// - feed loads and comment loads: `map` to the load's publisher then `switchToLatest`, so
///   switching feed cancels the load of the feed before, and opening another story (or
///   going back) cancels the loads of the story before;
/// - a refresh timer scheduled on the scheduler (a repeating `schedule(after:interval:)`),
///   so that tests drive it on virtual time; it does not poll while the feed's event
///   streams (``ReaderSource/liveFeed(_:limit:)``) keep the list current.
///
/// Everything is delivered on `scheduler` (`receive(on:)`); the scheduler must be serial
/// (the main queue in the app, a `TestScheduler` in tests).
// Safe: `lock` guards `state`; it is released before anything is called (frames drawn,
// subjects sent to, the store, the opener), so a re-entrant event never deadlocks.
final class Reader<S: Scheduler>: @unchecked Sendable {
  private let lock = NSLock()
  private var state: ReaderState
  private let scheduler: S
  private let source: any ReaderSource
  private let store: any ReaderStore
  private let style: Style
  private let now: () -> Date
  private let openLink: (String) -> Bool
  private let onQuit: () -> Void
  private let draw: ([String]) -> Void

  private let states: CurrentValueSubject<ReaderState, Never>
  private let filterTexts = PassthroughSubject<String, Never>()
  private let feedLoads = PassthroughSubject<(Feed, live: Bool), Never>()
  private let commentLoads = PassthroughSubject<Item?, Never>()
  private let itemLoads = PassthroughSubject<Int, Never>()
  private let refreshTicks = PassthroughSubject<Void, Never>()
  private var subscriptions: [AnyCancellable] = []

  /// A reader of `source`, showing `limit` stories a feed.
  ///
  /// - Parameters:
  ///   - keys: The keys pressed.
  ///   - sizes: The terminal's size after each resize.
  ///   - size: The terminal's size at the start.
  ///   - scheduler: Where every event is handled and every frame drawn; serial.
  ///   - debounce: How long typing must pause before the filter applies.
  ///   - refresh: How often the feed reloads by itself; `nil` for never.
  ///   - openLink: Opens a link; returns `false` where nothing can open it.
  ///   - draw: Shows a frame (one string per terminal row).
  ///   - quit: Called once, when the person quits, before the reader stops (a program may
  ///     end there, with nothing cancelled).
  ///   - warnings: What goes wrong with the store, shown on the status line.
  init(
    source: any ReaderSource, store: any ReaderStore, keys: AnyPublisher<Key, Never>,
    sizes: AnyPublisher<TerminalSize, Never>, size: TerminalSize, limit: Int, scheduler: S,
    debounce: S.SchedulerTimeType.Stride, refresh: S.SchedulerTimeType.Stride?, style: Style,
    now: @escaping () -> Date = Date.init, openLink: @escaping (String) -> Bool,
    draw: @escaping ([String]) -> Void, quit: @escaping () -> Void,
    warnings: AnyPublisher<String, Never> = Empty().eraseToAnyPublisher()
  ) {
    let initial = ReaderState(limit: limit, size: size, readMarks: store.readMarks())
    self.state = initial
    self.states = CurrentValueSubject(initial)
    self.scheduler = scheduler
    self.source = source
    self.store = store
    self.style = style
    self.now = now
    self.openLink = openLink
    self.draw = draw
    self.onQuit = quit
    wire(keys: keys, sizes: sizes, debounce: debounce, refresh: refresh)
    warnings
      .receive(on: scheduler)
      .sink { [weak self] in self?.handle(.storeWarning($0)) }
      .store(in: &subscriptions)
  }

  /// The state now.
  var currentState: ReaderState { lock.withLock { state } }

  /// Draws the first frame and starts loading the first feed and, with `item`, that item,
  /// which opens as a story when it arrives.
  func start(openingItem item: Int? = nil) {
    let actions = lock.withLock { state.start(openingItem: item) }
    states.send(currentState)
    actions.forEach(perform)
  }

  /// Stops every pipeline: no more frames, loads cancelled.
  func stop() {
    let subscriptions = lock.withLock { () -> [AnyCancellable] in
      defer { self.subscriptions = [] }
      return self.subscriptions
    }
    subscriptions.forEach { $0.cancel() }
  }

  private func wire(
    keys: AnyPublisher<Key, Never>, sizes: AnyPublisher<TerminalSize, Never>,
    debounce: S.SchedulerTimeType.Stride, refresh: S.SchedulerTimeType.Stride?
  ) {
    var subscriptions: [AnyCancellable] = []
    let scheduler = self.scheduler
    let source = self.source
    let limit = state.limit

    // The screen: a frame per state, drawn only when it changed.
    let renderer = { [style, now] (state: ReaderState) in ReaderRenderer(style: style, now: now()).render(state) }
    states
      .map(renderer)
      .removeDuplicates()
      .sink { [draw] frame in draw(frame) }
      .store(in: &subscriptions)

    // Keys and resizes.
    keys.map(ReaderEvent.key)
      .merge(with: sizes.removeDuplicates().map(ReaderEvent.resized))
      .receive(on: scheduler)
      .sink { [weak self] in self?.handle($0) }
      .store(in: &subscriptions)

    // The filter: applied once typing pauses, and not again for the same text.
    filterTexts
      .debounce(for: debounce, scheduler: scheduler)
      .removeDuplicates()
      .sink { [weak self] in self?.handle(.filterSettled($0)) }
      .store(in: &subscriptions)

    // Feed loads: a new one cancels the one before (and closes its event streams).
    feedLoads
      .map { feed, live -> AnyPublisher<ReaderEvent, Never> in
        if live, let streamed = source.liveFeed(feed, limit: limit) {
          return streamed.map { ReaderEvent.live(feed, $0) }.eraseToAnyPublisher()
        }
        return source.feed(feed, limit: limit)
          .map { ReaderEvent.feedEvent(feed, $0) }
          .append(ReaderEvent.feedFinished(feed))
          .catch { Just(ReaderEvent.feedFailed(feed, $0)) }
          .eraseToAnyPublisher()
      }
      .switchToLatest()
      .receive(on: scheduler)
      .sink { [weak self] in self?.handle($0) }
      .store(in: &subscriptions)

    // Comment loads: opening another story, or going back, cancels the ones before.
    commentLoads
      .map { story -> AnyPublisher<ReaderEvent, Never> in
        guard let story else { return Empty().eraseToAnyPublisher() }
        return source.comments(of: story)
          .map { ReaderEvent.comment(storyID: story.id, $0) }
          .append(ReaderEvent.commentsFinished(storyID: story.id))
          .eraseToAnyPublisher()
      }
      .switchToLatest()
      .receive(on: scheduler)
      .sink { [weak self] in self?.handle($0) }
      .store(in: &subscriptions)

    // An item opened by id.
    itemLoads
      .map { id -> AnyPublisher<ReaderEvent, Never> in
        source.item(id: id)
          .map { ReaderEvent.itemLoaded(id, .success($0)) }
          .catch { Just(ReaderEvent.itemLoaded(id, .failure($0))) }
          .eraseToAnyPublisher()
      }
      .switchToLatest()
      .receive(on: scheduler)
      .sink { [weak self] in self?.handle($0) }
      .store(in: &subscriptions)

    // The refresh timer, on the scheduler's clock.
    if let refresh {
      refreshTicks
        .sink { [weak self] in self?.handle(.refreshTick) }
        .store(in: &subscriptions)
      let ticks = refreshTicks
      let timer = scheduler.schedule(after: scheduler.now.advanced(by: refresh), interval: refresh) { ticks.send() }
      subscriptions.append(AnyCancellable(timer))
    }
    self.subscriptions = subscriptions
  }

  /// Runs `event` through the state machine, shows the new state, then performs the
  /// machine's actions.
  func handle(_ event: ReaderEvent) {
    let (actions, newState) = lock.withLock { () -> ([ReaderAction], ReaderState) in
      let actions = state.handle(event)
      return (actions, state)
    }
    states.send(newState)
    actions.forEach(perform)
  }

  private func perform(_ action: ReaderAction) {
    switch action {
    case .loadFeed(let feed, let live):
      if let cached = store.cachedFeed(feed) { handle(.feedCached(feed, ids: cached.ids, items: cached.items)) }
      feedLoads.send((feed, live))
    case .loadComments(let story):
      if let cached = store.cachedComments(of: story.id) { handle(.commentsCached(storyID: story.id, cached)) }
      commentLoads.send(story)
    case .loadItem(let id):
      itemLoads.send(id)
    case .cancelComments:
      commentLoads.send(nil)
    case .filterTyped(let text):
      filterTexts.send(text)
    case .markRead(let id):
      store.markRead(id)
    case .openLink(let url):
      let opened = openLink(url)
      handle(.linkOpened(url, opened: opened))
    case .saveFeed(let feed, let ids, let items):
      store.saveFeed(feed, ids: ids, items: items)
    case .saveComments(let id, let comments):
      store.saveComments(comments, of: id)
    case .quit:
      // The owner first: `news` ends its process there, with no load cancelled. Cancelling a
      // URL session task just started can trap inside swift-corelibs-foundation
      // (`URLSession.behaviour(for:)`: the task has already left its session's registry), and
      // a process that is ending needs no cancel. An owner that returns gets the reader
      // stopped right after, before anything else runs on the scheduler.
      onQuit()
      stop()
    }
  }
}
