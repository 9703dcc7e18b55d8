import Combine

/// A publisher that subscribes the subscriber to `upstream` and only then calls `start`.
///
/// ``API/liveFeed(_:limit:scheduler:)`` sends to a `PassthroughSubject` from the streams it
/// opens, and a subject drops a value its subscriber has not asked for. Starting the
/// streams from `handleEvents(receiveSubscription:)` opened them before the subscriber had
/// received its subscription and asked for values: an answer that came back fast enough (a
/// 404 under load, in a test) was sent to no demand and lost, and only the completion
/// arrived. Here `start` runs once `upstream.receive(subscriber:)` has returned, by which
/// time a `sink` has asked for unlimited values.
///
/// Back-pressure: the upstream's, untouched.
struct StartingAfterSubscription<Upstream: Publisher>: Publisher {
  typealias Output = Upstream.Output
  typealias Failure = Upstream.Failure

  let upstream: Upstream
  let start: () -> Void

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    upstream.receive(subscriber: subscriber)
    start()
  }
}
