import Confluence
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The subscription an ``EventSourcePublisher`` hands each subscriber: it makes one
/// connection after another (an ``HTTPBytesPublisher`` each, subscribed by an
/// `EventSourceAttempt`), reads each chunk by chunk as the subscriber asks, and waits on the
/// scheduler between them.
//
// @unchecked Sendable: `state` and `downstream` are guarded by `lock`; deliveries happen only
// in the drain loop, which one thread at a time runs.
//
// Generic over the scheduler only: the downstream is an `AnySubscriber`, so the per-event
// code does not depend on the client's subscriber type.
final class EventSourceSubscription<Context: Scheduler>: Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Downstream = AnySubscriber<EventSourceUpdate, HTTPStreamError>

  private let lock = Lock()
  private var state: EventSourceState
  private var downstream: Downstream?
  private let request: URLRequest
  private let session: URLSession
  private let scheduler: Context

  init(parent: EventSourcePublisher<Context>, downstream: Downstream) {
    self.downstream = downstream
    state = EventSourceState(configuration: parent.configuration)
    request = parent.request
    session = parent.session
    scheduler = parent.scheduler
  }

  func request(_ demand: Subscribers.Demand) {
    confluencePrecondition(
      demand != .none, "API violation: request(_:) was called with demand .none; request at least .max(1)")
    lock.withLock { state.demand += demand }
    drain()
  }

  func cancel() {
    let (upstream, released) = lock.withLock { () -> (Subscription??, Downstream?) in
      let upstream = state.cancel()
      defer { if upstream != nil { downstream = nil } }
      return (upstream, upstream != nil ? downstream : nil)
    }
    upstream??.cancel()
    withExtendedLifetime(released) {}
  }

  // MARK: The connections' news

  func attemptSubscribed(_ subscription: Subscription, generation: Int) {
    if lock.withLock({ state.subscribed(subscription, generation: generation) }) {
      subscription.request(.max(1))  // the response
    } else {
      subscription.cancel()
    }
  }

  func attemptReceived(_ part: HTTPBytesPublisher.Part, generation: Int) {
    lock.withLock {
      switch part {
      case .response(let response): state.received(response: response, generation: generation)
      case .bytes(let chunk): state.received(chunk, generation: generation)
      }
    }
    drain()
  }

  func attemptCompleted(_ completion: Subscribers.Completion<HTTPStreamError>, generation: Int) {
    lock.withLock { state.completed(completion, generation: generation) }
    drain()
  }

  private func reconnectTimerFired(generation: Int) {
    guard let next = lock.withLock({ state.reconnectTimerFired(generation: generation) }) else { return }
    connect(generation: next.generation, lastEventID: next.lastEventID)
  }

  // MARK: Delivery

  /// Delivers updates while there is demand and something to deliver, then asks for what
  /// comes next. One thread at a time runs it; a thread that finds another in it leaves its
  /// news in the state for that one to act on.
  private func drain() {
    guard lock.withLock({ state.enterDrain() }) else { return }
    while true {
      let (step, target) = lock.withLock { () -> (EventSourceState.Step, Downstream?) in
        let step = state.nextStep()
        let target = downstream
        if case .complete = step { downstream = nil }
        return (step, target)
      }
      switch step {
      case .deliver(let update, let reconnectAfter, let generation):
        guard let target else { return }
        if let reconnectAfter {
          // The timer starts once the update that announces it is out.
          scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(reconnectAfter))) { [weak self] in
            self?.reconnectTimerFired(generation: generation)
          }
        }
        let more = target.receive(update)
        if more > .none { lock.withLock { state.demand += more } }
      case .complete(let completion, let upstream):
        upstream?.cancel()
        target?.receive(completion: completion)
        return
      case .requestChunk(let upstream):
        upstream.request(.max(1))
        return
      case .connect(let generation, let lastEventID):
        connect(generation: generation, lastEventID: lastEventID)
        return
      case .stop:
        return
      }
    }
  }

  private func connect(generation: Int, lastEventID: String) {
    var request = self.request
    if request.value(forHTTPHeaderField: "Accept") == nil {
      request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
    }
    request.setValue("no-store", forHTTPHeaderField: "Cache-Control")
    request.setValue(lastEventID.isEmpty ? nil : lastEventID, forHTTPHeaderField: "Last-Event-ID")
    let transport = lock.withLock { state.configuration.transport }
    HTTPBytesPublisher(request: request, session: session, transport: transport)
      .subscribe(EventSourceAttempt(owner: self, generation: generation))
  }

  var description: String { "EventSourcePublisher" }

  var customMirror: Mirror {
    let (demand, lastEventID) = lock.withLock { (state.demand, state.parser.lastEventID) }
    return Mirror(self, children: ["demand": demand, "lastEventID": lastEventID])
  }

  var playgroundDescription: Any { description }
}

/// Subscribes to one connection's ``HTTPBytesPublisher`` for an event-source subscription
/// and passes what it receives on, tagged with the connection's generation (news from a
/// connection that has been replaced is ignored).
///
/// It holds its owner strongly while the connection lives: the bytes subscription lets go
/// of it when the connection ends or is cancelled.
final class EventSourceAttempt<Context: Scheduler>: Subscriber, @unchecked Sendable {
  // @unchecked Sendable: both properties are constants.
  typealias Input = HTTPBytesPublisher.Part
  typealias Failure = HTTPStreamError

  let combineIdentifier = CombineIdentifier()
  private let owner: EventSourceSubscription<Context>
  private let generation: Int

  init(owner: EventSourceSubscription<Context>, generation: Int) {
    self.owner = owner
    self.generation = generation
  }

  func receive(subscription: Subscription) {
    owner.attemptSubscribed(subscription, generation: generation)
  }

  func receive(_ input: HTTPBytesPublisher.Part) -> Subscribers.Demand {
    owner.attemptReceived(input, generation: generation)
    return .none
  }

  func receive(completion: Subscribers.Completion<HTTPStreamError>) {
    owner.attemptCompleted(completion, generation: generation)
  }
}
