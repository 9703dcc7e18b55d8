import Confluence
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Where an event-source subscription stands: its connection, the parser, what waits to be
/// delivered and the reconnection bookkeeping. Pure state, changed under the subscription's
/// lock; its transitions return what the subscription must do next.
struct EventSourceState {
  enum Connection: Equatable {
    /// Never connected: the first demand connects.
    case idle
    /// Connection `generation` was asked for; its response has not come.
    case connecting(generation: Int)
    /// Connection `generation` answered 200 with an event stream.
    case open(generation: Int)
    /// Connection `generation` ended; its events are being delivered, then it reconnects.
    case closed(generation: Int)
    /// Waiting to reconnect (the `.reconnecting` update is queued, or its timer runs).
    case waiting(generation: Int)
  }

  /// How a stream ended.
  enum StreamEnd {
    case closedByServer
    case failed(HTTPStreamError)

    var error: HTTPStreamError? {
      if case .failed(let error) = self { return error }
      return nil
    }
  }

  /// What the drain loop does next; every step but `.deliver` leaves the loop.
  enum Step {
    /// Deliver an update; `reconnectAfter`: then start the reconnection timer (milliseconds).
    case deliver(EventSourceUpdate, reconnectAfter: Int?, generation: Int)
    /// Deliver a completion, cancelling the current connection first.
    case complete(Subscribers.Completion<HTTPStreamError>, cancel: Subscription?)
    /// Ask the current connection for its next chunk.
    case requestChunk(Subscription)
    /// Make connection `generation`, sending `lastEventID` if it is not empty.
    case connect(generation: Int, lastEventID: String)
    case stop
  }

  let configuration: EventSourceConfiguration
  var parser: ServerSentEventParser
  var connection = Connection.idle
  var generation = 0
  var upstream: Subscription?
  var awaitingChunk = false
  var streamEnd: StreamEnd?
  /// Connection updates waiting for demand (at most `.reconnecting` and `.open`).
  var pending: [EventSourceUpdate] = []
  /// A completion to deliver at once.
  var terminal: Subscribers.Completion<HTTPStreamError>?
  var demand = Subscribers.Demand.none
  var draining = false
  var ended = false
  /// The reconnection time in milliseconds: the configuration's until the server sends `retry`.
  var reconnectionTime: Int
  var failuresInARow = 0

  init(configuration: EventSourceConfiguration) {
    self.configuration = configuration
    parser = ServerSentEventParser(
      lastEventID: configuration.lastEventID, maximumEventLength: configuration.maximumEventLength)
    reconnectionTime = Self.milliseconds(configuration.reconnectionTime)
  }

  static func milliseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    return overflow ? Int(Int64.max) : Int(whole + attoseconds / 1_000_000_000_000_000)
  }

  /// Enters the drain loop unless another thread is in it or the subscription ended.
  mutating func enterDrain() -> Bool {
    guard !draining, !ended else { return false }
    draining = true
    return true
  }

  mutating func nextStep() -> Step {
    while true {
      guard !ended else { return leave(.stop) }
      if let terminal { return end(terminal) }
      guard demand > .none else { return leave(.stop) }
      if !pending.isEmpty {
        let update = pending.removeFirst()
        demand -= 1
        if case .reconnecting(let reconnection) = update {
          return .deliver(
            update, reconnectAfter: Self.milliseconds(reconnection.delay), generation: generation)
        }
        return .deliver(update, reconnectAfter: nil, generation: generation)
      }
      do {
        if let output = try parser.next() {
          switch output {
          case .retry(let milliseconds):
            reconnectionTime = milliseconds
            continue
          case .event(let event):
            demand -= 1
            return .deliver(.event(event), reconnectAfter: nil, generation: generation)
          }
        }
      } catch {
        return end(.failure(error))
      }
      if let streamEnd {
        // The events the connection delivered before it ended are out: reconnect.
        self.streamEnd = nil
        parser.endOfStream()
        failuresInARow += 1
        if let limit = configuration.maximumReconnectAttempts, failuresInARow > limit {
          return end(.failure(streamEnd.error ?? .connectionFailed(URLError(.networkConnectionLost))))
        }
        let reconnection = EventSourceReconnection(
          attempt: failuresInARow, delay: .milliseconds(reconnectDelay()), lastEventID: parser.lastEventID,
          error: streamEnd.error)
        pending.append(.reconnecting(reconnection))
        connection = .waiting(generation: generation)
        continue
      }
      switch connection {
      case .idle:
        generation += 1
        connection = .connecting(generation: generation)
        return leave(.connect(generation: generation, lastEventID: parser.lastEventID))
      case .open:
        guard !awaitingChunk, let upstream else { return leave(.stop) }
        awaitingChunk = true
        return leave(.requestChunk(upstream))
      case .connecting, .closed, .waiting:
        return leave(.stop)
      }
    }
  }

  /// The wait before the next attempt, in milliseconds: the reconnection time doubled for
  /// each failure in a row after the first, at most the configured maximum.
  func reconnectDelay() -> Int {
    let maximum = Self.milliseconds(configuration.maximumReconnectionDelay)
    var delay = min(reconnectionTime, maximum)
    var doublings = failuresInARow - 1
    while doublings > 0, delay < maximum {
      delay = delay > maximum / 2 ? maximum : max(delay * 2, 1)
      doublings -= 1
    }
    return min(delay, maximum)
  }

  /// The reconnection timer of `generation` fired: returns the connection to make, if it
  /// is still wanted.
  mutating func reconnectTimerFired(generation fired: Int) -> (generation: Int, lastEventID: String)? {
    guard !ended, connection == .waiting(generation: fired) else { return nil }
    generation += 1
    connection = .connecting(generation: generation)
    return (generation, parser.lastEventID)
  }

  /// Connection `generation` handed over its subscription: returns whether to keep it.
  mutating func subscribed(_ subscription: Subscription, generation attempt: Int) -> Bool {
    guard !ended, connection == .connecting(generation: attempt), upstream == nil else { return false }
    upstream = subscription
    awaitingChunk = true
    return true
  }

  /// Connection `generation` answered.
  mutating func received(response: HTTPURLResponse, generation attempt: Int) {
    guard !ended, connection == .connecting(generation: attempt) else { return }
    awaitingChunk = false
    if response.statusCode == 204 {
      terminal = .finished
      return
    }
    guard response.statusCode == 200 else {
      terminal = .failure(.unacceptableStatus(response.statusCode))
      return
    }
    let contentType = response.value(forHTTPHeaderField: "Content-Type")
    let essence = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
    guard essence == "text/event-stream" else {
      terminal = .failure(.unexpectedContentType(contentType))
      return
    }
    connection = .open(generation: attempt)
    failuresInARow = 0
    pending.append(.open)
  }

  /// Connection `generation` delivered bytes.
  mutating func received(_ chunk: Data, generation attempt: Int) {
    guard !ended, connection == .open(generation: attempt) else { return }
    awaitingChunk = false
    parser.append(chunk)
  }

  /// Connection `generation` ended.
  mutating func completed(_ completion: Subscribers.Completion<HTTPStreamError>, generation attempt: Int) {
    guard !ended, connection == .open(generation: attempt) || connection == .connecting(generation: attempt)
    else { return }
    upstream = nil
    awaitingChunk = false
    connection = .closed(generation: attempt)
    switch completion {
    case .finished:
      streamEnd = .closedByServer
    case .failure(.tooManyRedirects(let limit)):
      terminal = .failure(.tooManyRedirects(limit))
    case .failure(let error):
      streamEnd = .failed(error)
    }
  }

  /// The subscriber cancelled: returns the connection to cancel, or `nil` if already ended.
  mutating func cancel() -> Subscription?? {
    guard !ended else { return nil }
    ended = true
    pending = []
    parser.endOfStream()
    defer { upstream = nil }
    return .some(upstream)
  }

  private mutating func leave(_ step: Step) -> Step {
    draining = false
    return step
  }

  private mutating func end(_ completion: Subscribers.Completion<HTTPStreamError>) -> Step {
    ended = true
    draining = false
    pending = []
    parser.endOfStream()
    let upstream = self.upstream
    self.upstream = nil
    return .complete(completion, cancel: upstream)
  }
}
