/// A subject that wraps a single value and publishes a new element whenever the value
/// changes.
///
/// Unlike ``PassthroughSubject``, `CurrentValueSubject` maintains a buffer of the most
/// recently published element. Calling ``send(_:)`` on a `CurrentValueSubject` also
/// updates the current value, making it equivalent to updating ``value`` directly.
///
/// ```swift
/// let subject = CurrentValueSubject<Int, Never>(1)
/// let cancellable = subject.sink { print($0) }   // prints 1
/// subject.value = 2                              // prints 2
/// subject.send(3)                                // prints 3
/// print(subject.value)                           // 3
/// ```
///
/// Back-pressure: demand is kept per subscriber. A new subscriber receives the current
/// value as soon as it requests demand. A value sent while a subscriber has no demand is
/// not queued for it; instead, when that subscriber next requests demand, it receives the
/// value that is current *at that moment* (so it sees the latest value, once, rather than
/// every value it missed). A subscriber that requests demand from inside
/// `receive(subscription:)` receives the current value inside that request. When the
/// subject is used as a subscriber (see `publisher.subscribe(subject)`) it requests
/// `.unlimited` from upstream at once (it loses nothing: it keeps the latest value), and
/// it cancels the upstream subscriptions it was handed when it is deinitialized.
///
/// Completion reaches every subscriber at once, whatever its demand (a value owed for lack
/// of demand is then never delivered). A subscriber that attaches after completion
/// receives the completion right after its subscription, and ``send(_:)`` has no effect
/// any more; setting ``value`` still changes the value (as in Apple's Combine) but sends it
/// nowhere.
///
/// Thread safety: ``send(_:)``, ``value``, ``send(completion:)`` and subscribing may be
/// used on any thread. One subscriber never receives two events at once: as with Apple's
/// subjects, a value sent while another thread is delivering to it waits for that delivery
/// and is then delivered on the sending thread; a value sent by the subscriber itself,
/// re-entrantly, is queued, with its demand reserved, and delivered right after.
///
/// - Complexity: ``send(_:)`` is O(1) for one subscriber (two lock acquisitions, no
///   allocation) and O(*n*) for *n* subscribers.
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
  @usableFromInline
  internal let storage: SubjectStorage<Output, Failure>

  /// The value wrapped by this subject, published as a new element whenever it changes.
  ///
  /// Setting it is the same as calling ``send(_:)``, except once the subject has
  /// completed: then ``send(_:)`` is ignored, while setting `value` still changes the
  /// value (without sending it anywhere), as in Apple's Combine.
  ///
  /// ```swift
  /// subject.value += 1
  /// ```
  @inlinable
  public var value: Output {
    get { storage.currentValue }
    set { storage.setCurrentValue(newValue) }
  }

  /// Creates a current value subject with the given initial value.
  ///
  /// ```swift
  /// let isLoading = CurrentValueSubject<Bool, Never>(false)
  /// ```
  ///
  /// - Parameter value: The initial value to publish.
  @inlinable
  public init(_ value: Output) {
    storage = SubjectStorage(kind: .currentValue, currentValue: value)
  }

  /// Attaches the specified subscriber: it receives a subscription described as
  /// `CurrentValueSubject`, then the current value on its first demand; once the subject
  /// has completed, an empty subscription and the completion instead.
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

  /// Makes `input` the current value and sends it to every subscriber that has
  /// outstanding demand.
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
    storage.send(input)
  }

  /// Sends a completion signal to every subscriber, and to every later subscriber.
  ///
  /// ```swift
  /// subject.send(completion: .finished)
  /// ```
  ///
  /// Only the first completion counts; later values are ignored.
  ///
  /// - Parameter completion: A `Completion` instance which indicates whether publishing
  ///   has finished normally or failed with an error.
  @inlinable
  public func send(completion: Subscribers.Completion<Failure>) {
    storage.send(completion: completion)
  }

  /// Keeps an upstream subscription and requests `.unlimited` from it at once, so that
  /// the subject forwards everything the upstream publishes.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher.subscribe(subject)   // subject.value == 3
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

// All mutable state, the current value included, lives in `storage` and is read and
// written only under its lock, so the subject may be shared between threads.
extension CurrentValueSubject: @unchecked Sendable {}
