/// The storage and public object behind a publisher that is one of the subjects
/// (`PassthroughSubject`, `CurrentValueSubject`, `@Published`'s publisher or
/// `ObservableObjectPublisher`), so that `AnyPublisher` can attach a subscriber to it as
/// itself.
///
/// `AnyPublisher` meets its subscribers where their type is known but the wrapped
/// publisher's is not, so it hands them to the wrapped publisher wrapped in an
/// `AnySubscriber` (an allocation, and an indirect call per event). A subject's storage is
/// generic over the output and failure only, which `AnyPublisher` knows: through this the
/// subscriber attaches to it directly, as it would to the subject itself (and as Apple's
/// `AnyPublisher` hands every subscriber on, unwrapped).
///
/// ```swift
/// let backing = SubjectBacking(subject)   // nil for any other publisher
/// backing?.storage.receive(subscriber: subscriber, parent: backing!.parent)
/// ```
@usableFromInline
@frozen
internal struct SubjectBacking<Output, Failure: Error> {
  /// What subscribers attach to.
  @usableFromInline
  internal let storage: SubjectStorage<Output, Failure>

  /// The public object each subscription keeps alive (and shows in its mirror).
  @usableFromInline
  internal let parent: AnyObject

  /// The backing of `publisher`, or `nil` if it is not a subject. Decided from the type: a
  /// constant where `P` is known.
  @inlinable
  internal init?<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
    // Not specialised for `P` (`_canBeClass` answers 2 only there): one conformance check
    // instead of the four casts below (see ``SubjectBackingSource``). The storage's type
    // follows from `P`'s output and failure, which are these.
    if _canBeClass(P.self) > 1 {
      // A structure other than `Published.Publisher` is no subject: told from its metadata,
      // without a search of the runtime's conformance cache for each erasure.
      if TypeMetadata.isStruct(P.self, otherThanInstancesOf: Published<Int>.Publisher.self) { return nil }
      guard let source = publisher as? any SubjectBackingSource else { return nil }
      let objects = source.subjectBackingObjects
      storage = unsafeDowncast(objects.storage, to: SubjectStorage<Output, Failure>.self)
      parent = objects.parent
      return
    }
    if let subject = publisher as? PassthroughSubject<Output, Failure> {
      storage = subject.storage
      parent = subject
    } else if let subject = publisher as? CurrentValueSubject<Output, Failure> {
      storage = subject.storage
      parent = subject
    } else if let published = publisher as? Published<Output>.Publisher {
      // `Failure` is `Never` here, so the storage's type is this one.
      storage = unsafeDowncast(published.box.subject, to: SubjectStorage<Output, Failure>.self)
      parent = published.box
    } else if let observable = publisher as? ObservableObjectPublisher {
      // `Output` is `Void` and `Failure` `Never` here, so the storage's type is this one.
      storage = unsafeDowncast(observable.storage, to: SubjectStorage<Output, Failure>.self)
      parent = observable
    } else {
      return nil
    }
  }
}
