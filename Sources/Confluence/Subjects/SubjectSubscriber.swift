/// The subscriber that `Publisher.subscribe(_:)` attaches upstream on a subject's behalf
/// (and that `AnySubscriber(subject)` wraps): it hands itself to the subject as the
/// upstream subscription, passes the subject's requests up, and forwards values and the
/// completion to the subject.
///
/// Demand is the subject's to decide: this subscriber asks upstream for nothing of its own
/// (a `PassthroughSubject` asks only once one of its subscribers has asked). As Apple's, it
/// refers to the subject weakly, so a subject nobody else keeps goes away (and cancels its
/// upstream subscriptions, this one included); a value or completion arriving after that,
/// or after cancel or completion, goes nowhere.
///
/// `print` shows it as `Subject`.
@usableFromInline
internal final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Output
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline
  internal let lock = Lock()

  /// The subject, until completion or cancel (guarded by `lock`).
  @usableFromInline
  internal weak var subject: Downstream?

  /// Guarded by `lock`. The value path reads it under the lock too: no benchmark row sends
  /// through `subscribe(_:)` to a subject, so an atomic mirror of it would save nothing
  /// measured (ARCHITECTURE.md, "Lock-free protocols").
  @usableFromInline
  @exclusivity(unchecked)
  internal var status = SubscriptionStatus.awaitingSubscription

  /// The storage of one of Confluence's subjects, to send values to without loading the
  /// weak reference (and retaining the subject) for each one. It does not keep the subject
  /// alive, and is reached only while `status` is `.subscribed`: the subject's deinit cancels this
  /// subscriber first. (The storage lists this subscriber among its upstreams, a cycle
  /// broken when the subject goes.)
  @usableFromInline
  internal let directStorage: SubjectStorage<Input, Failure>?

  /// `directStorage`, unretained, for the per-value path: `directStorage` keeps it alive
  /// as long as this object, so sending through it needs no retain and release per value
  /// (an optional binding of `directStorage` cost both).
  @usableFromInline
  internal let directStorageReference: Unmanaged<SubjectStorage<Input, Failure>>?

  @inlinable
  internal init(subject: Downstream) {
    self.subject = subject
    if let passthrough = subject as? PassthroughSubject<Input, Failure> {
      directStorage = passthrough.storage
    } else if let currentValue = subject as? CurrentValueSubject<Input, Failure> {
      directStorage = currentValue.storage
    } else {
      directStorage = nil
    }
    directStorageReference = directStorage.map { Unmanaged.passUnretained($0) }
  }

  /// Accepts the first subscription (a later one, or one after cancel or completion, is
  /// cancelled) and hands itself to the subject in its place.
  @inlinable
  internal func receive(subscription: Subscription) {
    let target = lock.withLock { () -> Downstream? in
      guard let subject, status.accept(subscription) else { return nil }
      return subject
    }
    guard let target else {
      subscription.cancel()
      return
    }
    target.send(subscription: self)
  }

  /// Sends `input` to the subject while subscribed; asks for nothing more (the subject
  /// asked for everything it wants through ``request(_:)``).
  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    if let directStorageReference {
      let isLive = lock.withLock { () -> Bool in
        guard case .subscribed = status else { return false }
        return true
      }
      if isLive {
        directStorageReference._withUnsafeGuaranteedRef { $0.send(input) }
      }
      return .none
    }
    lock.withLock { () -> Downstream? in
      guard case .subscribed = status else { return nil }
      return subject
    }?.send(input)
    return .none
  }

  /// Sends the completion to the subject, once, and lets the subject go.
  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let target = lock.withLock { () -> Downstream? in
      guard case .subscribed = status else { return nil }
      _ = status.terminate()
      defer { subject = nil }
      return subject
    }
    target?.send(completion: completion)
  }

  /// The subject's request, passed up.
  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    lock.withLock { status }.requestAndRelease(demand)
  }

  /// Cancels the upstream subscription, once, and lets the subject go.
  @inlinable
  internal func cancel() {
    let (upstream, released) = lock.withLock { () -> (Subscription?, Downstream?) in
      defer { subject = nil }
      return (status.terminate(), subject)
    }
    upstream?.cancel()
    _fixLifetime(released)
  }

  @usableFromInline
  internal var description: String { "Subject" }

  /// `downstreamSubject` and `upstreamSubscription`.
  @usableFromInline
  internal var customMirror: Mirror {
    let (subject, upstream) = lock.withLock { (self.subject, status.subscription) }
    return Mirror(self, children: ["downstreamSubject": subject as Any, "upstreamSubscription": upstream as Any])
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
