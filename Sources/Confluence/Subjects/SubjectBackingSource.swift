/// A publisher that is one of the subjects, answering with its storage and public object
/// untyped: what ``SubjectBacking`` asks where it is not specialised for the publisher's
/// type.
///
/// There, each of its four casts to a subject type looked that type's metadata up in the
/// runtime's cache and then cast (about 450 instructions each, every time a debug build
/// erases a publisher); one check of this conformance replaces them. Specialised code keeps
/// the casts, which the compiler folds where the publisher's type is known: a cast to this
/// protocol it could not fold, because another module may add a conformance.
@usableFromInline
internal protocol SubjectBackingSource {
  /// The subject's ``SubjectStorage`` (of the publisher's output and failure) and the
  /// object its subscriptions keep alive (``SubjectBacking/parent``).
  var subjectBackingObjects: (storage: AnyObject, parent: AnyObject) { get }
}

extension PassthroughSubject: SubjectBackingSource {
  @usableFromInline
  internal var subjectBackingObjects: (storage: AnyObject, parent: AnyObject) { (storage, self) }
}

extension CurrentValueSubject: SubjectBackingSource {
  @usableFromInline
  internal var subjectBackingObjects: (storage: AnyObject, parent: AnyObject) { (storage, self) }
}

extension Published.Publisher: SubjectBackingSource {
  @usableFromInline
  internal var subjectBackingObjects: (storage: AnyObject, parent: AnyObject) { (box.subject, box) }
}

extension ObservableObjectPublisher: SubjectBackingSource {
  @usableFromInline
  internal var subjectBackingObjects: (storage: AnyObject, parent: AnyObject) { (storage, self) }
}
