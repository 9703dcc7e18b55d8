import Confluence

extension Publishers {
  /// A publisher that, each time its upstream emits, publishes that value combined with the
  /// latest value of another publisher.
  ///
  /// `WithLatestFrom` is driven by its upstream alone: a value from `other` is remembered
  /// but published only alongside the next upstream value. Upstream values that arrive
  /// before `other` has produced its first value are dropped. The publisher finishes when
  /// upstream finishes (whether or not `other` is still running, which is then cancelled),
  /// and fails as soon as upstream or `other` fails, cancelling the other one. `other`
  /// finishing changes nothing: its last value stays the latest.
  ///
  /// ```swift
  /// let taps = PassthroughSubject<Void, Never>()
  /// let text = CurrentValueSubject<String, Never>("draft")
  /// let cancellable = taps
  ///   .withLatestFrom(text) { _, text in text }
  ///   .sink { print("submit \($0)") }
  /// taps.send()            // submit draft
  /// text.send("final")     // nothing: only taps emit
  /// taps.send()            // submit final
  /// ```
  ///
  /// Back-pressure: passes downstream demand to upstream; an upstream value dropped for want
  /// of a value from `other` is replaced by returning `.max(1)` to upstream. Requests
  /// `.unlimited` from `other` and keeps only its latest value (a buffer of one).
  ///
  /// Thread safety: upstream and `other` may deliver on different threads; downstream still
  /// receives one event at a time. No lock is held while calling downstream, `other`,
  /// upstream or `resultSelector`. Cancel, completion and failure release both upstream
  /// subscriptions, the latest value, the result selector and the downstream subscriber.
  public struct WithLatestFrom<Upstream: Publisher, Other: Publisher, Output>: Publisher
  where Upstream.Failure == Other.Failure {
    public typealias Failure = Upstream.Failure

    /// The publisher whose values drive this publisher.
    public let upstream: Upstream

    /// The publisher whose latest value is combined with each upstream value.
    public let other: Other

    /// Combines an upstream value with the latest value of `other`.
    public let resultSelector: (Upstream.Output, Other.Output) -> Output

    /// Creates a publisher that combines each value of `upstream` with the latest value of
    /// `other`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher whose values drive this publisher.
    ///   - other: The publisher whose latest value is combined with each upstream value.
    ///   - resultSelector: Combines an upstream value with the latest value of `other`.
    @inlinable
    public init(
      upstream: Upstream, other: Other, resultSelector: @escaping (Upstream.Output, Other.Output) -> Output
    ) {
      self.upstream = upstream
      self.other = other
      self.resultSelector = resultSelector
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      WithLatestFromSubscription<Upstream, Other, S>(downstream: subscriber, resultSelector: resultSelector)
        .start(upstream: upstream, other: other)
    }
  }
}
