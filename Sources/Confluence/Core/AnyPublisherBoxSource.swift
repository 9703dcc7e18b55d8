/// A publisher that ``AnyPublisher`` keeps without a box of its own: another `AnyPublisher`
/// (its box) or a ``PassthroughSubject`` or ``CurrentValueSubject`` (itself). What
/// `AnyPublisher.init(_:)` asks where it is not specialised for the wrapped publisher's
/// type: there each of its three casts looked the target type's metadata up in the runtime's
/// cache and then cast, every time a debug build erased a publisher; one check of this
/// conformance replaces them. Specialised code keeps the casts, which the compiler folds (a
/// cast to this protocol it could not fold, because another module may add a conformance).
@usableFromInline
internal protocol AnyPublisherBoxSource {
  /// What an `AnyPublisher` of this publisher stores as its ``AnyPublisher/box``.
  var anyPublisherBox: AnyObject { get }
}

extension AnyPublisher: AnyPublisherBoxSource {
  @usableFromInline
  internal var anyPublisherBox: AnyObject { box }
}

extension PassthroughSubject: AnyPublisherBoxSource {
  @usableFromInline
  internal var anyPublisherBox: AnyObject { self }
}

extension CurrentValueSubject: AnyPublisherBoxSource {
  @usableFromInline
  internal var anyPublisherBox: AnyObject { self }
}
