/// The reference storage behind one `@Published` property (named, like Apple's, for what
/// `print` and mirrors show of it): the property's value, the subject that `$property`
/// subscribers attach to, the enclosing object's
/// `objectWillChange` publisher once installed, and the subscriptions made with
/// `assign(to: &$property)` (cancelled when the property goes away).
///
/// A setter signals `objectWillChange`, then sends the new value to the `$property`
/// subscribers, then stores it: subscribers run *before* the property changes, as a
/// `willSet` observer would, and reading the property from inside them gives the old value.
@usableFromInline
internal final class PublishedSubject<Value> {
  @usableFromInline
  internal let lock = Lock()

  /// The property's value (guarded by `lock`).
  @usableFromInline
  internal var storedValue: Value

  /// The enclosing object's shared publisher, once its `objectWillChange` was first read
  /// (guarded by `lock`).
  @usableFromInline
  internal var objectWillChange: ObservableObjectPublisher?

  /// Subscribers attached by `assign(to:)` (guarded by `lock`).
  @usableFromInline
  internal var assignments: [ObservationPublishedSubscriber<Value>] = []

  /// What `$property` subscribers attach to; shown as `PublishedSubject` by `print`.
  @usableFromInline
  internal let subject: SubjectStorage<Value, Never>

  @inlinable
  internal init(_ value: Value) {
    storedValue = value
    subject = SubjectStorage(kind: .published, currentValue: value)
  }

  /// Attaches a `$property` subscriber; its subscription keeps this object alive until
  /// it is cancelled.
  @inlinable
  internal func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
    subject.receive(subscriber: subscriber, parent: self)
  }

  deinit {
    for assignment in assignments {
      assignment.cancel()
    }
  }

  @inlinable
  internal var value: Value {
    lock.withLock { storedValue }
  }

  /// Signals `objectWillChange`, publishes `newValue`, then stores it.
  @inlinable
  internal func set(_ newValue: Value) {
    lock.withLock { objectWillChange }?.send()
    subject.send(newValue)
    var replaced = newValue
    lock.withLock { swap(&storedValue, &replaced) }
    withExtendedLifetime(replaced) {}  // the old value dies outside the lock
  }

  /// Installs `candidate` as the enclosing object's `objectWillChange` unless one is
  /// installed already; returns the one in place.
  @usableFromInline
  internal func installObjectWillChange(_ candidate: ObservableObjectPublisher) -> ObservableObjectPublisher {
    lock.withLock {
      if let objectWillChange { return objectWillChange }
      objectWillChange = candidate
      return candidate
    }
  }

  @usableFromInline
  internal var installedObjectWillChange: ObservableObjectPublisher? {
    lock.withLock { objectWillChange }
  }

  /// Keeps an `assign(to:)` subscriber until it completes or the property goes away.
  @usableFromInline
  internal func addAssignment(_ assignment: ObservationPublishedSubscriber<Value>) {
    lock.withLock { assignments.append(assignment) }
  }

  /// Forgets a completed `assign(to:)` subscriber.
  @usableFromInline
  internal func removeAssignment(_ assignment: ObservationPublishedSubscriber<Value>) {
    let removed = lock.withLock { () -> ObservationPublishedSubscriber<Value>? in
      guard let index = assignments.firstIndex(where: { $0 === assignment }) else { return nil }
      return assignments.remove(at: index)
    }
    _fixLifetime(removed)
  }
}

/// What the default `objectWillChange` looks for among an object's stored properties.
internal protocol ObservationPublishedField {
  var installedObjectWillChange: ObservableObjectPublisher? { get }
  func installObjectWillChange(_ candidate: ObservableObjectPublisher) -> ObservableObjectPublisher
}

extension Published: ObservationPublishedField {
  internal var installedObjectWillChange: ObservableObjectPublisher? {
    box.installedObjectWillChange
  }

  internal func installObjectWillChange(_ candidate: ObservableObjectPublisher) -> ObservableObjectPublisher {
    box.installObjectWillChange(candidate)
  }
}

/// The default `objectWillChange` of `object`: the publisher shared by all its
/// `@Published` properties (found by reflection, superclasses included), installed on
/// first use; a fresh, silent publisher if it has none.
internal func observationObjectWillChange(of object: AnyObject) -> ObservableObjectPublisher {
  var shared: ObservableObjectPublisher?
  var mirror: Mirror? = Mirror(reflecting: object)
  while let current = mirror {
    for child in current.children {
      guard let field = child.value as? ObservationPublishedField else { continue }
      let candidate = shared ?? field.installedObjectWillChange ?? ObservableObjectPublisher()
      let installed = field.installObjectWillChange(candidate)
      if shared == nil { shared = installed }
    }
    mirror = current.superclassMirror
  }
  return shared ?? ObservableObjectPublisher()
}
