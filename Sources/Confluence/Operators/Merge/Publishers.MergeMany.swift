extension Publishers {
  /// A publisher created by applying the merge function to an arbitrary number of upstream
  /// publishers.
  ///
  /// It emits an element whenever any upstream publisher emits one, finishes once all of
  /// them have finished (at once, if there are none), and fails as soon as any of them fails
  /// (cancelling the others).
  ///
  /// ```swift
  /// let requests = ids.map { api.story(id: $0) }
  /// let cancellable = Publishers.MergeMany(requests).sink(
  ///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: while downstream demand is unlimited each upstream is asked for
  /// everything; otherwise each upstream is asked for one element at a time and at most one
  /// element per upstream waits for demand. Shown as `Merge` by `print`.
  @_eagerMove
  public struct MergeMany<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publishers this publisher merges.
    public let publishers: [Upstream]

    /// Creates a publisher created by applying the merge function to an arbitrary number
    /// of upstream publishers.
    ///
    /// - Parameter upstream: A variadic parameter containing zero or more publishers to
    ///   merge with this publisher.
    @inlinable
    public init(_ upstream: Upstream...) {
      publishers = upstream
    }

    /// Creates a publisher created by applying the merge function to a sequence of
    /// upstream publishers.
    ///
    /// - Parameter upstream: A sequence containing zero or more publishers to merge with
    ///   this publisher.
    @inlinable
    public init<S: Swift.Sequence>(_ upstream: S) where Upstream == S.Element {
      publishers = Array(upstream)
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      subscribeMerging(publishers, subscriber)
    }

    /// Combines elements from this publisher with those from another publisher of the
    /// same type, delivering an interleaved sequence of elements.
    ///
    /// - Parameter other: Another publisher of the same type.
    /// - Returns: A `MergeMany` of all of this one's publishers and `other`.
    @inlinable
    public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
      Publishers.MergeMany(publishers + [other])
    }
  }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}
