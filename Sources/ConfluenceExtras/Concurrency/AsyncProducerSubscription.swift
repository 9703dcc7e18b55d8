import Confluence

/// Pulls elements from an `async` producer (an async iterator, an async closure) in a task,
/// one per unit of demand: the task waits while there is no demand, asks the producer for
/// the next element, and delivers it. Cancel cancels the task.
final class AsyncProducerSubscription<Output: Sendable>: Subscription, CustomStringConvertible, @unchecked Sendable {
  // @unchecked Sendable: `demand`, `waiter`, `task`, `downstream` and `isOver` are guarded by
  // `lock`; the downstream is called only from the driving task, one call at a time.
  typealias Produce = @Sendable () async throws -> Produced<Output>
  /// Erased, so the driving task captures no generic subscriber type.
  typealias Downstream = AnySubscriber<Output, any Error>

  private let lock = Lock()
  private var demand = Subscribers.Demand.none
  private var waiter: CheckedContinuation<Bool, Never>?
  private var task: Task<Void, Never>?
  private var downstream: Downstream?
  private var isOver = false
  private let name: String

  init(name: String, downstream: Downstream) {
    self.name = name
    self.downstream = downstream
  }

  /// Starts the driving task (after the subscriber has this subscription).
  func start(_ produce: @escaping Produce) {
    let task = Task { await self.drive(produce) }
    let cancelled = lock.withLock { () -> Bool in
      if isOver { return true }
      self.task = task
      return false
    }
    if cancelled { task.cancel() }
  }

  private func drive(_ produce: Produce) async {
    while await takeDemand() {
      let produced: Produced<Output>
      do {
        produced = try await produce()
      } catch {
        finish(.failure(error))
        return
      }
      let element: Output
      switch produced {
      case .end:
        finish(.finished)
        return
      case .element(let next), .last(let next):
        element = next
      }
      guard let target = lock.withLock({ isOver ? nil : downstream }) else { return }
      let more = target.receive(element)
      if case .last = produced {
        finish(.finished)
        return
      }
      if more > 0 { lock.withLock { demand += more } }
    }
  }

  /// Waits until there is demand; takes one unit. `false` once cancelled.
  private func takeDemand() async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let ready = lock.withLock { () -> Bool? in
        if isOver { return false }
        if demand > 0 {
          demand -= 1
          return true
        }
        waiter = continuation
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  private func finish(_ completion: Subscribers.Completion<any Error>) {
    let target = lock.withLock { () -> Downstream? in
      guard !isOver else { return nil }
      isOver = true
      task = nil
      defer { downstream = nil }
      return downstream
    }
    target?.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    confluencePrecondition(
      demand != .none, "API violation: request(_:) was called with demand .none; request at least .max(1)")
    let waiter = lock.withLock { () -> CheckedContinuation<Bool, Never>? in
      self.demand += demand
      guard self.demand > 0, let waiter = self.waiter else { return nil }
      self.waiter = nil
      self.demand -= 1
      return waiter
    }
    waiter?.resume(returning: true)
  }

  func cancel() {
    let (task, waiter, released) = lock.withLock {
      () -> (Task<Void, Never>?, CheckedContinuation<Bool, Never>?, Downstream?) in
      guard !isOver else { return (nil, nil, nil) }
      isOver = true
      defer {
        self.task = nil
        self.waiter = nil
        downstream = nil
      }
      return (self.task, self.waiter, downstream)
    }
    task?.cancel()
    waiter?.resume(returning: false)
    withExtendedLifetime(released) {}
  }

  var description: String { name }
}

/// What an async producer gives: an element, its last element (known to be last), or the
/// end.
enum Produced<Output> {
  case element(Output)
  case last(Output)
  case end
}
