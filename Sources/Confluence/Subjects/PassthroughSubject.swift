/// A subject that broadcasts elements to downstream subscribers.
///
/// As a concrete implementation of ``Subject``, the `PassthroughSubject` provides a
/// convenient way to adapt existing imperative code to the Combine model.
///
/// Unlike ``CurrentValueSubject``, a `PassthroughSubject` doesn’t have an initial value or
/// a buffer of the most recently-published element. A `PassthroughSubject` drops values if
/// there are no subscribers, or its current demand is zero.
///
/// ```swift
/// let subject = PassthroughSubject<String, Never>()
/// let cancellable = subject.sink { print($0) }
/// subject.send("Hello")                 // prints Hello
/// subject.send(completion: .finished)
/// subject.send("ignored")               // nothing: the subject has completed
/// ```
///
/// Back-pressure: demand is kept per subscriber. A value reaches each subscriber that has
/// outstanding demand and is dropped for each subscriber that has none; it is never
/// buffered for later. When the subject is used as a subscriber (see
/// `publisher.subscribe(subject)`) it requests `.unlimited` from upstream — but, as
/// Apple's does, only once one of its own subscribers has requested something: until
/// then the upstream keeps its values (a `CurrentValueSubject` upstream keeps its current
/// value for the subject's first subscriber). The subject cancels the upstream
/// subscriptions it was handed when it is deinitialized.
///
/// Completion reaches every subscriber at once, whatever its demand; a subscriber that
/// attaches after completion receives the completion right after its subscription, and
/// every later ``send(_:)`` is ignored. ``Cancellable/cancel()`` removes the subscriber
/// and releases it.
///
/// Thread safety: ``send(_:)``, ``send(completion:)`` and subscribing may happen on any
/// thread. One subscriber never receives two events at once: as with Apple's subjects, a
/// value sent while another thread is delivering to that subscriber waits for that
/// delivery and is then delivered on the sending thread, before ``send(_:)`` returns; a
/// value sent by the subscriber itself, re-entrantly from inside `receive(_:)`, is queued,
/// with its demand reserved, and delivered right after the current one.
///
/// - Complexity: ``send(_:)`` is O(1) for one subscriber (two lock acquisitions, no
///   allocation) and O(*n*) for *n* subscribers.
public final class PassthroughSubject<Output, Failure: Error>: Subject {
  @usableFromInline
  internal let storage: SubjectStorage<Output, Failure>

  /// Creates a passthrough subject with no subscribers.
  ///
  /// ```swift
  /// let subject = PassthroughSubject<Int, Error>()
  /// ```
  @inlinable
  public init() {
    storage = SubjectStorage(kind: .passthrough)
  }

  /// Attaches the specified subscriber: it receives a subscription described as
  /// `PassthroughSubject`, or, once the subject has completed, an empty subscription and
  /// the completion.
  ///
  /// - Parameter subscriber: The subscriber to attach.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    storage.receive(subscriber: subscriber, parent: self)
  }

  /// Attaches `relay`, a subscriber an operator has just made and keeps no copy of, moving it
  /// into the subscription (see `Publisher._receiveRelay(_:)`).
  ///
  /// - Parameter relay: The operator's subscriber.
  @inlinable
  public func _receiveRelay<S: Subscriber>(_ relay: consuming S) where S.Input == Output, S.Failure == Failure {
    storage.receive(relay: relay, parent: self)
  }

  /// Sends a value to every subscriber that has outstanding demand.
  ///
  /// ```swift
  /// subject.send(42)
  /// ```
  ///
  /// May be called from any thread; ignored after completion.
  ///
  /// - Parameter input: The value to send.
  @inlinable
  public func send(_ input: Output) {
    storage.sendWithoutCurrentValue(input)
  }

  /// Sends a completion signal to every subscriber, and to every later subscriber.
  ///
  /// ```swift
  /// subject.send(completion: .failure(MyError.offline))
  /// ```
  ///
  /// Only the first completion counts; values sent afterwards are ignored.
  ///
  /// - Parameter completion: A `Completion` instance which indicates whether publishing
  ///   has finished normally or failed with an error.
  @inlinable
  public func send(completion: Subscribers.Completion<Failure>) {
    storage.send(completion: completion)
  }

  /// Keeps an upstream subscription and requests `.unlimited` from it — at once if a
  /// subscriber of this subject has already requested anything, otherwise as soon as one
  /// does — so that the subject forwards everything the upstream publishes.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher.subscribe(subject)
  /// ```
  ///
  /// The subscription is cancelled when the subject is deinitialized.
  ///
  /// - Parameter subscription: The upstream subscription.
  @inlinable
  public func send(subscription: Subscription) {
    storage.receive(subscription: subscription)
  }

  deinit {
    storage.cancelUpstreams()
  }
}

// All mutable state lives in `storage` and is read and written only under its lock, so
// the subject may be shared by threads that send and subscribe concurrently.
extension PassthroughSubject: @unchecked Sendable {}
