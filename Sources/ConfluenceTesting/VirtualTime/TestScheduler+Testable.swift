import Confluence

extension TestScheduler where SchedulerTimeType == VirtualTime {
  /// Makes a publisher that sends `events` at times counted from each subscription.
  ///
  /// ```swift
  /// let publisher: TestablePublisher<String, Never> = testScheduler.createRelativeTestablePublisher([
  ///   (100, .input("a")),
  ///   (200, .input("b")),
  /// ])
  /// ```
  ///
  /// - Parameter events: The script; times are offsets from the subscription.
  /// - Returns: A cold publisher: every subscriber gets the whole script.
  public func createRelativeTestablePublisher<Value, Failure: Error>(
    _ events: TestSequence<Value, Failure>
  ) -> TestablePublisher<Value, Failure> {
    makeTestablePublisher(events, isRelative: true)
  }

  /// Makes a publisher that sends `events` at the given times of this scheduler's clock.
  ///
  /// ```swift
  /// let publisher: TestablePublisher<Int, Never> = testScheduler.createAbsoluteTestablePublisher([
  ///   (250, .input(1)),
  ///   (400, .completion(.finished)),
  /// ])
  /// ```
  ///
  /// - Parameter events: The script; times are instants of this scheduler's clock.
  /// - Returns: A hot publisher: a subscriber misses the events before it subscribed.
  public func createAbsoluteTestablePublisher<Value, Failure: Error>(
    _ events: TestSequence<Value, Failure>
  ) -> TestablePublisher<Value, Failure> {
    makeTestablePublisher(events, isRelative: false)
  }

  /// Makes a subscriber that stamps what it receives with this scheduler's time.
  ///
  /// ```swift
  /// let subscriber = testScheduler.createTestableSubscriber(Int.self, Never.self)
  /// publisher.subscribe(subscriber)
  /// ```
  ///
  /// - Parameters:
  ///   - input: The subscriber's `Input` type.
  ///   - failure: The subscriber's `Failure` type.
  ///   - initialDemand: What to request on subscription.
  ///   - demandPerValue: What to return for each value received.
  /// - Returns: A new recording subscriber.
  public func createTestableSubscriber<Input, Failure: Error>(
    _ input: Input.Type, _ failure: Failure.Type, initialDemand: Subscribers.Demand = .unlimited,
    demandPerValue: Subscribers.Demand = .none
  ) -> TestableSubscriber<Input, Failure> {
    TestableSubscriber(
      clock: { [weak self] in self?.now ?? 0 }, initialDemand: initialDemand, demandPerValue: demandPerValue)
  }

  /// Builds a publisher at `subscribedAt`, subscribes a recording subscriber to it,
  /// cancels that subscriber at `cancelledAt`, and runs the clock up to `cancelledAt`.
  ///
  /// ```swift
  /// let results = testScheduler.start { testablePublisher.map { $0.uppercased() } }
  /// XCTAssertEqual(results.recordedOutput, [(200, .subscription), (300, .input("A"))])
  /// ```
  ///
  /// - Parameters:
  ///   - subscribedAt: When to create and subscribe (200 by default).
  ///   - cancelledAt: When to cancel; the clock stops there (900 by default).
  ///   - initialDemand: What the subscriber requests on subscription.
  ///   - demandPerValue: What the subscriber returns for each value.
  ///   - create: Makes the publisher under test; runs at `subscribedAt`.
  /// - Returns: The subscriber, with everything it recorded.
  public func start<P: Publisher>(
    subscribedAt: VirtualTime = 200, cancelledAt: VirtualTime = 900, initialDemand: Subscribers.Demand = .unlimited,
    demandPerValue: Subscribers.Demand = .none, _ create: @escaping () -> P
  ) -> TestableSubscriber<P.Output, P.Failure> {
    let subscriber = createTestableSubscriber(
      P.Output.self, P.Failure.self, initialDemand: initialDemand, demandPerValue: demandPerValue)
    schedule(after: subscribedAt, tolerance: .zero, options: nil) { create().subscribe(subscriber) }
    schedule(after: cancelledAt, tolerance: .zero, options: nil) { subscriber.cancel() }
    advance(to: cancelledAt)
    return subscriber
  }

  /// Runs every scheduled action, moving the clock as it goes (``run(maxActions:)``).
  public func resume() {
    run()
  }

  private func makeTestablePublisher<Value, Failure: Error>(
    _ events: TestSequence<Value, Failure>, isRelative: Bool
  ) -> TestablePublisher<Value, Failure> {
    TestablePublisher(
      events: events, isRelative: isRelative, now: { [weak self] in self?.now ?? 0 },
      scheduleAt: { [weak self] due, action in self?.scheduleCancellable(after: due, action) ?? AnyCancellable {} })
  }
}
