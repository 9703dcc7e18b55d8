/// One of up to eight differently-typed upstream publishers of a `Merge…` publisher, so
/// that all of them can be subscribed through one ``FlatMapSubscription`` (merging is
/// flat-mapping a fixed list of publishers) without type erasure.
@usableFromInline
internal enum MergeSource<
  A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher,
  G: Publisher, H: Publisher
>: Publisher
where
  A.Output == B.Output, A.Output == C.Output, A.Output == D.Output, A.Output == E.Output, A.Output == F.Output,
  A.Output == G.Output, A.Output == H.Output, A.Failure == B.Failure, A.Failure == C.Failure,
  A.Failure == D.Failure, A.Failure == E.Failure, A.Failure == F.Failure, A.Failure == G.Failure,
  A.Failure == H.Failure
{
  @usableFromInline internal typealias Output = A.Output
  @usableFromInline internal typealias Failure = A.Failure

  case a(A), b(B), c(C), d(D), e(E), f(F), g(G), h(H)

  @inlinable
  internal func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    switch self {
    case .a(let publisher): publisher.subscribe(subscriber)
    case .b(let publisher): publisher.subscribe(subscriber)
    case .c(let publisher): publisher.subscribe(subscriber)
    case .d(let publisher): publisher.subscribe(subscriber)
    case .e(let publisher): publisher.subscribe(subscriber)
    case .f(let publisher): publisher.subscribe(subscriber)
    case .g(let publisher): publisher.subscribe(subscriber)
    case .h(let publisher): publisher.subscribe(subscriber)
    }
  }
}

/// Fills the unused slots of ``MergeSource`` for merges of fewer than eight publishers.
/// Never instantiated.
@usableFromInline
internal enum MergeFiller<Output, Failure: Error>: Publisher {
  @inlinable
  internal func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {}
}

/// Marks ``MergeList``, so that ``FlatMapSubscription`` tells from its types alone, in code
/// specialised for them, that it serves a merge publisher.
@usableFromInline
internal protocol MergeListMarker {}

/// Stands, as the upstream type of the ``FlatMapSubscription`` that serves a merge
/// publisher, for the list of publishers it merges (which is subscribed to as a
/// `Publishers.Sequence` of them: the same elements, one publisher each). Never instantiated.
@usableFromInline
internal enum MergeList<Source: Publisher>: Publisher, MergeListMarker {
  @usableFromInline internal typealias Output = Source
  @usableFromInline internal typealias Failure = Source.Failure

  @inlinable
  internal func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {}
}

/// Subscribes `subscriber` to all of `sources` at once, interleaving their elements.
@inlinable
internal func subscribeMerging<Source: Publisher, S: Subscriber>(_ sources: [Source], _ subscriber: S)
where S.Input == Source.Output, S.Failure == Source.Failure {
  Publishers.Sequence<[Source], Source.Failure>(sequence: sources).subscribe(
    FlatMapSubscription<Source, MergeList<Source>, S>(
      mergingInto: subscriber, maxPublishers: .unlimited, transform: { $0 })
      as FlatMapEntry<Source, Source.Output, Source.Failure>)
}
