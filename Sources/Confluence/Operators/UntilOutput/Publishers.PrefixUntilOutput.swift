extension Publishers {
  /// A publisher that republishes elements from the upstream publisher until a second
  /// publisher emits an element.
  ///
  /// When the second publisher emits, this one cancels upstream and finishes. If the second
  /// publisher finishes or fails without emitting, nothing happens: upstream's elements keep
  /// flowing until upstream completes. The second publisher is subscribed first, then
  /// upstream; the subscriber receives its subscription when upstream's arrives. The second
  /// publisher's subscription is never cancelled: it is asked for one element only.
  ///
  /// ```swift
  /// let ticks = PassthroughSubject<Int, Never>()
  /// let stop = PassthroughSubject<Void, Never>()
  /// cancellable = ticks.prefix(untilOutputFrom: stop).sink(
  ///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ticks.send(1)   // prints 1
  /// stop.send()     // prints finished
  /// ```
  ///
  /// Back-pressure: passes downstream demand upstream unchanged; asks the second publisher
  /// for a single element (`.max(1)`).
  @_eagerMove
  public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// The second publisher, whose first output ends this one.
    public let other: Other

    /// Creates a publisher that republishes elements from the upstream publisher until
    /// `other` emits an element.
    @inlinable
    public init(upstream: Upstream, other: Other) {
      self.upstream = upstream
      self.other = other
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      UntilOutputSubscription<PrefixUntilOutputLogic<Failure, Other.Failure>, Upstream, Other, S>(
        downstream: subscriber
      ).start(upstream: upstream, other: other)
    }
  }
}

/// `prefix(untilOutputFrom:)`'s place in the until-output family, as the conformance suite
/// records Apple's operator (it is not `drop`'s mirror image): the downstream gets its
/// subscription only when upstream's arrives; upstream's values pass, uncounted, until the
/// other's value, which cancels upstream and finishes the downstream; the other finishing or
/// failing without a value changes nothing; the other's subscription is never cancelled
/// (let go of at the end); events a source sends before its subscription are ignored;
/// upstream's completion ends it. Its subscriber and subscription have no custom
/// description or mirror.
@usableFromInline
internal enum PrefixUntilOutputLogic<Failure: Error, OtherFailure: Error>: UntilOutputLogic {
  @inlinable internal static var name: String { "PrefixUntilOutput" }

  @inlinable internal static var method: String { "prefix(untilOutputFrom:)" }

  @inlinable internal static var rules: UntilOutputRules {
    UntilOutputRules(
      handsDownstreamItsSubscriptionFirst: false, otherValueFinishes: true, countsDemand: false, cancelsOther: false,
      ignoresEventsBeforeSubscription: true, completesOnce: true)
  }

  @inlinable
  internal static func completion(forOthers completion: Subscribers.Completion<OtherFailure>)
    -> Subscribers.Completion<Failure>?
  {
    nil
  }
}

extension Publishers.PrefixUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publisher {
  /// Republishes elements until another publisher emits an element.
  ///
  /// After the second publisher publishes an element, the publisher returned by this
  /// method finishes. The second publisher finishing or failing without an element changes
  /// nothing.
  ///
  /// ```swift
  /// let ticks = PassthroughSubject<Int, Never>()
  /// let stop = PassthroughSubject<Void, Never>()
  /// cancellable = ticks.prefix(untilOutputFrom: stop).sink { print($0) }
  /// ticks.send(1)   // prints 1
  /// stop.send()     // the stream finishes
  /// ticks.send(2)   // nothing
  /// ```
  ///
  /// Back-pressure: passes the subscriber's demand upstream; asks `publisher` for one
  /// element.
  ///
  /// - Parameter publisher: A second publisher.
  /// - Returns: A publisher that republishes elements until the second publisher
  ///   publishes an element.
  @inlinable
  public consuming func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
    Publishers.PrefixUntilOutput(upstream: self, other: publisher)
  }
}
