#if canImport(ConfluenceNetworking)
  import Combine
  import ConfluenceNetworking
  import Foundation

  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  /// The streams behind ``API/liveFeed(_:limit:scheduler:)``: the feed's, and one per
  /// listed item, each applied to its ``FirebaseTree``.
  ///
  /// Every stream delivers on `scheduler` (serial), so their events are handled one at a
  /// time and in order; what they change is sent to `events` after the lock is released.
  // Safe: `lock` guards every `var`; `events` is sent to only outside it, and only from
  // `scheduler`.
  final class LiveFeedStreams<S: Scheduler>: @unchecked Sendable {
    private let api: API
    private let feed: Feed
    private let limit: Int
    private let scheduler: S
    let events = PassthroughSubject<LiveFeedEvent, Never>()

    private let lock = NSLock()
    private var stopped = false
    private var feedTree = FirebaseTree.null
    private var listed: [Int]?
    private var feedStream: AnyCancellable?
    private var itemStreams: [Int: AnyCancellable] = [:]
    private var itemTrees: [Int: FirebaseTree] = [:]
    /// The streams that dropped and have not opened again: item ids, and -1 for the feed's.
    private var down: Set<Int> = []
    private var feedAttempt = 0
    private var feedOpened = false
    private var connection: LiveFeedEvent.Connection?

    init(api: API, feed: Feed, limit: Int, scheduler: S) {
      self.api = api
      self.feed = feed
      self.limit = limit
      self.scheduler = scheduler
    }

    func start() {
      let cancellable = stream(API.EndPoint.feed(feed))
        .sink(
          receiveCompletion: { [weak self] in self?.feedEnded($0) },
          receiveValue: { [weak self] in self?.feedUpdate($0) })
      lock.withLock { feedStream = stopped ? nil : cancellable }
    }

    func stop() {
      let cancellables = lock.withLock { () -> [AnyCancellable] in
        stopped = true
        defer {
          feedStream = nil
          itemStreams = [:]
        }
        return [feedStream].compactMap { $0 } + Array(itemStreams.values)
      }
      cancellables.forEach { $0.cancel() }
    }

    /// An endpoint's event stream, delivered on the scheduler. A 5xx answer (or, for an
    /// item, a failed connection) before the stream opened is tried again after a wait
    /// that doubles up to 8 seconds, where the standard would give up; anything else ends
    /// it — for the feed, a server that cannot be reached is then polled, which reports it.
    private func stream(_ endpoint: API.EndPoint) -> AnyPublisher<EventSourceUpdate, HTTPStreamError> {
      let isItem: Bool
      if case .item = endpoint { isItem = true } else { isItem = false }
      var request = URLRequest(url: endpoint.url(relativeTo: api.baseURL))
      request.timeoutInterval = max(1, api.retryPolicy.timeout.rounded(.up))
      var configuration = EventSourceConfiguration()
      configuration.reconnectionTime = .seconds(1)
      configuration.maximumReconnectionDelay = .seconds(10)
      let scheduler = self.scheduler
      let session = api.client.session
      func attempt(_ number: Int) -> AnyPublisher<EventSourceUpdate, HTTPStreamError> {
        session.eventSourcePublisher(for: request, scheduler: scheduler, configuration: configuration)
          .catch { error -> AnyPublisher<EventSourceUpdate, HTTPStreamError> in
            let retried: Bool
            switch error {
            case .unacceptableStatus(500...), .malformedResponse, .bufferLimitExceeded: retried = true
            case .connectionFailed: retried = isItem
            default: retried = false
            }
            switch retried {
            case true:
              let wait = Duration.seconds(min(10, 1 << min(number, 3)))
              let reconnection = EventSourceReconnection(attempt: number, delay: wait, lastEventID: "", error: error)
              let again = Just(())
                .delay(for: .seconds(min(10, 1 << min(number, 3))), scheduler: scheduler)
                .setFailureType(to: HTTPStreamError.self)
                .flatMap { attempt(number + 1) }
              return Just(EventSourceUpdate.reconnecting(reconnection)).setFailureType(to: HTTPStreamError.self)
                .append(again)
                .eraseToAnyPublisher()
            case false:
              return Fail(error: error).eraseToAnyPublisher()
            }
          }
          .eraseToAnyPublisher()
      }
      return attempt(1).receive(on: scheduler).eraseToAnyPublisher()
    }

    // MARK: The feed's stream

    private func feedUpdate(_ update: EventSourceUpdate) {
      var sent: [LiveFeedEvent] = []
      var opened: [(Int, AnyPublisher<EventSourceUpdate, HTTPStreamError>)] = []
      var closed: [AnyCancellable] = []
      var unreachable: String?
      lock.withLock {
        guard !stopped else { return }
        switch update {
        case .open:
          down.remove(-1)
          feedAttempt = 0
          feedOpened = true
        case .reconnecting(let reconnection) where !feedOpened:
          // It never opened: the server cannot be reached (or does not stream); polling
          // says which.
          unreachable = reconnection.error?.description ?? "the stream did not open"
        case .reconnecting(let reconnection):
          down.insert(-1)
          feedAttempt = reconnection.attempt
        case .event(let event):
          guard feedTree.apply(type: event.type, data: event.data) else { break }
          let ids = Array(
            feedTree.listed.compactMap { tree -> Int? in if case .int(let id) = tree { id } else { nil } }.prefix(limit)
          )
          guard ids != listed else { break }
          listed = ids
          sent.append(.listed(ids))
          let wanted = Set(ids)
          for (id, cancellable) in itemStreams where !wanted.contains(id) {
            closed.append(cancellable)
            itemStreams[id] = nil
            itemTrees[id] = nil
            down.remove(id)
          }
          for id in ids where itemStreams[id] == nil {
            itemStreams[id] = AnyCancellable {}
            opened.append((id, stream(.item(id))))
          }
        }
        if let state = connectionChange() { sent.append(.connection(state)) }
      }
      if let unreachable { return end(because: unreachable) }
      closed.forEach { $0.cancel() }
      sent.forEach(events.send)
      for (id, publisher) in opened {
        let cancellable = publisher.sink(
          receiveCompletion: { [weak self] _ in self?.itemEnded(id) },
          receiveValue: { [weak self] in self?.itemUpdate(id, $0) })
        let kept = lock.withLock { () -> Bool in
          guard !stopped, itemStreams[id] != nil else { return false }
          itemStreams[id] = cancellable
          return true
        }
        if !kept { cancellable.cancel() }
      }
    }

    private func feedEnded(_ completion: Subscribers.Completion<HTTPStreamError>) {
      switch completion {
      case .finished: end(because: "the server ended the stream")
      case .failure(let error): end(because: error.description)
      }
    }

    /// Closes every stream and tells the subscriber the feed does not stream.
    private func end(because reason: String) {
      let wasStopped = lock.withLock { stopped }
      guard !wasStopped else { return }
      stop()
      events.send(.connection(.notStreaming(reason)))
      events.send(completion: .finished)
    }

    /// The connection's state if it changed (under the lock).
    private func connectionChange() -> LiveFeedEvent.Connection? {
      let state: LiveFeedEvent.Connection =
        down.isEmpty ? .live : .reconnecting(streams: down.count, attempt: down.contains(-1) ? feedAttempt : 0)
      guard listed != nil || !down.isEmpty, state != connection else { return nil }
      connection = state
      return state
    }

    // MARK: The items' streams

    private func itemUpdate(_ id: Int, _ update: EventSourceUpdate) {
      var sent: [LiveFeedEvent] = []
      lock.withLock {
        guard !stopped, itemStreams[id] != nil else { return }
        switch update {
        case .open:
          down.remove(id)
        case .reconnecting:
          down.insert(id)
        case .event(let event):
          var tree = itemTrees[id] ?? .null
          guard tree.apply(type: event.type, data: event.data), tree != itemTrees[id] else { break }
          itemTrees[id] = tree
          if tree == .null {
            sent.append(.missing(id))
          } else if let data = try? JSONEncoder().encode(tree),
            let item = try? JSONDecoder().decode(Item.self, from: data)
          {
            sent.append(.item(item))
          }
        }
        if let state = connectionChange() { sent.append(.connection(state)) }
      }
      sent.forEach(events.send)
    }

    private func itemEnded(_ id: Int) {
      let state = lock.withLock { () -> LiveFeedEvent.Connection? in
        down.remove(id)
        return connectionChange()
      }
      if let state { events.send(.connection(state)) }
    }
  }
#endif
