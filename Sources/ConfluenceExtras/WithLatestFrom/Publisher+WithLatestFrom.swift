import Confluence

extension Publisher {
  /// Publishes each value of this publisher together with the latest value of `other`.
  ///
  /// Only this publisher's values trigger output; values from `other` are remembered, not
  /// published. Values that arrive before `other` has produced anything are dropped. Finishes
  /// when this publisher finishes; fails when either publisher fails.
  ///
  /// ```swift
  /// let cancellable = saveTaps
  ///   .withLatestFrom(document)        // (Void, Document)
  ///   .sink { _, document in store.save(document) }
  /// ```
  ///
  /// To publish only the other publisher's value, use the `resultSelector` form:
  /// `withLatestFrom(document) { $1 }`.
  ///
  /// Back-pressure: passes demand to this publisher (a dropped value is replaced with
  /// `.max(1)`); requests `.unlimited` from `other` and keeps only its latest value. See
  /// ``Publishers/WithLatestFrom``.
  ///
  /// - Parameter other: The publisher whose latest value accompanies each value of this one.
  /// - Returns: A publisher of `(value, latest value of other)` pairs.
  @inlinable
  public consuming func withLatestFrom<Other: Publisher>(
    _ other: Other
  ) -> Publishers.WithLatestFrom<Self, Other, (Output, Other.Output)> where Other.Failure == Failure {
    Publishers.WithLatestFrom(upstream: self, other: other, resultSelector: { ($0, $1) })
  }

  /// Publishes the result of combining each value of this publisher with the latest value of
  /// `other`.
  ///
  /// ```swift
  /// let cancellable = refreshTaps
  ///   .withLatestFrom(query) { _, query in query }
  ///   .flatMapLatest { query in api.search(query) }
  ///   .sink { print($0) }
  /// ```
  ///
  /// Back-pressure: see ``withLatestFrom(_:)``.
  ///
  /// - Parameters:
  ///   - other: The publisher whose latest value accompanies each value of this one.
  ///   - resultSelector: Combines a value of this publisher with the latest value of
  ///     `other`. Called once per published value.
  /// - Returns: A publisher of the results of `resultSelector`.
  @inlinable
  public consuming func withLatestFrom<Other: Publisher, Result>(
    _ other: Other, resultSelector: @escaping (Output, Other.Output) -> Result
  ) -> Publishers.WithLatestFrom<Self, Other, Result> where Other.Failure == Failure {
    Publishers.WithLatestFrom(upstream: self, other: other, resultSelector: resultSelector)
  }

  /// Publishes each value of this publisher together with the latest values of two other
  /// publishers.
  ///
  /// Values of this publisher are dropped until both others have produced a value. The two
  /// others are combined with `combineLatest`, so a failure of either fails the result.
  ///
  /// ```swift
  /// let cancellable = submitTaps
  ///   .withLatestFrom(name, email)     // (Void, String, String)
  ///   .sink { _, name, email in register(name, email) }
  /// ```
  ///
  /// Back-pressure: see ``withLatestFrom(_:)``; both others are asked for `.unlimited`.
  ///
  /// - Parameters:
  ///   - other1: The first publisher whose latest value accompanies each value.
  ///   - other2: The second publisher whose latest value accompanies each value.
  /// - Returns: A publisher of `(value, latest of other1, latest of other2)` triples.
  @inlinable
  public consuming func withLatestFrom<P: Publisher, Q: Publisher>(
    _ other1: P, _ other2: Q
  ) -> Publishers.WithLatestFrom<Self, Publishers.CombineLatest<P, Q>, (Output, P.Output, Q.Output)>
  where P.Failure == Failure, Q.Failure == Failure {
    Publishers.WithLatestFrom(
      upstream: self, other: Publishers.CombineLatest(other1, other2),
      resultSelector: { value, latest in (value, latest.0, latest.1) })
  }

  /// Publishes the result of combining each value of this publisher with the latest values
  /// of two other publishers.
  ///
  /// ```swift
  /// let cancellable = submitTaps
  ///   .withLatestFrom(name, email) { _, name, email in Registration(name, email) }
  ///   .sink { register($0) }
  /// ```
  ///
  /// Back-pressure: see ``withLatestFrom(_:)``; both others are asked for `.unlimited`.
  ///
  /// - Parameters:
  ///   - other1: The first publisher whose latest value accompanies each value.
  ///   - other2: The second publisher whose latest value accompanies each value.
  ///   - resultSelector: Combines a value of this publisher with the latest values of the
  ///     others. Called once per published value.
  /// - Returns: A publisher of the results of `resultSelector`.
  @inlinable
  public consuming func withLatestFrom<P: Publisher, Q: Publisher, Result>(
    _ other1: P, _ other2: Q, resultSelector: @escaping (Output, P.Output, Q.Output) -> Result
  ) -> Publishers.WithLatestFrom<Self, Publishers.CombineLatest<P, Q>, Result>
  where P.Failure == Failure, Q.Failure == Failure {
    Publishers.WithLatestFrom(
      upstream: self, other: Publishers.CombineLatest(other1, other2),
      resultSelector: { value, latest in resultSelector(value, latest.0, latest.1) })
  }

  /// Publishes each value of this publisher together with the latest values of three other
  /// publishers.
  ///
  /// Values of this publisher are dropped until all three others have produced a value. The
  /// others are combined with `combineLatest`, so a failure of any fails the result.
  ///
  /// ```swift
  /// let cancellable = submitTaps
  ///   .withLatestFrom(name, email, age)   // (Void, String, String, Int)
  ///   .sink { print($0) }
  /// ```
  ///
  /// Back-pressure: see ``withLatestFrom(_:)``; all three others are asked for `.unlimited`.
  ///
  /// - Parameters:
  ///   - other1: The first publisher whose latest value accompanies each value.
  ///   - other2: The second publisher whose latest value accompanies each value.
  ///   - other3: The third publisher whose latest value accompanies each value.
  /// - Returns: A publisher of `(value, latest of other1, latest of other2, latest of other3)`.
  @inlinable
  public consuming func withLatestFrom<P: Publisher, Q: Publisher, R: Publisher>(
    _ other1: P, _ other2: Q, _ other3: R
  ) -> Publishers.WithLatestFrom<Self, Publishers.CombineLatest3<P, Q, R>, (Output, P.Output, Q.Output, R.Output)>
  where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
    Publishers.WithLatestFrom(
      upstream: self, other: Publishers.CombineLatest3(other1, other2, other3),
      resultSelector: { value, latest in (value, latest.0, latest.1, latest.2) })
  }

  /// Publishes the result of combining each value of this publisher with the latest values
  /// of three other publishers.
  ///
  /// ```swift
  /// let cancellable = submitTaps
  ///   .withLatestFrom(name, email, age) { _, name, email, age in Profile(name, email, age) }
  ///   .sink { save($0) }
  /// ```
  ///
  /// Back-pressure: see ``withLatestFrom(_:)``; all three others are asked for `.unlimited`.
  ///
  /// - Parameters:
  ///   - other1: The first publisher whose latest value accompanies each value.
  ///   - other2: The second publisher whose latest value accompanies each value.
  ///   - other3: The third publisher whose latest value accompanies each value.
  ///   - resultSelector: Combines a value of this publisher with the latest values of the
  ///     others. Called once per published value.
  /// - Returns: A publisher of the results of `resultSelector`.
  @inlinable
  public consuming func withLatestFrom<P: Publisher, Q: Publisher, R: Publisher, Result>(
    _ other1: P, _ other2: Q, _ other3: R,
    resultSelector: @escaping (Output, P.Output, Q.Output, R.Output) -> Result
  ) -> Publishers.WithLatestFrom<Self, Publishers.CombineLatest3<P, Q, R>, Result>
  where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
    Publishers.WithLatestFrom(
      upstream: self, other: Publishers.CombineLatest3(other1, other2, other3),
      resultSelector: { value, latest in resultSelector(value, latest.0, latest.1, latest.2) })
  }
}
