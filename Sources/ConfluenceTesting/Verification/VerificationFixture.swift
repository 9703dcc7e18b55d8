import Confluence

/// A publisher under verification, with how to make it emit and how to let it finish
/// delivering.
///
/// A cold publisher (one that emits when subscribed and asked, like `[1, 2].publisher`) needs
/// neither: use ``PublisherVerification/init(_:valueCounts:requestNone:skipping:makePublisher:)``. A
/// hot one needs `start`, which makes it send the values it promised and complete; one that
/// delivers on a scheduler needs `settle`, which runs the scheduler.
///
/// ```swift
/// PublisherVerification("PassthroughSubject", valueCounts: 0...50, requestNone: .traps) { count in
///   let subject = PassthroughSubject<Int, Never>()
///   return VerificationFixture(publisher: subject, start: {
///     for value in 0..<count { subject.send(value) }
///     subject.send(completion: .finished)
///   })
/// }
/// ```
public struct VerificationFixture<Specimen: Publisher> {
  /// The publisher the rules subscribe to.
  public let publisher: Specimen
  /// Called after the subscriber subscribed (and made its first requests): makes the
  /// publisher send its values and complete. The checks of rules 6 and 7 call it once more,
  /// after the completion or the cancel, to provoke events that must not arrive; a second
  /// call must be safe (a subject ignores what is sent after its completion).
  public let start: () -> Void
  /// Called after every step the verification takes (start, each request, each cancel), on
  /// the verifying thread: lets a publisher that delivers asynchronously deliver, e.g. by
  /// running its `TestScheduler`.
  public let settle: () -> Void

  /// Creates a fixture.
  ///
  /// - Parameters:
  ///   - publisher: The publisher under verification.
  ///   - start: Makes it emit its values and complete; nothing for a cold publisher.
  ///   - settle: Lets it finish delivering what it can; nothing for a synchronous one.
  public init(publisher: Specimen, start: @escaping () -> Void = {}, settle: @escaping () -> Void = {}) {
    self.publisher = publisher
    self.start = start
    self.settle = settle
  }
}
