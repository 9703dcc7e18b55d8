extension Publishers {
  /// A publisher that ignores elements from the upstream publisher until it receives an
  /// element from second publisher.
  ///
  /// Once the second publisher emits, every later upstream element is republished.
  /// Upstream's completion is passed on. If the second publisher finishes or fails before
  /// it emits, this publisher cancels upstream and completes with the same completion;
  /// after it emitted, its completion changes nothing.
  ///
  /// ```swift
  /// let taps = PassthroughSubject<Int, Never>()
  /// let start = PassthroughSubject<Void, Never>()
  /// cancellable = taps.drop(untilOutputFrom: start).sink { print($0) }
  /// taps.send(1)       // ignored
  /// start.send()
  /// taps.send(2)       // prints 2
  /// ```
  ///
  /// Back-pressure: passes downstream demand upstream; an element it drops uses up one
  /// unit of that demand (it does not ask for another in its place), and an element beyond
  /// the demand requested traps. Asks the second publisher for a single element.
  @_eagerMove
  public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
  where Upstream.Failure == Other.Failure {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// A publisher to monitor for its first emitted element.
    public let other: Other

    /// Creates a publisher that ignores elements from the upstream publisher until it
    /// receives an element from another publisher.
    @inlinable
    public init(upstream: Upstream, other: Other) {
      self.upstream = upstream
      self.other = other
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      UntilOutputSubscription<DropUntilOutputLogic<Failure>, Upstream, Other, S>(downstream: subscriber)
        .start(upstream: upstream, other: other)
    }
  }
}

/// `drop(untilOutputFrom:)`'s place in the until-output family, as the conformance suite
/// records Apple's operator: the downstream gets its subscription first; upstream's values
/// are dropped (each answered `.none`, each using up a unit of the demand counted) until the
/// other's value, and passed on after it; a value beyond the demand traps; the other
/// finishing or failing before its value cancels upstream and completes the downstream with
/// it, each time; every completion is passed on, and a later subscription from either
/// source accepted; upstream's completion and the downstream's cancel cancel the other's
/// subscription. Its subscriber, subscription and other-publisher subscriber are described
/// as "DropUntilOutput", with empty mirrors.
@usableFromInline
internal enum DropUntilOutputLogic<Failure: Error>: DescribedUntilOutputLogic {
  @usableFromInline internal typealias OtherFailure = Failure

  @inlinable internal static var name: String { "DropUntilOutput" }

  @inlinable internal static var method: String { "drop(untilOutputFrom:)" }

  @inlinable internal static var rules: UntilOutputRules {
    UntilOutputRules(
      handsDownstreamItsSubscriptionFirst: true, otherValueFinishes: false, countsDemand: true, cancelsOther: true,
      ignoresEventsBeforeSubscription: false, completesOnce: false)
  }

  @inlinable
  internal static func completion(forOthers completion: Subscribers.Completion<Failure>) -> Subscribers.Completion<
    Failure
  >? {
    completion
  }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publisher {
  /// Ignores elements from the upstream publisher until it receives an element from a
  /// second publisher.
  ///
  /// See ``Publishers/DropUntilOutput`` for an example.
  ///
  /// - Parameter publisher: A publisher to monitor for its first emitted element.
  /// - Returns: A publisher that drops elements from the upstream publisher until the
  ///   `other` publisher produces a value.
  @inlinable
  public consuming func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
  where Failure == P.Failure {
    Publishers.DropUntilOutput(upstream: self, other: publisher)
  }
}
