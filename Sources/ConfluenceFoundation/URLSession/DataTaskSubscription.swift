import Confluence
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Where a data task subscription stands. Pure state, changed under the subscription's lock.
struct DataTaskState {
  enum Phase {
    /// No request yet: no task.
    case waiting
    /// The task exists (created on the first request) and has not reported back.
    case running
    /// The task reported back, or the subscriber cancelled: nothing more is delivered.
    case ended
  }

  var phase = Phase.waiting
  var demand = Subscribers.Demand.none

  /// A request arrived. Returns whether the task must be created (the first request) or
  /// only resumed again (`false`), or `nil` once ended.
  mutating func request(_ more: Subscribers.Demand) -> Bool? {
    switch phase {
    case .waiting:
      demand += more
      phase = .running
      return true
    case .running:
      demand += more
      return false
    case .ended:
      return nil
    }
  }

  /// The task reported back or the subscriber cancelled. Returns whether this ended it.
  mutating func end() -> Bool {
    guard phase != .ended else { return false }
    phase = .ended
    return true
  }
}

/// The subscription a ``Foundation/URLSession/DataTaskPublisher`` hands each subscriber:
/// it creates the data task on the first request and delivers what the task reports.
final class DataTaskSubscription: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked Sendable: `state`, `parent`, `downstream` and `task` are guarded by `lock`;
  // the session calls the completion handler on its own queue.
  typealias Downstream = AnySubscriber<URLSession.DataTaskPublisher.Output, URLError>

  private let lock = Lock()
  private var state = DataTaskState()
  private var parent: URLSession.DataTaskPublisher?
  private var downstream: Downstream?
  private var task: URLSessionDataTask?

  init(parent: URLSession.DataTaskPublisher, downstream: Downstream) {
    self.parent = parent
    self.downstream = downstream
  }

  func request(_ demand: Subscribers.Demand) {
    confluencePrecondition(
      demand != .none, "API violation: request(_:) was called with demand .none; request at least .max(1)")
    let (creates, parent, existing) = lock.withLock {
      () -> (Bool?, URLSession.DataTaskPublisher?, URLSessionDataTask?) in
      (state.request(demand), self.parent, task)
    }
    switch creates {
    case nil:
      return
    case false?:
      existing?.resume()
    case true?:
      guard let parent else { return }
      // Created outside the lock: a session may call back synchronously. The handler keeps
      // this subscription alive until the task reports back (the session then lets go).
      let created = parent.session.dataTask(with: parent.request) { data, response, error in
        self.taskCompleted(data: data, response: response, error: error)
      }
      let cancelled = lock.withLock { () -> Bool in
        if state.phase == .ended { return true }
        task = created
        return false
      }
      if cancelled {
        created.cancel()
      } else {
        created.resume()
      }
    }
  }

  func cancel() {
    let (task, released) = lock.withLock { () -> (URLSessionDataTask?, Downstream?) in
      guard state.end() else { return (nil, nil) }
      parent = nil
      defer {
        self.task = nil
        downstream = nil
      }
      return (self.task, downstream)
    }
    task?.cancel()
    withExtendedLifetime(released) {}
  }

  /// The task's completion handler: one value and `.finished`, or a failure.
  private func taskCompleted(data: Data?, response: URLResponse?, error: Error?) {
    let target = lock.withLock { () -> Downstream? in
      guard state.end() else { return nil }
      parent = nil
      task = nil
      defer { downstream = nil }
      return downstream
    }
    guard let target else { return }
    if let error {
      target.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
    } else if let response {
      _ = target.receive((data ?? Data(), response))
      target.receive(completion: .finished)
    } else {
      target.receive(completion: .failure(URLError(.unknown)))
    }
  }

  var description: String { "DataTaskPublisher" }

  var customMirror: Mirror {
    let (task, downstream, parent, demand) = lock.withLock { (self.task, self.downstream, self.parent, state.demand) }
    return Mirror(
      self,
      children: [
        "task": task as Any, "downstream": downstream as Any, "parent": parent as Any, "demand": demand,
      ])
  }

  var playgroundDescription: Any { description }
}
