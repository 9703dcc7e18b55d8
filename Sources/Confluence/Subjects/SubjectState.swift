// The state machine of a subject as a whole: its subscribers, its completion, and (for
// `CurrentValueSubject` and `@Published`) its current value. Guarded by the lock of the
// `SubjectStorage` that holds it; the transitions never call out.
//
// Lifetime rule that lets a sender deliver to a lone subscriber without retaining it: a
// conduit stays in `conduits` for as long as a thread owns delivery to it. Cancel and
// completion remove an owned conduit only through its owner, which keeps the removed
// reference alive until it returns.

/// Which public type a subject storage serves; decides what `print` shows and the few
/// rules in which Apple's subjects differ.
@usableFromInline
internal enum SubjectKind: Sendable {
  case passthrough
  case currentValue
  /// The subject behind a `@Published` property (`$property`): a current-value subject.
  case published
  case observableObjectPublisher

  /// The description of the subscriptions this kind of subject hands out.
  @usableFromInline
  internal var subscriptionDescription: String {
    switch self {
    case .passthrough: return "PassthroughSubject"
    case .currentValue: return "CurrentValueSubject"
    case .published: return "PublishedSubject"
    case .observableObjectPublisher: return "ObservableObjectPublisher"
    }
  }

  /// Whether the subject keeps a current value, which each new subscriber receives on
  /// its first demand.
  @usableFromInline
  internal var keepsCurrentValue: Bool {
    // Matched rather than compared with `==`, which an unoptimised build calls through the
    // `Equatable` witness.
    switch self {
    case .currentValue, .published: true
    case .passthrough, .observableObjectPublisher: false
    }
  }

  /// Whether a subscriber's demand is only a switch: once it has requested anything it
  /// receives every value (Apple's `ObservableObjectPublisher`).
  @usableFromInline
  internal var ignoresDemandAmount: Bool {
    if case .observableObjectPublisher = self { true } else { false }
  }

  /// Whether an upstream subscription handed over with `send(subscription:)` is asked for
  /// `.unlimited` at once. A subject that keeps its current value loses nothing by
  /// accepting values early (`CurrentValueSubject`); one that keeps nothing asks only
  /// once one of its own subscribers has asked for something (`PassthroughSubject`),
  /// so that values sent before anyone wants them are not lost upstream of it.
  @usableFromInline
  internal var requestsUpstreamAtOnce: Bool {
    keepsCurrentValue
  }
}

/// The subscribers, completion and current value of a subject.
@usableFromInline
internal struct SubjectState<Output, Failure: Error>: SubjectStateSending {
  @usableFromInline
  internal typealias Conduit = SubjectConduit<Output, Failure>

  /// The live subscribers, in subscription order (a lone one outside any buffer).
  @usableFromInline
  internal var conduits: SubjectConduitList<Conduit>

  @usableFromInline
  internal let keepsCurrentValue: Bool

  /// Whether the subject completed: `completion != nil`, kept apart (and ahead of the fields
  /// whose size depends on `Output` and `Failure`) so that a send can check it without the
  /// generic metadata of `Completion` and of the optional around it, which unspecialised code
  /// (an unoptimised build) looks up in the runtime's cache on every call.
  @usableFromInline
  internal private(set) var isCompleted = false

  /// The failure the subject completed with, if it failed; ``completion`` is made from it
  /// and ``isCompleted``. Not a stored `Subscribers.Completion<Failure>?`: code the compiler
  /// did not specialise (an app's debug build) makes an empty one by writing its tag through
  /// `Completion`'s metadata, which it looks up in the runtime's cache (about 330
  /// instructions) for every subject made; an empty `Failure?` is written through
  /// `Failure`'s, which it already has. (Spelled `Optional<Failure>` as ``currentValue``
  /// is, and for the same reason.)
  @usableFromInline
  internal private(set) var failure: Optional<Failure>

  /// The current value; `nil` exactly when the subject keeps none (`PassthroughSubject`).
  /// Spelled `Optional<Output>`, not `Output?`, so that it has no implicit `nil` that the
  /// initialisers would then replace: replacing it destroys the `nil` first, through the
  /// metadata of `Optional<Output>`, a look-up where the code is not specialised.
  @usableFromInline
  internal var currentValue: Optional<Output>

  /// The state of a subject that keeps no current value.
  @inlinable
  @inline(__always)
  internal init() {
    self.conduits = Self.emptyConduits()
    self.keepsCurrentValue = false
    self.failure = nil
    self.currentValue = nil
  }

  /// The state of a subject that keeps a current value, `currentValue`.
  @inlinable
  @inline(__always)
  internal init(currentValue: Output) {
    self.conduits = Self.emptyConduits()
    self.keepsCurrentValue = true
    self.failure = nil
    self.currentValue = currentValue
  }

  /// An empty list of conduits, made without looking the conduit's type up where the code
  /// is not specialised (see ``SubjectConduitList/init(unspecialised:)``): whether it is, is
  /// asked of `Output`, whose metadata such code already has.
  @inlinable
  @inline(__always)
  internal static func emptyConduits() -> SubjectConduitList<Conduit> {
    _isConcrete(Output.self) ? SubjectConduitList() : SubjectConduitList(unspecialised: ())
  }

  /// How the subject completed; only once it has (``isCompleted``).
  @inlinable
  internal var completion: Subscribers.Completion<Failure> {
    confluencePrecondition(isCompleted, "the completion of a subject that has not completed was read")
    if let failure { return .failure(failure) }
    return .finished
  }

  /// Where a sent value goes.
  @usableFromInline
  internal enum SendPlan {
    /// Nowhere: completed, no subscribers, or the lone subscriber queued or dropped it.
    case none
    /// The caller owns delivery to the lone subscriber; the subject's list keeps it alive.
    case one(Unmanaged<Conduit>)
    /// Several subscribers of a subject without a current value: offer the value to each in
    /// turn (the snapshot keeps them alive), as Apple's subjects do.
    case many(ContiguousArray<Conduit>)
    /// The lone subscriber accepted the value while another thread owned delivery to it:
    /// wait for that thread to finish, then claim delivery (`SubjectStorage.deliverAfterWaiting`).
    case wait(Conduit)
    /// Several subscribers of a subject with a current value, each of which accepted or
    /// declined the value as it became current: claim delivery to those that accepted it
    /// (their indices in the snapshot), in turn.
    case reserved(ContiguousArray<Conduit>, SubjectReservations)
  }

  /// A value was sent: records it as the current value and plans its delivery. The value
  /// it replaced is handed back, to be released outside the lock.
  ///
  /// A subject with a current value offers it to every subscriber here, in the critical
  /// section that makes it current: whether a subscriber accepted it (and will be handed
  /// it by this sender) or is owed the current value (and will be handed whatever is
  /// current on its next demand) is then decided at one instant for each, so no subscriber
  /// receives one value twice, whatever other threads send or request meanwhile.
  @inlinable
  @inline(__always)
  internal mutating func sendKeepingCurrentValue(_ value: Output, replaced: inout Output?) -> SendPlan {
    if isCompleted { return .none }
    replaced = currentValue.take()
    currentValue = value
    return plan(value, keepingCurrentValue: true)
  }

  /// ``SubjectStateSending/headOfSeveral()``.
  @inlinable
  internal mutating func headOfSeveral() -> Conduit? {
    isCompleted ? nil : conduits.head
  }

  /// A value was sent to a subject that keeps no current value: plans its delivery. (No
  /// `replaced` variable: in unspecialised code, an optional `Output` costs a look-up of its
  /// generic metadata per send.)
  @inlinable
  @inline(__always)
  internal mutating func sendWithoutCurrentValue(_ value: Output) -> SendPlan {
    if isCompleted { return .none }
    return plan(value, keepingCurrentValue: false)
  }

  /// Plans the delivery of a value the subject accepted (see
  /// ``sendKeepingCurrentValue(_:replaced:)`` and ``sendWithoutCurrentValue(_:)``).
  ///
  /// - Parameter keepingCurrentValue: `keepsCurrentValue`, as a constant the caller's
  ///   specialisation can fold.
  @inlinable
  @inline(__always)
  internal mutating func plan(_ value: Output, keepingCurrentValue: Bool) -> SendPlan {
    switch conduits.count {
    case 0:
      return .none
    case 1:
      // Unretained: the list keeps it alive (a strong copy here cost a retain and a release).
      let conduit = Unmanaged.passUnretained(conduits[0])
      switch conduit._withUnsafeGuaranteedRef({ $0.offer(value, keepsCurrentValue: keepingCurrentValue) }) {
      case .owned: return .one(conduit)
      case .declined: return .none
      case .busy: return .wait(conduits[0])
      }
    default:
      guard keepingCurrentValue else { return .many(conduits.snapshot) }
      return reserveForEach(value)
    }
  }

  /// ``plan(_:keepingCurrentValue:)`` for a subject with a current value and
  /// several subscribers: offers `value` to each, reserving rather than taking delivery
  /// (the sender claims each in turn, outside the lock; owning them all at once while
  /// calling the first could deadlock with another sender doing the same).
  @inlinable
  internal mutating func reserveForEach(_ value: Output) -> SendPlan {
    var reservations = SubjectReservations()
    for index in conduits.indices
    where conduits[index].offer(value, keepsCurrentValue: true, mayOwn: false) == .busy {
      reservations.insert(index)
    }
    return reservations.isEmpty ? .none : .reserved(conduits.snapshot, reservations)
  }

  /// A subscriber arrived, before the subject completed: lists `conduit`, taking the
  /// reference handed over.
  @inlinable
  @inline(__always)
  internal mutating func subscribe(_ conduit: __owned Conduit) {
    assert(!isCompleted, "a completed subject lists no new subscriber")
    conduits.append(conduit)
  }

  /// The subject completed. Returns the conduits to complete now; owned conduits stay
  /// listed with the completion queued, for their owners to deliver and remove.
  @inlinable
  internal mutating func complete(_ completion: Subscribers.Completion<Failure>) -> ContiguousArray<Conduit> {
    guard !isCompleted else { return [] }
    if case .failure(let error) = completion { failure = error }
    isCompleted = true
    var completeNow = ContiguousArray<Conduit>()
    var stillOwned = ContiguousArray<Conduit>()
    for conduit in conduits {
      if conduit.state.complete() {
        completeNow.append(conduit)
      } else if conduit.state.isCompletionPending || conduit.state.isDelivering || conduit.state.isSubscribing {
        // Owned, or still receiving its subscription: completed later, then removed. A
        // conduit cancelled while a thread owns its delivery, or while its subscriber is in
        // `receive(subscription:)`, stays too: the list's reference is what keeps it alive
        // for that owner or that call, and it is removed when they return.
        stillOwned.append(conduit)
      }
    }
    // Every conduit dropped from the list here is kept alive by `completeNow`, so no
    // subscriber is freed under the lock.
    conduits.replace(with: stillOwned)
    return completeNow
  }

  /// Removes `conduit` and returns the reference the list held, for the caller to release
  /// outside the lock (it may be the last one).
  @inlinable
  @inline(__always)
  internal mutating func remove(_ conduit: Conduit) -> Conduit? {
    guard let index = conduits.firstIndex(identicalTo: conduit) else { return nil }
    return conduits.remove(at: index)
  }
}
