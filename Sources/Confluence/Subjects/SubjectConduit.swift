import CConfluenceSystem
import Synchronization

/// The root of ``SubjectDownstreamBox``, generic over nothing: what a conduit's completion
/// handler calls where the conduit's initialiser runs unspecialised (a debug build's app
/// code subscribing to a subject). Formed there, a handler that names the box's type would
/// capture its metadata, an allocation; this one names none, and reaches the subscriber
/// through the method below, which the box overrides. (The value handler, called per value,
/// keeps the cheaper call and its allocation.)
@usableFromInline
internal class SubjectDownstreamBoxRoot {
  @inlinable
  internal init() {}

  /// Hands the completion the pointer points to to the subscriber (overridden by the box).
  @usableFromInline
  internal func receiveOverridden(completion: UnsafeRawPointer) {
    confluencePreconditionFailure("SubjectDownstreamBox overrides receiveOverridden(completion:)")
  }
}

/// Holds a subject's subscriber of one concrete type, so that a conduit (which is not
/// generic over the subscriber) can keep it alive and release it at cancel or completion.
/// Only for structures too large to be stored in the conduit, and for classes where the
/// conduit is made by unspecialised code (see ``SubjectDownstreamForm``).
@usableFromInline
internal final class SubjectDownstreamBox<Downstream: Subscriber>: SubjectDownstreamBoxRoot,
  SubjectDownstreamReflecting
{
  @usableFromInline
  internal let subscriber: Downstream

  @inlinable
  internal init(_ subscriber: Downstream) {
    self.subscriber = subscriber
    super.init()
  }

  @inlinable
  internal override func receiveOverridden(completion: UnsafeRawPointer) {
    subscriber.receive(
      completion: completion.assumingMemoryBound(to: Subscribers.Completion<Downstream.Failure>.self).pointee)
  }

  @usableFromInline
  internal func reflectedSubscriber(tag: UInt8) -> Any { subscriber }
}

/// A reference a conduit holds in place of its subscriber (a ``SubjectDownstreamBox``, or
/// the reference of a ``SubjectInlineSubscriber``): what the conduit's mirror shows is the
/// subscriber it stands for, rebuilt from this reference and the conduit's tag (a cold
/// path: a dynamic cast). No subscriber is one.
@usableFromInline
internal protocol SubjectDownstreamReflecting: AnyObject {
  /// The subscriber this reference stands for, with `tag` (``SubjectConduit/downstreamTag``).
  func reflectedSubscriber(tag: UInt8) -> Any
}

/// Calls a conduit's subscriber, given the reference the conduit holds (borrowed), its tag
/// (see ``SubjectDownstreamForm/inline``; 0 in the other forms) and the value the pointer
/// points to (an `Output`, borrowed). The reference comes as a reference, not a raw
/// pointer: the handler is then one function (a raw pointer would need
/// `_withUnsafeGuaranteedRef` and its closure inside the handler, which the inliner keeps
/// out of line once the subscriber's chain is inlined into it: one more call per value).
@usableFromInline
internal typealias SubjectConduitValueHandler = (AnyObject, UInt8, UnsafeRawPointer) -> Subscribers.Demand

/// Calls a conduit's subscriber, as ``SubjectConduitValueHandler``, with the completion the
/// pointer points to (a `Subscribers.Completion<Failure>`, borrowed).
@usableFromInline
internal typealias SubjectConduitCompletionHandler = (AnyObject, UInt8, UnsafeRawPointer) -> Void

/// How a conduit holds its subscriber (the one reference in ``SubjectConduit/downstream``),
/// decided from the subscriber's type: a constant in code specialised for it.
///
/// Many subscribers of a subject are classes (`Sink`, `assign`'s subscriber, the
/// subscriptions of operators that subscribe as themselves), which are a reference already:
/// holding them as themselves saves an allocation per subscription. (`AnyPublisher` hands a
/// wrapped subject its subscribers unwrapped, see `SubjectBacking`, so an `AnySubscriber`
/// reaches a subject only when its user wraps one: it is boxed like any structure.)
@usableFromInline
@frozen
internal enum SubjectDownstreamForm {
  /// The subscriber is a class (in an optimised build, only where `of` is specialised): the
  /// reference is the subscriber.
  case itself
  /// A ``SubjectInlineSubscriber`` (each side of `zip` and `combineLatest`): the reference
  /// is its ``SubjectInlineSubscriber/subjectReference`` and the conduit keeps its tag.
  case inline
  /// A structure of three words at most that is not a class (a `map` or `filter` relay, an
  /// `AnySubscriber`): it lives in the conduit's ``SubjectConduit/storedSubscriber``, and
  /// the reference is the conduit itself, not retained (see ``SubjectStoredSubscriber``).
  case stored
  /// Anything else: the reference is a ``SubjectDownstreamBox`` holding the subscriber.
  case boxed

  /// The form for subscribers of type `Downstream`.
  @inlinable
  internal static func of<Downstream: Subscriber>(_: Downstream.Type) -> SubjectDownstreamForm {
    switch _canBeClass(Downstream.self) {
    case 0: break
    case 1: return .itself
    default:
      // Not specialised. In an optimised build (a pipeline built by a generic helper in
      // another module) a class is boxed too: handing it over as itself needs its reference
      // cast to `Downstream`, which only specialised code does for free; unspecialised it is
      // a call into the runtime's dynamic cast with a retain and a release on every value,
      // where the box's field is reached in place. The box costs one allocation per
      // subscription instead. In an unoptimised build it is the other way round (a sink on a
      // subject, per value: 2,892 instructions held as itself, 3,275 boxed), so a class is
      // itself there.
      #if CONFLUENCE_UNOPTIMISED
        if Downstream.self is AnyObject.Type { return .itself }
      #endif
      // A structure that fits is stored where this runs unspecialised too (its size is read
      // from its type, and telling it from a class is one check per subscription): the box
      // it spares costs an allocation and its release.
      if Downstream.self is AnyObject.Type { return .boxed }
    }
    // Only a structure of a reference and a byte can be inline: the shape is a constant where
    // `Downstream` is concrete, so other subscribers never ask the runtime about the
    // conformance (a look-up per subscription), and for the ones of that shape the
    // compiler, which knows the module's conformances, folds the cast.
    if MemoryLayout<Downstream>.size == 9, MemoryLayout<Downstream>.alignment == MemoryLayout<AnyObject>.alignment,
      Downstream.self is any SubjectInlineSubscriber.Type
    {
      return .inline
    }
    return SubjectStoredSubscriber.fits(Downstream.self) ? .stored : .boxed
  }
}

/// The root of ``SubjectConduit``, generic over nothing, so that its `specialized` can take
/// the conduit as this class: where the conduit's initialiser runs unspecialised, it then
/// hands over a function that captures nothing (one that names the conduit's types would
/// capture their metadata, an allocation per subscription) and calls the method below,
/// which the conduit overrides.
@usableFromInline
internal class SubjectConduitRoot {
  @inlinable
  internal init() {}

  /// Downstream's request (`demand` non-zero) or cancel (`.none`) (overridden by the
  /// conduit).
  @usableFromInline
  internal func requestOrCancelOverridden(_ demand: Subscribers.Demand) {
    confluencePreconditionFailure("SubjectConduit overrides requestOrCancelOverridden(_:)")
  }
}

/// The subscription a subject hands each subscriber: state guarded by the subject's lock,
/// and the subscriber itself, boxed, with two functions that call it.
///
/// The two functions are made in the conduit's `init`, which client code specialises for
/// the concrete subscriber type (through ``SubjectStorage/receive(subscriber:)``), so
/// calling them runs specialised code. (A generic subclass per subscriber type would not:
/// class methods reached through the vtable run unspecialised, looking generic metadata up
/// on every value.) Their signatures mention no generic parameter, and the properties
/// holding them are not optional, on purpose: a closure stored at generic abstraction (a
/// generic parameter in its type, or wrapped in `Optional`) is called through a
/// reabstraction thunk that is allocated on every call. They capture nothing (the
/// subscriber is passed in, boxed), so they cost no allocation; and they are `let`
/// properties, so calling them needs no retain of a closure context, which reading a
/// `var` closure would. Everything else here is `final` and reached directly, so it is
/// specialised for the subject's `Output` and `Failure`.
///
/// `downstream` is written only under the subject's lock, and only while no thread owns
/// delivery; the owner reads it without the lock (the lock hand-over orders the accesses).
///
/// `print` shows it as the subject's type (`PassthroughSubject`, `CurrentValueSubject`, …).
///
/// Like Apple's conduits it keeps the public subject object (`parent`) alive until it is
/// cancelled or completed, so a subject with live subscribers outlives its last other
/// reference (and only then cancels its upstream subscriptions).
@usableFromInline
internal final class SubjectConduit<Output, Failure: Error>: SubjectConduitRoot, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  internal typealias ValueHandler = SubjectConduitValueHandler

  @usableFromInline
  internal typealias CompletionHandler = SubjectConduitCompletionHandler

  /// The subject; kept alive while the subscriber holds its subscription.
  @usableFromInline
  internal let storage: SubjectStorage<Output, Failure>

  /// The public subject object until cancel or completion, then `nil` (guarded by
  /// `storage.lock`; released outside it, since the subject's deinit calls out).
  @exclusivity(unchecked) @usableFromInline
  internal var parent: AnyObject?

  /// Set (for good) once the subscriber's demand is unlimited, so that further requests
  /// (a `filter` or a relay downstream asking again for each value it drops) return
  /// without the subject's lock: they could not change anything.
  ///
  /// Invariant: stored only inside a critical section that leaves `state.demand` unlimited
  /// with every upstream of the subject already asked (`SubjectStorage.upstreamsAsked`),
  /// never cleared; unlimited demand stays unlimited, so a request that reads it set could
  /// change nothing, and a stale `false` only takes the lock
  /// (`DemandIsUnlimitedInterleavingTests`).
  @usableFromInline
  internal let demandIsUnlimited = Atomic<Bool>(false)

  /// This subscriber's own lane (a `SubjectLane` value), used while the subject has several
  /// subscribers: a sender delivering to all of them takes and gives up delivery to this
  /// one with a compare-and-exchange each instead of a critical section (see
  /// `SubjectLane`). Changed from `closed` or `ownedClosed` only under `storage.lock`.
  @usableFromInline
  internal let lane = Atomic<UInt8>(SubjectLane.closed)

  /// The thread (its `confluence_thread_token()`) that took delivery ownership last: stored
  /// by every thread that takes it (under the lock, or after taking a lane), before it calls
  /// the subscriber. A sender that finds the conduit owned reads it to tell a re-entrant
  /// send (its own thread owns delivery: the value is queued and the owner delivers it
  /// next) from a concurrent one (another thread owns it: the sender waits its turn and
  /// delivers its value itself, as Apple's subjects do).
  ///
  /// Invariant: a thread reads its own token here only while it owns delivery. Every owner
  /// stores 0 before it gives ownership up (under the lock, or before the compare-and-exchange
  /// that hands a lane back), so a thread's own last store is its token only while it owns;
  /// a later store is another owner's token or 0. Without that, a sender whose ownership had
  /// just passed to another thread through a lane (which stores its token only after taking
  /// it) read its own stale token, took itself for a re-entrant sender and left its value to
  /// the other thread (its `send` returned before its value was delivered): the race suite
  /// saw it, and `SubjectLaneInterleavingTests` checks it in every interleaving.
  @usableFromInline
  internal let deliveringThread = Atomic<UInt>(0)

  /// The subscriber itself, where it is a small structure (``SubjectDownstreamForm/stored``;
  /// see ``SubjectStoredSubscriber``). Before `state`, whose size depends on `Output`, so
  /// that it sits at the same offset in every conduit and code the compiler did not
  /// specialise reaches it without looking the offset up.
  @exclusivity(unchecked) @usableFromInline
  internal var storedSubscriber = SubjectStoredSubscriber()

  /// Guarded by `storage.lock`. (`@exclusivity(unchecked)`: the lock already serialises
  /// every access, so the runtime's exclusivity bookkeeping would only cost time.)
  @exclusivity(unchecked) @usableFromInline
  internal var state: SubjectConduitState<Output, Failure>

  /// The subscriber, as one retained reference (see ``SubjectDownstreamForm``), or this
  /// conduit, not retained, for a stored subscriber, until completion or cancel, then
  /// `nil`. Guarded by `storage.lock` as described above.
  @exclusivity(unchecked) @usableFromInline
  internal var downstream: UnsafeRawPointer?

  /// The rest of an inline subscriber (see ``SubjectDownstreamForm/inline``), handed to the
  /// handlers with the reference; 0 in the other forms.
  @usableFromInline
  internal let downstreamTag: UInt8

  /// Whether the subscriber lives in ``storedSubscriber`` (``SubjectDownstreamForm/stored``):
  /// then ``downstream``, until it is taken, is this conduit, not retained.
  @usableFromInline
  internal let storesSubscriber: Bool

  /// Hands a value to the boxed subscriber.
  @usableFromInline
  internal let receiveValue: ValueHandler

  /// Hands the completion to the boxed subscriber.
  @usableFromInline
  internal let receiveCompletion: CompletionHandler

  /// Runs ``requestSpecialized(_:)`` (demand non-zero) or ``cancelSpecialized()`` (demand
  /// `.none`). `request` and `cancel` arrive through `any Subscription`, which runs this
  /// generic class's unspecialised code (generic metadata looked up at run time); this
  /// function, formed in the specialised `init`, runs
  /// specialised code. It captures nothing, so it costs no allocation.
  @usableFromInline
  internal let specialized: (SubjectConduitRoot, Subscribers.Demand) -> Void

  // Always inlined: in specialised code all but one form's branch folds away, and the
  // optimiser, which no longer inlined it once the stored form was added, made each
  // subscription pay a call.
  @inlinable
  @inline(__always)
  internal init<Downstream: Subscriber>(
    storage: SubjectStorage<Output, Failure>, parent: AnyObject, downstream: Downstream,
    adoptingReference: Bool = false
  ) where Downstream.Input == Output, Downstream.Failure == Failure {
    self.storage = storage
    self.parent = parent
    // The form is decided once, here, and each form gets handlers of its own: a constant
    // in specialised code, and in code that is not (a generic helper the compiler did not
    // specialise) a check per subscription rather than one per value. Where this runs
    // unspecialised, the completion handler of a boxed subscriber and `specialized` capture
    // nothing and call methods the box and this class override (see
    // `SubjectDownstreamBoxRoot`).
    let unspecialised = _canBeClass(Downstream.self) > 1
    let held: AnyObject?
    let form = SubjectDownstreamForm.of(Downstream.self)
    storesSubscriber = form == .stored
    switch form {
    case .itself:
      held = unsafeBitCast(downstream, to: AnyObject.self)
      downstreamTag = 0
      receiveValue = { held, _, value in
        _unsafeReferenceCast(held, to: Downstream.self).receive(value.assumingMemoryBound(to: Output.self).pointee)
      }
      receiveCompletion = { held, _, completion in
        _unsafeReferenceCast(held, to: Downstream.self).receive(
          completion: completion.assumingMemoryBound(to: Subscribers.Completion<Failure>.self).pointee)
      }
    case .inline:
      let inline = Downstream.self as! any SubjectInlineSubscriber.Type
      (held, downstreamTag, receiveValue, receiveCompletion) = inline.subjectParts(of: downstream)
    case .stored:
      // Held as `nil` until `self` exists, below.
      held = nil
      downstreamTag = 0
      // Borrowed, not called in place, unspecialised too: there the call in place copied the
      // subscriber into a temporary (`generic-compactMap-unspecialised`: 2,661 instructions a
      // value in place, 2,594 borrowed, 2,519 boxed).
      receiveValue = { held, _, value in
        unsafeDowncast(held, to: SubjectConduit.self).borrowStoredSubscriber(Downstream.self) {
          $0.receive(value.assumingMemoryBound(to: Output.self).pointee)
        }
      }
      // Also destroys the subscriber and copies it for the mirror (see
      // ``SubjectStoredAccess``). Where this runs unspecialised it captures the subscriber's
      // type, as the value handler does: two allocations, as a boxed subscriber's box and
      // value handler.
      receiveCompletion = { held, access, pointer in
        let conduit = unsafeDowncast(held, to: SubjectConduit.self)
        switch access {
        case SubjectStoredAccess.destroy:
          conduit.withStoredSubscriber(Downstream.self) { _ = $0.deinitialize(count: 1) }
        case SubjectStoredAccess.reflect:
          let copy = conduit.withStoredSubscriber(Downstream.self) { $0.pointee }
          UnsafeMutableRawPointer(mutating: pointer).assumingMemoryBound(to: Any?.self).pointee = copy
        default:
          conduit.borrowStoredSubscriber(Downstream.self) {
            $0.receive(completion: pointer.assumingMemoryBound(to: Subscribers.Completion<Failure>.self).pointee)
          }
        }
      }
    case .boxed:
      held = SubjectDownstreamBox(downstream)
      downstreamTag = 0
      // The value handler captures where unspecialised: through an override, a value cost
      // 20 instructions more in `generic-12-unspecialised`.
      receiveValue = { held, _, value in
        unsafeDowncast(held, to: SubjectDownstreamBox<Downstream>.self).subscriber.receive(
          value.assumingMemoryBound(to: Output.self).pointee)
      }
      if unspecialised {
        receiveCompletion = { held, _, completion in
          unsafeDowncast(held, to: SubjectDownstreamBoxRoot.self).receiveOverridden(completion: completion)
        }
      } else {
        receiveCompletion = { held, _, completion in
          unsafeDowncast(held, to: SubjectDownstreamBox<Downstream>.self).subscriber.receive(
            completion: completion.assumingMemoryBound(to: Subscribers.Completion<Failure>.self).pointee)
        }
      }
    }
    self.downstream = held.map {
      UnsafeRawPointer(
        adoptingReference ? Unmanaged.passUnretained($0).toOpaque() : Unmanaged.passRetained($0).toOpaque())
    }
    if unspecialised {
      specialized = { conduit, demand in conduit.requestOrCancelOverridden(demand) }
    } else {
      specialized = { conduit, demand in
        let conduit = unsafeDowncast(conduit, to: SubjectConduit.self)
        if demand == .none {
          conduit.cancelSpecialized()
        } else {
          conduit.requestSpecialized(demand)
        }
      }
    }
    state = SubjectConduitState(owesCurrentValue: storage.keepsCurrentValue)
    super.init()
    if form == .stored {
      withStoredSubscriber(Downstream.self) { $0.initialize(to: downstream) }
      self.downstream = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
    }
    // An inline subscriber's reference adopted: the subscriber is forgotten, not destroyed.
    if adoptingReference { forget(adopted: downstream) }
  }

  /// Destroys the stored subscriber in place (``SubjectDownstreamForm/stored``). Out of
  /// line, so that the paths it sits on (cancel, completion, `deinit`) stay as lean as they
  /// were for the other forms.
  @inlinable
  @inline(never)
  internal func destroyStoredSubscriber() {
    // The handler does not read the pointer for a destroy; any valid one will do.
    withUnsafePointer(to: storesSubscriber) { receiveCompletion(self, SubjectStoredAccess.destroy, $0) }
  }

  /// Calls `body` with the stored subscriber (``SubjectDownstreamForm/stored``) borrowed,
  /// neither retained nor released: the delivery path's access.
  ///
  /// Called through a pointer to the conduit's words, a method of the subscriber would see
  /// memory the optimiser cannot prove unchanged during the call, so it copies the
  /// subscriber first: a retain and a release of each of its references (a `map` relay's
  /// downstream and closure context, four atomic operations) on every value. Instead the
  /// words are copied (trivially) to the stack, the subscriber moved out of that copy, used,
  /// and moved back, so no reference count changes. Sound because the stored subscriber
  /// outlives the call: it is destroyed only by the thread that takes it from the conduit,
  /// which happens under the lock while no thread owns delivery, and only the owner calls
  /// this.
  @inlinable
  @inline(__always)
  internal func borrowStoredSubscriber<Downstream, Result>(
    _: Downstream.Type, _ body: (borrowing Downstream) -> Result
  ) -> Result {
    var words = storedSubscriber
    return Self.borrow(&words, as: Downstream.self, body)
  }

  /// Calls `body` with the value whose words `words` holds (a copy of a conduit's field),
  /// moved out and back, so no reference count changes (see ``borrowStoredSubscriber(_:_:)``).
  @inlinable
  @inline(__always)
  internal static func borrow<Words, Downstream, Result>(
    _ words: inout Words, as _: Downstream.Type, _ body: (borrowing Downstream) -> Result
  ) -> Result {
    withUnsafeMutablePointer(to: &words) {
      let pointer = UnsafeMutableRawPointer($0).assumingMemoryBound(to: Downstream.self)
      let subscriber = pointer.move()
      let result = body(subscriber)
      pointer.initialize(to: consume subscriber)
      return result
    }
  }

  /// Calls `body` with the subscriber, borrowed from this conduit, which holds it as itself
  /// (``SubjectDownstreamForm/itself``) or stores it (``SubjectDownstreamForm/stored``):
  /// how ``SubjectStorage/receive(relay:parent:)`` calls `receive(subscription:)` on a relay
  /// it moved into the conduit. Sound only while the subscriber is in that call or before
  /// the conduit is listed: nothing takes the subscriber then (see ``takeDownstream()``).
  @inlinable
  @inline(__always)
  internal func lendSubscriber<Downstream: Subscriber>(_: Downstream.Type, _ body: (borrowing Downstream) -> Void) {
    if storesSubscriber {
      borrowStoredSubscriber(Downstream.self, body)
    } else {
      // The reference's word moved out of a copy and back, as a stored subscriber's are:
      // borrowed through `_withUnsafeGuaranteedRef`, the optimiser retained the subscriber for
      // the call and released it after.
      var word = downstream
      Self.borrow(&word, as: Downstream.self, body)
    }
  }

  /// Calls `body` with the stored subscriber (``SubjectDownstreamForm/stored``), in place:
  /// to initialise it, destroy it, or copy it for the mirror.
  @inlinable
  @inline(__always)
  internal func withStoredSubscriber<Downstream, Result>(
    _: Downstream.Type, _ body: (UnsafeMutablePointer<Downstream>) -> Result
  ) -> Result {
    withUnsafeMutablePointer(to: &storedSubscriber) {
      body(UnsafeMutableRawPointer($0).assumingMemoryBound(to: Downstream.self))
    }
  }

  @inlinable
  internal override func requestOrCancelOverridden(_ demand: Subscribers.Demand) {
    if demand == .none {
      cancelSpecialized()
    } else {
      requestSpecialized(demand)
    }
  }

  @inlinable
  deinit {
    guard downstream != nil else { return }
    if storesSubscriber {
      // Never taken (the subject went away, or never listed this conduit).
      destroyStoredSubscriber()
    } else {
      Unmanaged<AnyObject>.fromOpaque(downstream.unsafelyUnwrapped).release()
    }
  }

  /// The references a conduit lets go of when it terminates, taken under the lock and
  /// released outside it: the boxed subscriber and the public subject; `tookStored` when the
  /// subscriber is stored in the conduit (destroyed by ``letGo(_:)``).
  @usableFromInline
  internal typealias TakenReferences = (subscriber: AnyObject?, parent: AnyObject?, tookStored: Bool)

  /// What the owner does next, decided under the lock.
  @usableFromInline
  internal enum Step {
    case deliver(Output)
    case idle
    /// Deliver the completion to the taken subscriber; keep the list's reference alive.
    case complete(Subscribers.Completion<Failure>, TakenReferences, SubjectConduit?)
    /// Release the taken subscriber, queue and list reference outside the lock.
    case release(TakenReferences, [Output?], SubjectConduit?)
  }

  /// Under the subject's lock (with any lane that held this conduit's ownership closed):
  /// offers `value` to the subscriber (see `SubjectConduitState.offer`). A send from the
  /// thread that owns delivery (re-entrant) is queued; a send from another thread while
  /// one owns it reserves demand and is `busy`: the sender waits and delivers its value
  /// itself (``claimReserved(_:)``).
  ///
  /// - Parameter mayOwn: `false` to reserve even when nobody owns delivery (the caller
  ///   claims it later).
  @inlinable
  @inline(__always)
  internal func offer(_ value: Output, keepsCurrentValue: Bool, mayOwn: Bool = true) -> SubjectOffer {
    let outcome = state.offer(
      value, keepsCurrentValue: keepsCurrentValue,
      byOwnerThread: deliveringThread.load(ordering: .relaxed) == confluence_thread_token(), mayOwn: mayOwn)
    return took(outcome)
  }

  /// Under the subject's lock (with any lane that held this conduit's ownership closed): a
  /// sender whose `value` was accepted while another thread owned delivery asks again (see
  /// `SubjectConduitState.claimReserved`).
  @inlinable
  internal func claimReserved(_ value: Output) -> SubjectOffer {
    let outcome = state.claimReserved(
      byOwnerThread: deliveringThread.load(ordering: .relaxed) == confluence_thread_token(),
      queue: { $0.append(value) })
    return took(outcome)
  }

  /// Notes the calling thread as the owner when an offer or claim made it one.
  @inlinable
  @inline(__always)
  internal func took(_ outcome: SubjectConduitState<Output, Failure>.OfferOutcome) -> SubjectOffer {
    switch outcome {
    case .owned:
      deliveringThread.store(confluence_thread_token(), ordering: .relaxed)
      return .owned
    case .done:
      return .declined
    case .reserved:
      return .busy
    }
  }

  /// Notes that the calling thread took delivery ownership without an offer (a lane taken,
  /// or a request that owes the current value), before it calls the subscriber.
  @inlinable
  @inline(__always)
  internal func noteDeliveringThread() {
    deliveringThread.store(confluence_thread_token(), ordering: .relaxed)
  }

  /// The owner is about to give delivery ownership up: see ``deliveringThread``.
  @inlinable
  @inline(__always)
  internal func forgetDeliveringThread() {
    deliveringThread.store(0, ordering: .relaxed)
  }

  /// Delivers `value`, then whatever was queued meanwhile. The caller owns delivery (its
  /// `offer` returned `true`) and keeps the conduit alive.
  @inlinable
  internal func deliver(_ value: Output) {
    continueDelivery(after: send(value))
  }

  /// The owner hands `value` to the subscriber.
  @inlinable
  @inline(__always)
  internal func send(_ value: Output) -> Subscribers.Demand {
    // Through `withReadPointer`: unprotected where specialised (the handler reads exactly
    // one `Output` through the pointer, so the stack protector that `withUnsafePointer` sets
    // up, a canary stored and checked in the caller on every value, guards nothing here),
    // and no call into the standard library where not.
    withReadPointer(to: value) { value in
      Unmanaged<AnyObject>.fromOpaque(downstream.unsafelyUnwrapped)._withUnsafeGuaranteedRef {
        receiveValue($0, downstreamTag, value)
      }
    }
  }

  /// The owner's loop: hands back the demand the downstream returned, then delivers what
  /// was queued meanwhile, until there is nothing left and ownership is given up.
  @inlinable
  internal func continueDelivery(after more: Subscribers.Demand) {
    finishOwnedDelivery(after: more, throughClosedLane: .none)
  }

  /// ``continueDelivery(after:)`` for a sender that delivered through the subject's
  /// lone-subscriber lane and found it closed meanwhile (`SubjectLane.ownedClosed`): the
  /// closing operation made it this conduit's owner.
  @inlinable
  internal func finishLaneDelivery(after more: Subscribers.Demand) {
    finishOwnedDelivery(after: more, throughClosedLane: .lone)
  }

  /// ``finishLaneDelivery(after:)`` for a delivery through this conduit's own lane.
  @inlinable
  internal func finishOwnLaneDelivery(after more: Subscribers.Demand) {
    finishOwnedDelivery(after: more, throughClosedLane: .own)
  }

  /// Which lane a delivery went through, if any (see `SubjectLane`).
  @usableFromInline
  internal enum LaneKind {
    case none
    /// The subject's lone-subscriber lane.
    case lone
    /// This conduit's own lane.
    case own
  }

  /// The three above: marks the lane closed first when the delivery went through one (a
  /// constant at each call site, folded away), then finishes the delivery.
  @inlinable
  @inline(__always)
  internal func finishOwnedDelivery(after more: Subscribers.Demand, throughClosedLane: LaneKind) {
    let finished = storage.lock.withLock { () -> Bool in
      switch throughClosedLane {
      case .none: break
      case .lone: storage.lane.store(UInt(SubjectLane.closed), ordering: .relaxed)
      case .own: lane.store(SubjectLane.closed, ordering: .relaxed)
      }
      guard state.finishDelivery(returning: more) else { return false }
      forgetDeliveringThread()
      storage.openLaneIfEligible(for: self)
      return true
    }
    if finished { return }
    continueDeliveryAfterEvents(after: more)
  }

  /// ``continueDelivery(after:)`` when something happened during the downstream call: a
  /// value or the completion was queued, the subscriber cancelled, or a current value is
  /// owed.
  @inlinable
  internal func continueDeliveryAfterEvents(after more: Subscribers.Demand) {
    var more = more
    while true {
      let step = storage.lock.withLock { nextStep(after: more) }
      switch step {
      case .deliver(let value):
        more = send(value)
      case .idle:
        return
      case .complete(let completion, let taken, let listed):
        complete(taken, with: completion)
        letGo(taken)
        _fixLifetime(listed as SubjectConduitRoot?)
        return
      case .release(let taken, let pending, let listed):
        letGo(taken)
        _fixLifetime((pending, listed))
        return
      }
    }
  }

  /// Under the lock: the owner's downstream call returned `more`.
  @inlinable
  internal func nextStep(after more: Subscribers.Demand) -> Step {
    let next = state.didDeliver(returning: more)
    if !state.isDelivering { forgetDeliveringThread() }
    switch next {
    case .deliver(let value):
      return .deliver(value)
    case .deliverCurrentValue:
      return .deliver(storage.state.currentValue.unsafelyUnwrapped)
    case .idle:
      storage.openLaneIfEligible(for: self)
      return .idle
    case .complete:
      // The subject recorded its completion before queueing it for any conduit.
      let completion = storage.state.completion
      return .complete(completion, takeDownstream(), storage.remove(self))
    case .cancelled:
      return .release(takeDownstream(), state.takePending(), storage.remove(self))
    }
  }

  /// Hands `completion` to the subscriber that `taken` took, if any (outside the lock).
  @inlinable
  @inline(__always)
  internal func complete(_ taken: TakenReferences, with completion: Subscribers.Completion<Failure>) {
    if taken.tookStored {
      complete(self, with: completion)
    } else if let subscriber = taken.subscriber {
      complete(subscriber, with: completion)
    }
  }

  /// Hands `completion` to the boxed subscriber `box` (outside the lock).
  @inlinable
  internal func complete(_ box: AnyObject, with completion: Subscribers.Completion<Failure>) {
    withUnsafePointer(to: completion) {
      receiveCompletion(box, downstreamTag, $0)
    }
  }

  /// Under the lock: takes the boxed subscriber and the subject out, to be released (or
  /// completed) outside it.
  ///
  /// A stored subscriber (``SubjectDownstreamForm/stored``) stays where it is, marked taken
  /// (`tookStored`): the taker reaches it through this conduit, which it keeps alive, and
  /// hands the references to ``letGo(_:)``, which destroys it in place.
  ///
  /// While the subscriber is still in `receive(subscription:)` only the subject is taken:
  /// the subscriber stays until the call returns, and ``finishSubscribing()`` takes it then.
  /// A relay handed over moved (``SubjectStorage/receive(relay:parent:)``) has no other
  /// owner, and the call runs on the conduit's own copy; a subscriber handed over borrowed
  /// is kept alive by its caller's copy until then anyway, so nobody can tell the two apart.
  @inlinable
  internal func takeDownstream() -> TakenReferences {
    let parent = self.parent.take()
    guard let box = downstream, !state.isSubscribing else { return (nil, parent, false) }
    downstream = nil
    if storesSubscriber { return (nil, parent, true) }
    return (Unmanaged<AnyObject>.fromOpaque(box).takeRetainedValue(), parent, false)
  }

  /// Lets go of what ``takeDownstream()`` took, outside the lock: the references are
  /// released, and a stored subscriber is destroyed in place. Every taker calls it.
  @inlinable
  @inline(__always)
  internal func letGo(_ taken: consuming TakenReferences) {
    let tookStored = taken.tookStored
    // Released first: held across the call below, they were retained and released again.
    _ = consume taken
    if tookStored {
      destroyStoredSubscriber()
    }
  }

  /// Delivers the subject's completion and releases the subscriber. The caller's
  /// `complete` transition returned `true`.
  @inlinable
  internal func deliverCompletion(_ completion: Subscribers.Completion<Failure>) {
    let taken = storage.lock.withLock { takeDownstream() }
    complete(taken, with: completion)
    letGo(taken)
  }

  /// The subscriber returned from `receive(subscription:)`: delivers a completion that
  /// arrived meanwhile, or takes the conduit off the subject's list after a cancel made
  /// meanwhile, if no other thread is about to.
  ///
  /// The caller holds no reference of its own: the list's keeps the conduit alive until
  /// here (see `SubjectStorage.remove(_:)`), and nothing here touches the conduit after the
  /// lock is released in the common case, when another thread may drop the last reference.
  @inlinable
  internal func finishSubscribing() {
    // The section written out with the lock: in the common case (nothing happened meanwhile)
    // it answers with a case of a plain enumeration, and the completion, the taken
    // references and the answer that holds them, generic types that code the compiler did
    // not specialise looks up, are formed only out of line.
    let hold = storage.lock.acquire()
    switch state.finishSubscribing() {
    case .serving:
      storage.lock.release(hold)
    case .complete:
      completeAfterSubscribing(releasing: hold)
    case .leave:
      leaveAfterSubscribing(releasing: hold)
    }
  }

  /// ``finishSubscribing()`` after a cancel made while the subscriber was in
  /// `receive(subscription:)`: called with the lock held (`hold`), takes the subscriber (kept
  /// until now, see ``takeDownstream()``) and the list's reference, releases the lock and
  /// lets them go.
  @inlinable
  @inline(never)
  internal func leaveAfterSubscribing(releasing hold: Lock.Hold) {
    let taken = takeDownstream()
    let listed = storage.remove(self)
    storage.lock.release(hold)
    letGo(taken)
    _fixLifetime(listed as SubjectConduitRoot?)
  }

  /// ``finishSubscribing()`` when a completion is pending: called with the lock held
  /// (`hold`), takes what completing needs, releases the lock and completes.
  @inlinable
  @inline(never)
  internal func completeAfterSubscribing(releasing hold: Lock.Hold) {
    // The subject recorded its completion before marking it pending here.
    let completion = storage.state.completion
    let taken = takeDownstream()
    let listed = storage.remove(self)
    storage.lock.release(hold)
    complete(taken, with: completion)
    letGo(taken)
    _fixLifetime(listed as SubjectConduitRoot?)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    specialized(self, demand)
  }

  @inlinable
  internal func cancel() {
    specialized(self, .none)
  }

  /// ``request(_:)`` in specialised code.
  @inlinable
  internal func requestSpecialized(_ demand: Subscribers.Demand) {
    #if !CONFLUENCE_LOCKED_FAST_PATHS
      // Set under the lock, never cleared: once it reads `true`, a request could change
      // nothing (the demand is unlimited for good), so it needs no lock. Reading `false` late
      // only takes the lock for nothing.
      if demandIsUnlimited.load(ordering: .relaxed) { return }
    #endif
    guard storage.keepsCurrentValue else {
      // Nothing is ever owed to a subscriber of a subject without a current value: the
      // demand is only recorded (all of it, for a subject that ignores its amount). The
      // first demand of all may release the subject's upstream demand.
      // The section written out with the lock (a closure of its own looked the conduit's
      // and its state's types up where the code runs unspecialised).
      let demand = storage.kind.ignoresDemandAmount ? .unlimited : demand
      let hold = storage.lock.acquire()
      state.addDemand(demand)
      let upstreams = storage.noteDownstreamDemand()
      if state.demand == .unlimited {
        // Not before every upstream was asked: a request that returns on the flag must
        // find them asked (see `SubjectStorage.upstreamsAsked`).
        if upstreams == nil && storage.upstreamsAllAsked { demandIsUnlimited.store(true, ordering: .relaxed) }
        storage.openLaneIfEligible(for: self)
      }
      storage.lock.release(hold)
      if let upstreams {
        for upstream in upstreams.subscriptions {
          upstream.request(.unlimited)
        }
        storage.didAskUpstreams(through: upstreams.through)
      }
      return
    }
    requestOwingCurrentValue(demand)
  }

  /// ``requestSpecialized(_:)`` for a subject with a current value, which may be owed to the
  /// subscriber. Out of line: its optional value's type would otherwise be looked up on
  /// every request to a `PassthroughSubject` in code the compiler did not specialise.
  @inlinable
  @inline(never)
  internal func requestOwingCurrentValue(_ demand: Subscribers.Demand) {
    var current: Output?
    let owns = storage.lock.withLock { () -> Bool in
      defer {
        if state.demand == .unlimited { demandIsUnlimited.store(true, ordering: .relaxed) }
      }
      guard state.request(demand) else { return false }
      noteDeliveringThread()
      current = storage.state.currentValue
      return true
    }
    if owns, let current {
      deliver(current)
    }
  }

  /// ``cancel()`` in specialised code.
  @inlinable
  internal func cancelSpecialized() {
    // The section written out with the lock, and what it takes kept in three locals rather
    // than an optional tuple: the tuple's and the optional's types are generic, and code the
    // compiler did not specialise looks them up.
    let hold = storage.lock.acquire()
    storage.closeLane()
    storage.closeOwnLane(of: self)
    guard state.cancel() else {
      storage.lock.release(hold)
      return
    }
    guard !state.hasPendingValues else {
      cancelReleasingPending(releasing: hold)
      return
    }
    let taken = takeDownstream()
    let listed = storage.remove(self)
    storage.lock.release(hold)
    // The subscriber, and possibly this conduit itself, die here, unlocked. (The list's
    // reference kept as the non-generic root class: as `SubjectConduit?`, code the compiler
    // did not specialise looked that optional's type up to keep it alive.)
    letGo(taken)
    _fixLifetime(listed as SubjectConduitRoot?)
  }

  /// The rest of ``cancelSpecialized()`` when values wait in the queue: called with the lock
  /// held (`hold`), takes the subscriber, the queue and the list's reference, releases the
  /// lock and lets them go. Out of line: rare, and the queue's type is looked up where the
  /// code runs unspecialised.
  @inlinable
  @inline(never)
  internal func cancelReleasingPending(releasing hold: Lock.Hold) {
    let taken = takeDownstream()
    let pending = state.takePending()
    let listed = storage.remove(self)
    storage.lock.release(hold)
    // The subscriber, the queue, and possibly this conduit itself die here, unlocked.
    letGo(taken)
    _fixLifetime(pending)
    _fixLifetime(listed)
  }

  @usableFromInline
  internal var description: String { storage.kind.subscriptionDescription }

  /// As Apple's: `parent`, `downstream`, `demand` and `subject` (the subject again), or
  /// only `downstream` for an `ObservableObjectPublisher`. Subject and subscriber show
  /// `nil` once the subscription was cancelled or completed.
  @usableFromInline
  internal var customMirror: Mirror {
    var stored: Any?
    let (parent, box, demand) = storage.lock.withLock { () -> (AnyObject?, AnyObject?, Subscribers.Demand) in
      // A stored subscriber is copied under the lock: outside it, a thread that takes it
      // may destroy it.
      // A cancelled subscriber still in `receive(subscription:)` is kept until the call
      // returns (see `takeDownstream()`), but shows as gone, as it does after the call.
      let downstream = state.isTerminal ? nil : self.downstream
      if storesSubscriber, downstream != nil {
        withUnsafeMutablePointer(to: &stored) { receiveCompletion(self, SubjectStoredAccess.reflect, $0) }
      }
      return (
        self.parent, downstream.map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() }, state.demand
      )
    }
    // A stored subscriber, a boxed or inline one rebuilt, or a class held as itself.
    let subscriber: Any? =
      stored ?? (box as? SubjectDownstreamReflecting)?.reflectedSubscriber(tag: downstreamTag) ?? box
    if storage.kind == .observableObjectPublisher {
      return Mirror(self, children: ["downstream": subscriber as Any])
    }
    return Mirror(
      self,
      children: ["parent": parent as Any, "downstream": subscriber as Any, "demand": demand, "subject": parent as Any])
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
