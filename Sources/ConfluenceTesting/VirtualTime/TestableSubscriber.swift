import Confluence

/// A subscriber that records every event with the virtual time at which it arrived.
///
/// Get one from ``TestScheduler/start(subscribedAt:cancelledAt:initialDemand:demandPerValue:_:)``
/// or ``TestScheduler/createTestableSubscriber(_:_:initialDemand:demandPerValue:)``, then
/// compare ``recordedOutput`` with the expected timings:
///
/// ```swift
/// let results = testScheduler.start { testablePublisher.map { $0.uppercased() } }
/// XCTAssertEqual(results.recordedOutput, [(200, .subscription), (300, .input("A"))])
/// ```
///
/// Back-pressure: requests `initialDemand` on subscription (`.unlimited` unless told
/// otherwise) and returns `demandPerValue` for each value; ``request(_:)`` asks for more.
/// Every method may be called from any thread.
public final class TestableSubscriber<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
  @unchecked Sendable
{
  // @unchecked Sendable: `recorded` and `subscription` are touched only under `lock`; the
  // clock closure reads a thread-safe scheduler.
  private let lock = Lock()
  private let clock: () -> VirtualTime
  private let initialDemand: Subscribers.Demand
  private let demandPerValue: Subscribers.Demand
  private var recorded = TestSequence<Input, Failure>()
  private var heldSubscription: Subscription?

  internal init(
    clock: @escaping () -> VirtualTime, initialDemand: Subscribers.Demand, demandPerValue: Subscribers.Demand
  ) {
    self.clock = clock
    self.initialDemand = initialDemand
    self.demandPerValue = demandPerValue
  }

  /// Every event so far, stamped with the virtual time it arrived at.
  public var recordedOutput: TestSequence<Input, Failure> { lock.withLock { recorded } }

  /// The subscription, until completion or cancel.
  public var subscription: Subscription? { lock.withLock { heldSubscription } }

  public var description: String { "TestableSubscriber" }

  /// Requests more values through the subscription.
  public func request(_ demand: Subscribers.Demand) {
    lock.withLock { heldSubscription }?.request(demand)
  }

  /// Cancels the subscription and releases it.
  public func cancel() {
    let subscription = lock.withLock { () -> Subscription? in
      defer { heldSubscription = nil }
      return heldSubscription
    }
    subscription?.cancel()
  }

  public func receive(subscription: Subscription) {
    let time = clock()
    let accepted = lock.withLock { () -> Bool in
      recorded.append(time, .subscription)
      guard heldSubscription == nil else { return false }
      heldSubscription = subscription
      return true
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    if initialDemand > 0 { subscription.request(initialDemand) }
  }

  public func receive(_ input: Input) -> Subscribers.Demand {
    let time = clock()
    lock.withLock { recorded.append(time, .input(input)) }
    return demandPerValue
  }

  public func receive(completion: Subscribers.Completion<Failure>) {
    let time = clock()
    lock.withLock {
      recorded.append(time, .completion(completion))
      heldSubscription = nil
    }
  }
}
