import Confluence
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Where a bytes subscription stands. Pure state, changed under the subscription's lock.
struct HTTPBytesState {
  enum Phase {
    /// Nothing asked for yet: no connection.
    case waiting
    /// The connection is being made; its response is the first value.
    case awaitingResponse
    /// The response was delivered; body chunks are read one per unit of demand.
    case streaming
    /// Finished, failed or cancelled.
    case ended
  }

  enum RequestAction {
    case none
    case start
    case readNext
  }

  var phase = Phase.waiting
  var demand = Subscribers.Demand.none
  /// A `readNext()` has been sent and its report has not come.
  var readInFlight = false

  mutating func request(_ more: Subscribers.Demand) -> RequestAction {
    switch phase {
    case .ended:
      return .none
    case .waiting:
      demand += more
      phase = .awaitingResponse
      return .start
    case .awaitingResponse:
      demand += more
      return .none
    case .streaming:
      demand += more
      return nextRead()
    }
  }

  /// A value arrived from the connection: returns whether to deliver it.
  mutating func willDeliver() -> Bool {
    guard phase != .ended else { return false }
    readInFlight = false
    demand -= 1
    return true
  }

  /// The downstream took a value and asked for `more`: returns whether to read on.
  mutating func delivered(more: Subscribers.Demand) -> Bool {
    guard phase != .ended else { return false }
    phase = .streaming
    demand += more
    return nextRead() == .readNext
  }

  /// Returns whether this ended the subscription.
  mutating func end() -> Bool {
    guard phase != .ended else { return false }
    phase = .ended
    return true
  }

  private mutating func nextRead() -> RequestAction {
    guard demand > .none, !readInFlight else { return .none }
    readInFlight = true
    return .readNext
  }
}

/// The subscription an ``HTTPBytesPublisher`` hands each subscriber: it opens the
/// connection on the first request and reads one chunk per unit of demand.
//
// @unchecked Sendable: `state`, `downstream` and `connection` are guarded by `lock`; the
// connection reports one at a time, from its own queue, so deliveries are serialised.
//
// Not generic over the downstream (it holds an `AnySubscriber`): its code is compiled once,
// specialised, in this module.
final class HTTPBytesSubscription: Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, HTTPStreamReportHandler, @unchecked Sendable
{
  typealias Downstream = AnySubscriber<HTTPBytesPublisher.Part, HTTPStreamError>

  private let lock = Lock()
  private var state = HTTPBytesState()
  private var parent: HTTPBytesPublisher?
  private var downstream: Downstream?
  private var connection: HTTPStreamConnection?

  init(parent: HTTPBytesPublisher, downstream: Downstream) {
    self.parent = parent
    self.downstream = downstream
  }

  func request(_ demand: Subscribers.Demand) {
    confluencePrecondition(
      demand != .none, "API violation: request(_:) was called with demand .none; request at least .max(1)")
    let (action, parent, connection) = lock.withLock {
      (state.request(demand), self.parent, self.connection)
    }
    switch action {
    case .none:
      return
    case .readNext:
      connection?.readNext()
    case .start:
      guard let parent else { return }
      let made = HTTPStreamConnections.make(
        request: parent.request, session: parent.session, transport: parent.transport)
      let cancelled = lock.withLock { () -> Bool in
        if state.phase == .ended { return true }
        self.connection = made
        self.parent = nil
        return false
      }
      if cancelled {
        made.cancel()
      } else {
        // The connection holds this subscription until it ends or is cancelled.
        made.start(self)
      }
    }
  }

  func cancel() {
    let (connection, released) = lock.withLock { () -> (HTTPStreamConnection?, Downstream?) in
      guard state.end() else { return (nil, nil) }
      defer {
        self.connection = nil
        downstream = nil
        parent = nil
      }
      return (self.connection, downstream)
    }
    connection?.cancel()
    withExtendedLifetime(released) {}
  }

  func handle(_ report: HTTPStreamReport) {
    switch report {
    case .response(let response):
      deliver(.response(response))
    case .body(let bytes):
      deliver(.bytes(bytes))
    case .end:
      finish(.finished)
    case .failure(let error):
      finish(.failure(error))
    }
  }

  private func deliver(_ part: HTTPBytesPublisher.Part) {
    let target = lock.withLock { state.willDeliver() ? downstream : nil }
    guard let target else { return }
    let more = target.receive(part)
    let (reads, connection) = lock.withLock { (state.delivered(more: more), self.connection) }
    if reads { connection?.readNext() }
  }

  private func finish(_ completion: Subscribers.Completion<HTTPStreamError>) {
    let target = lock.withLock { () -> Downstream? in
      guard state.end() else { return nil }
      defer {
        connection = nil
        downstream = nil
      }
      return downstream
    }
    target?.receive(completion: completion)
  }

  var description: String { "HTTPBytesPublisher" }

  var customMirror: Mirror {
    let demand = lock.withLock { state.demand }
    return Mirror(self, children: ["demand": demand])
  }

  var playgroundDescription: Any { description }
}
