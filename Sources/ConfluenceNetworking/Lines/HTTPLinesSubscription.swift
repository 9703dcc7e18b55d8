import Confluence
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Where a lines subscription stands. Pure state, changed under the subscription's lock.
struct HTTPLinesState {
  /// What the drain loop does next; every step but `.deliver` leaves the loop.
  enum Step {
    case deliver(String)
    /// Deliver `ending`'s completion, cancelling its upstream first (a line too long ends
    /// the stream while the connection is open).
    case complete
    /// Ask `upstream` for one more chunk.
    case requestChunk
    case stop
  }

  var scanner: LineScanner
  var demand = Subscribers.Demand.none
  var upstream: Subscription?
  /// A chunk (or the response) has been asked for and has not come.
  var awaitingChunk = false
  /// How the upstream ended; acted on once the lines before it are delivered.
  var upstreamCompletion: Subscribers.Completion<HTTPStreamError>?
  /// The completion to deliver and the upstream to cancel, once `.complete` was returned.
  var ending: (completion: Subscribers.Completion<HTTPStreamError>, upstream: Subscription?)?
  /// A thread is running the drain loop (delivering): others leave the work to it.
  var draining = false
  var ended = false

  init(maximumLineLength: Int) {
    scanner = LineScanner(terminators: .lineFeed, maximumLength: maximumLineLength)
  }

  /// Enters the drain loop unless another thread is in it or the subscription ended.
  mutating func enterDrain() -> Bool {
    guard !draining, !ended else { return false }
    draining = true
    return true
  }

  /// The drain loop's next step.
  mutating func nextStep() -> Step {
    guard !ended else { return leave(.stop) }
    if case .failure(let error)? = upstreamCompletion, scanner.isDrained {
      // Every complete line is out; a line the failure cut short is not one.
      return end(.failure(error))
    }
    guard demand > .none else { return leave(.stop) }
    do {
      if let line = try scanner.nextLine(Self.decode) {
        demand -= 1
        return .deliver(line)
      }
      if let completion = upstreamCompletion {
        if case .finished = completion, let last = try scanner.finalLine(Self.decode) {
          demand -= 1
          return .deliver(last)
        }
        return end(completion)
      }
    } catch {
      return end(.failure(error))
    }
    guard !awaitingChunk, upstream != nil else { return leave(.stop) }
    awaitingChunk = true
    return leave(.requestChunk)
  }

  private static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
    bytes.withMemoryRebound(to: UInt8.self) { String(decoding: $0, as: UTF8.self) }
  }

  private mutating func leave(_ step: Step) -> Step {
    draining = false
    return step
  }

  private mutating func end(_ completion: Subscribers.Completion<HTTPStreamError>) -> Step {
    ended = true
    draining = false
    scanner.reset()
    ending = (completion, upstream)
    upstream = nil
    return .complete
  }
}

/// The subscription an ``HTTPLinesPublisher`` hands each subscriber: it subscribes to the
/// bytes publisher, asks it for one chunk at a time when its lines are used up and the
/// subscriber wants more, and cuts the chunks into lines as they are asked for.
//
// @unchecked Sendable: `state` and `downstream` are guarded by `lock`; deliveries to the
// downstream happen only inside the drain loop, which one thread at a time runs.
//
// Not generic over the downstream: it holds the subscriber as an `HTTPLinesDownstream` (two
// functions), so its code is compiled once, specialised, in this module (generic, it ran
// unspecialised for every client's subscriber type, with a run-time metadata look-up per
// line).
final class HTTPLinesSubscription: Subscription, Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Input = HTTPBytesPublisher.Part
  typealias Failure = HTTPStreamError
  typealias Downstream = HTTPLinesDownstream

  private let lock = Lock()
  /// Guarded by `lock`, which is why the run-time exclusivity checks are off for it (they
  /// cost a look-up per line and can only confirm what the lock already ensures).
  @exclusivity(unchecked) private var state: HTTPLinesState
  @exclusivity(unchecked) private var downstream: Downstream?

  init(downstream: Downstream, maximumLineLength: Int) {
    self.downstream = downstream
    state = HTTPLinesState(maximumLineLength: maximumLineLength)
  }

  // MARK: Subscription (the downstream's side)

  func request(_ demand: Subscribers.Demand) {
    confluencePrecondition(
      demand != .none, "API violation: request(_:) was called with demand .none; request at least .max(1)")
    lock.withLock { state.demand += demand }
    drain()
  }

  func cancel() {
    let (upstream, released) = lock.withLock { () -> (Subscription?, Downstream?) in
      guard !state.ended else { return (nil, nil) }
      state.ended = true
      state.scanner.reset()
      defer {
        state.upstream = nil
        downstream = nil
      }
      return (state.upstream, downstream)
    }
    upstream?.cancel()
    withExtendedLifetime(released) {}
  }

  // MARK: Subscriber (the bytes publisher's side)

  func receive(subscription: Subscription) {
    let keep = lock.withLock { () -> Bool in
      guard state.upstream == nil, !state.ended else { return false }
      state.upstream = subscription
      return true
    }
    if !keep { subscription.cancel() }
  }

  func receive(_ input: HTTPBytesPublisher.Part) -> Subscribers.Demand {
    switch input {
    case .response(let response):
      guard (200..<300).contains(response.statusCode) else {
        let upstream = lock.withLock { () -> Subscription? in
          state.awaitingChunk = false
          if state.upstreamCompletion == nil {
            state.upstreamCompletion = .failure(.unacceptableStatus(response.statusCode))
          }
          defer { state.upstream = nil }
          return state.upstream
        }
        upstream?.cancel()
        drain()
        return .none
      }
      lock.withLock { state.awaitingChunk = false }
    case .bytes(let chunk):
      lock.withLock {
        state.awaitingChunk = false
        if !state.ended { state.scanner.append(chunk) }
      }
    }
    drain()
    return .none
  }

  func receive(completion: Subscribers.Completion<HTTPStreamError>) {
    lock.withLock {
      state.awaitingChunk = false
      state.upstream = nil
      if state.upstreamCompletion == nil { state.upstreamCompletion = completion }
    }
    drain()
  }

  // MARK: Delivery

  /// Delivers lines while there is demand and lines to deliver, then asks for the next
  /// chunk or delivers the completion. One thread at a time runs it; a thread that finds
  /// another in it leaves its news (demand, a chunk) in the state for that one to act on.
  private func drain() {
    // The downstream is read once: it changes only when the subscription ends, and the loop
    // asks the state whether it has before each delivery.
    guard let target = lock.withLock({ state.enterDrain() ? downstream : nil }) else { return }
    while true {
      switch lock.withLock({ state.nextStep() }) {
      case .deliver(let line):
        let more = target.receive(line)
        if more > .none { lock.withLock { state.demand += more } }
      case .complete:
        let ending = lock.withLock { () -> (Subscribers.Completion<HTTPStreamError>, Subscription?)? in
          defer {
            state.ending = nil
            downstream = nil
          }
          return state.ending
        }
        guard let (completion, upstream) = ending else { return }
        upstream?.cancel()
        target.receive(completion: completion)
        return
      case .requestChunk:
        lock.withLock { state.upstream }?.request(.max(1))
        return
      case .stop:
        return
      }
    }
  }

  var description: String { "HTTPLinesPublisher" }

  var customMirror: Mirror {
    let demand = lock.withLock { state.demand }
    return Mirror(self, children: ["demand": demand])
  }

  var playgroundDescription: Any { description }
}
