/// A publisher that performs type erasure by wrapping another publisher.
///
/// `AnyPublisher` is a concrete implementation of ``Publisher`` that has no significant
/// properties of its own, and passes through elements and completion values from its
/// upstream publisher.
///
/// Use `AnyPublisher` to wrap a publisher whose type has details you don’t want to expose
/// across API boundaries, such as different modules. Wrapping a ``Subject`` with
/// `AnyPublisher` also prevents callers from accessing its ``Subject/send(_:)`` method.
/// When you use type erasure this way, you can change the underlying publisher
/// implementation over time without affecting existing clients.
///
/// You can use Combine’s ``Publisher/eraseToAnyPublisher()`` operator to wrap a publisher
/// with `AnyPublisher`:
///
/// ```swift
/// func evenNumbers() -> AnyPublisher<Int, Never> {
///   (1...10).publisher.filter { $0.isMultiple(of: 2) }.eraseToAnyPublisher()
/// }
/// ```
///
/// Its `description` is `AnyPublisher`. A ``Subscribers/Sink``, and any subscriber of a
/// wrapped subject (``PassthroughSubject``, ``CurrentValueSubject``, a `@Published`
/// property's publisher, ``ObservableObjectPublisher``), attaches to the wrapped publisher
/// as itself, as with Apple's `AnyPublisher`; other subscribers through an
/// ``AnySubscriber`` (which keeps their `combineIdentifier`, description and mirror). Either
/// way the subscriptions they receive are the wrapped publisher's.
///
/// Back-pressure: none of its own; demand goes straight to the wrapped publisher.
@frozen
@_eagerMove
public struct AnyPublisher<Output, Failure: Error>: CustomStringConvertible, CustomPlaygroundDisplayConvertible {
  /// A ``PassthroughSubject`` or ``CurrentValueSubject`` of this output and failure, as
  /// itself; anything else in an ``AnyPublisherBox``.
  ///
  /// A subject needs no box: its subscribers attach to its storage, which is generic over
  /// the output and failure only (see ``SubjectBacking``), so the subject object is all an
  /// `AnyPublisher` has to keep. Erasing one then costs no allocation, and subscribing
  /// through it one reference fewer to take and let go. Which of the three it is, is read
  /// from the object's class (``attachToSubject(_:)``).
  @usableFromInline
  internal let box: AnyObject

  /// Creates a type-erasing publisher to wrap the provided publisher.
  ///
  /// Wrapping an `AnyPublisher` returns it unchanged rather than wrapping it twice.
  ///
  /// ```swift
  /// let erased = AnyPublisher(Just(1))
  /// ```
  ///
  /// - Parameter publisher: A publisher to wrap with a type-eraser.
  @inlinable
  public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
    // Not specialised for `P` (`_canBeClass` answers 2 only there): one conformance check
    // instead of the three casts below (see `AnyPublisherBoxSource`).
    if _canBeClass(P.self) > 1 {
      // A structure other than `AnyPublisher` (`map`'s, `combineLatest`'s, …) is none of
      // the sources: told from its metadata, without a search of the runtime's conformance
      // cache for each erasure.
      if TypeMetadata.isStruct(P.self, otherThanInstancesOf: AnyPublisher<Int, Never>.self) {
        box = PublisherBox(publisher)
        return
      }
      if let source = publisher as? any AnyPublisherBoxSource {
        box = source.anyPublisherBox
      } else {
        box = PublisherBox(publisher)
      }
      return
    }
    if let erased = publisher as? AnyPublisher<Output, Failure> {
      self = erased
    } else if let subject = publisher as? PassthroughSubject<Output, Failure> {
      box = subject
    } else if let subject = publisher as? CurrentValueSubject<Output, Failure> {
      box = subject
    } else {
      box = PublisherBox(publisher)
    }
  }

  /// `AnyPublisher`
  public var description: String { "AnyPublisher" }

  /// The same as ``description``.
  public var playgroundDescription: Any { description }
}

extension AnyPublisher: Publisher {
  /// Attaches `subscriber` to the wrapped publisher.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    // The subscriber crosses the boundary erased. This function is specialised where it is
    // called (the subscriber's type is known there), so wrapping it costs one box; the box's
    // `receive(erased:)` is not generic, so it was specialised where the wrapped publisher's
    // type was known — when the `AnyPublisher` was made. Handing the subscriber on as a
    // generic argument instead would run the wrapped publisher's `receive(subscriber:)`, and
    // every operator's below it, as unspecialised generic code, instantiating their
    // subscription types' metadata at run time, on every subscribe.
    //
    // A `Subscribers.Sink` (what `sink` attaches, by far the most common subscriber) needs no
    // box: the box has a second function, also specialised where the `AnyPublisher` was
    // made, that hands a sink of this output and failure to the wrapped publisher as it is.
    // The wrapped publisher then sees the subscriber's own type, as with Apple's
    // `AnyPublisher`, and its subscription's code is specialised for the sink. Where `S` is
    // known (any specialised caller) the check below costs nothing.
    //
    // A wrapped subject (`PassthroughSubject`, `CurrentValueSubject`, `@Published`'s
    // publisher, `ObservableObjectPublisher`) needs no box either: its storage is generic
    // over the output and failure only, which are known here, so the subscriber attaches to
    // it as itself, in code specialised for the subscriber. The first two are held
    // unboxed (see ``box``); the other two through their box's ``AnyPublisherBox/subject``.
    //
    // A side of `zip` or `combineLatest` (a `FanInSubscriber`, generic over this output and
    // failure only) needs no box either: the box's ``AnyPublisherBox/receiveFanIn``, also
    // specialised where the `AnyPublisher` was made, hands it on as it is.
    if attachToSubject(subscriber) { return }
    attachToWrapper(subscriber)
  }

  /// ``receive(subscriber:)`` once ``box`` is known not to be a ``PassthroughSubject`` or a
  /// ``CurrentValueSubject``.
  @inlinable
  @inline(__always)
  internal func attachToWrapper<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
    // The sizes first: where this runs unspecialised, each cast looks the type it casts to
    // up and asks the runtime to cast (the side's is told from its metadata instead).
    if MemoryLayout<S>.size == MemoryLayout<AnyObject>.size, let sink = subscriber as? Subscribers.Sink<Output, Failure>
    {
      wrapper.receive(sink: sink)
    } else if let subject = wrapper.subject {
      subject.storage.receive(subscriber: subscriber, parent: subject.parent)
    } else if MemoryLayout<S>.size == MemoryLayout<AnyObject>.size + 1, Self.isFanInSide(S.self) {
      let side = unsafeBitCast(subscriber, to: FanInSubscriber<Output, Failure>.self)
      wrapper.receiveFanIn(wrapper, side.parent, side.side)
    } else {
      wrapper.receive(erased: AnySubscriber(subscriber))
    }
  }

  /// Whether `S` is a side of `zip` or `combineLatest` (``FanInSubscriber``): a comparison of
  /// types where specialised, which folds; otherwise of the generic structs the types are
  /// instances of (``TypeMetadata``). A `FanInSubscriber` whose input and failure are this
  /// publisher's output and failure is a `FanInSubscriber<Output, Failure>`.
  @inlinable
  @inline(__always)
  internal static func isFanInSide<S: Subscriber>(_: S.Type) -> Bool {
    if _isConcrete(S.self) { return S.self == FanInSubscriber<Output, Failure>.self }
    return TypeMetadata.isInstance(S.self, ofStructOf: FanInSubscriber<Int, Never>.self)
  }

  /// Attaches `subscriber` to ``box`` if it is a subject (a ``PassthroughSubject`` or
  /// ``CurrentValueSubject``), in code specialised for it; returns whether it was one.
  ///
  /// Which one is read from the object's class: two comparisons with a type's metadata,
  /// which code specialised for `Output` and `Failure` reads from a cache, and no dynamic
  /// cast. The subject is reached borrowed from `box` (its storage and the object itself
  /// are not retained for the call).
  @inlinable
  @inline(__always)
  internal func attachToSubject<S: Subscriber>(_ subscriber: S) -> Bool
  where S.Input == Output, S.Failure == Failure {
    switch subjectKind {
    case .passthrough:
      _unsafeReferenceCast(box, to: PassthroughSubject<Output, Failure>.self).receive(subscriber: subscriber)
      return true
    case .currentValue:
      _unsafeReferenceCast(box, to: CurrentValueSubject<Output, Failure>.self).receive(subscriber: subscriber)
      return true
    case .none:
      return false
    }
  }

  /// Which subject ``box`` is, if it is one (``attachToSubject(_:)``).
  @usableFromInline
  internal enum SubjectKind {
    case passthrough
    case currentValue
    case none
  }

  /// Whether ``box`` is a ``PassthroughSubject``, a ``CurrentValueSubject`` or neither.
  @inlinable
  @inline(__always)
  internal var subjectKind: SubjectKind {
    // Where this runs unspecialised, each comparison below looks a subject's metadata up in
    // the runtime's cache. A box is told apart first, by a cast to its non-generic root,
    // which walks the object's superclasses and looks nothing up.
    if _canBeClass(Output.self) > 1 && box is AnyPublisherBoxRoot { return .none }
    let type = ObjectIdentifier(Swift.type(of: box))
    if type == ObjectIdentifier(PassthroughSubject<Output, Failure>.self) { return .passthrough }
    if type == ObjectIdentifier(CurrentValueSubject<Output, Failure>.self) { return .currentValue }
    return .none
  }

  /// Attaches `relay`, a subscriber an operator has just made and keeps no copy of: a
  /// wrapped ``PassthroughSubject`` or ``CurrentValueSubject`` moves it into the
  /// subscription (see `Publisher._receiveRelay(_:)`); anything else is attached as by
  /// ``receive(subscriber:)``.
  ///
  /// - Parameter relay: The operator's subscriber.
  @inlinable
  public func _receiveRelay<S: Subscriber>(_ relay: consuming S) where S.Input == Output, S.Failure == Failure {
    switch subjectKind {
    case .passthrough:
      _unsafeReferenceCast(box, to: PassthroughSubject<Output, Failure>.self)._receiveRelay(relay)
    case .currentValue:
      _unsafeReferenceCast(box, to: CurrentValueSubject<Output, Failure>.self)._receiveRelay(relay)
    case .none:
      attachToWrapper(relay)
    }
  }

  /// ``box`` as the box it is when it is not a subject.
  @inlinable
  internal var wrapper: AnyPublisherBox<Output, Failure> {
    _unsafeReferenceCast(box, to: AnyPublisherBox<Output, Failure>.self)
  }

  /// Hands a sink that `sink(receiveCompletion:receiveValue:)` has just made to the wrapped
  /// publisher's own fast path for it (see `Publisher._subscribeNewSink(_:)`), unless an
  /// `_Introspection` is enabled, which must see the subscribe.
  ///
  /// - Parameter sink: A sink made by `sink(receiveCompletion:receiveValue:)`.
  @inlinable
  public func _subscribeNewSink(_ sink: Subscribers.Sink<Output, Failure>) {
    if _slowPath(DebugHook.isActive) {
      subscribe(sink)
    } else if !attachToSubject(sink) {
      wrapper.receive(newSink: sink)
    }
  }
}

extension Publisher {
  /// Wraps this publisher with a type eraser.
  ///
  /// Use `eraseToAnyPublisher()` to expose an instance of ``AnyPublisher`` to the
  /// downstream subscriber, rather than this publisher’s actual type. This form of type
  /// erasure preserves abstraction across API boundaries, such as different modules.
  ///
  /// ```swift
  /// public class TypeWithSubject {
  ///   public let publisher: some Publisher = PassthroughSubject<Int, Never>()
  /// }
  /// public class TypeWithErasedSubject {
  ///   public let publisher: some Publisher = PassthroughSubject<Int, Never>()
  ///     .eraseToAnyPublisher()
  /// }
  /// // Clients of TypeWithErasedSubject cannot call send(_:) on its publisher.
  /// ```
  ///
  /// Back-pressure: none of its own; demand goes straight to this publisher.
  ///
  /// - Returns: An ``AnyPublisher`` wrapping this publisher.
  @inlinable
  public consuming func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
    AnyPublisher(self)
  }
}

extension AnyPublisher {
  /// Returns this publisher unchanged: it is already type-erased.
  ///
  /// ```swift
  /// let erased = Just(1).eraseToAnyPublisher()
  /// let same = erased.eraseToAnyPublisher()   // no second wrapper
  /// ```
  ///
  /// - Returns: `self`.
  @inlinable
  public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
    self
  }
}

/// The root of ``AnyPublisherBox``, generic over nothing: what the box's functions call
/// where ``PublisherBox``'s initialiser runs unspecialised (a debug build's app code erasing
/// a publisher). Formed there, a function that names the box's types would capture their
/// metadata, one allocation per function and three per box; these functions name none, and
/// reach the wrapped publisher through the methods below, which ``PublisherBox`` overrides.
@usableFromInline
internal class AnyPublisherBoxRoot {
  @inlinable
  internal init() {}

  /// Attaches the `AnySubscriber` the pointer points to (overridden by ``PublisherBox``).
  @usableFromInline
  internal func receiveOverridden(erased subscriber: UnsafeRawPointer) {
    confluencePreconditionFailure("PublisherBox overrides receiveOverridden(erased:)")
  }

  /// Attaches a `Subscribers.Sink` (overridden by ``PublisherBox``).
  @usableFromInline
  internal func receiveOverridden(sink: AnyObject) {
    confluencePreconditionFailure("PublisherBox overrides receiveOverridden(sink:)")
  }

  /// Hands a sink just made to `_subscribeNewSink(_:)` (overridden by ``PublisherBox``).
  @usableFromInline
  internal func receiveOverridden(newSink sink: AnyObject) {
    confluencePreconditionFailure("PublisherBox overrides receiveOverridden(newSink:)")
  }

  @usableFromInline
  internal func receiveOverridden(fanIn entry: FanInJustEntry, side: FanInSide) {
    confluencePreconditionFailure("PublisherBox overrides receiveOverridden(fanIn:side:)")
  }
}

/// The box behind ``AnyPublisher``.
///
/// It hands a subscriber to the wrapped publisher through ``receiveErased`` (or a
/// `Subscribers.Sink` through ``receiveSink``), a function formed in ``PublisherBox``'s
/// initialiser, which runs where the wrapped publisher's type is known and so is
/// specialised for it. (An overridden method would not do: a generic class's methods
/// reached through its vtable run unspecialised, looking generic metadata up at run time for
/// every operator's subscription type.) The function captures nothing
/// and its type mentions no generic parameter — the box and the `AnySubscriber` go in as
/// raw references — so storing it costs no allocation and calling it needs no
/// reabstraction thunk. Where the box's initialiser runs unspecialised, the functions call
/// the methods ``AnyPublisherBoxRoot`` declares and the box overrides instead (see there
/// why).
@usableFromInline
internal class AnyPublisherBox<Output, Failure: Error>: AnyPublisherBoxRoot {
  /// Calls the wrapped publisher's `receive(subscriber:)` with the box (first argument, a
  /// `PublisherBox`) and the subscriber the pointer points to (an
  /// `AnySubscriber<Output, Failure>`, borrowed).
  @usableFromInline
  internal typealias ReceiveErased = (AnyObject, UnsafeRawPointer) -> Void

  /// Calls the wrapped publisher's `receive(subscriber:)` (``receiveSink``) or its
  /// `_subscribeNewSink(_:)` (``receiveNewSink``) with the box (first argument, a
  /// `PublisherBox`) and a `Subscribers.Sink<Output, Failure>` (second argument).
  @usableFromInline
  internal typealias ReceiveSink = (AnyObject, AnyObject) -> Void

  /// Calls the wrapped publisher's `receive(subscriber:)` with the box (first argument, a
  /// `PublisherBox`) and a `FanInSubscriber<Output, Failure>` made of the fan-in and side
  /// given.
  @usableFromInline
  internal typealias ReceiveFanIn = (AnyObject, FanInJustEntry, FanInSide) -> Void

  @usableFromInline
  internal let receiveErased: ReceiveErased

  @usableFromInline
  internal let receiveSink: ReceiveSink

  /// For a sink that `sink(receiveCompletion:receiveValue:)` has just made. Apart from
  /// ``receiveSink`` so that each is its own function: one function holding both would
  /// inline the wrapped publisher's subscribe twice, which for a long pipeline is more
  /// than the compiler can take.
  @usableFromInline
  internal let receiveNewSink: ReceiveSink

  /// For a side of `zip` or `combineLatest` (see `AnyPublisher.receive(subscriber:)`). Apart
  /// from ``receiveErased`` for the reason given at ``receiveNewSink``.
  @usableFromInline
  internal let receiveFanIn: ReceiveFanIn

  /// The wrapped publisher's subject storage and public object, when it is one of the
  /// subjects (see ``SubjectBacking``): subscribers attach to it directly.
  @usableFromInline
  internal let subject: SubjectBacking<Output, Failure>?

  @inlinable
  internal init(
    receiveErased: @escaping ReceiveErased, receiveSink: @escaping ReceiveSink,
    receiveNewSink: @escaping ReceiveSink, receiveFanIn: @escaping ReceiveFanIn,
    subject: SubjectBacking<Output, Failure>?
  ) {
    self.receiveErased = receiveErased
    self.receiveSink = receiveSink
    self.receiveNewSink = receiveNewSink
    self.receiveFanIn = receiveFanIn
    self.subject = subject
    super.init()
  }

  /// Attaches `subscriber` to the wrapped publisher.
  @inlinable
  internal final func receive(erased subscriber: AnySubscriber<Output, Failure>) {
    withUnsafePointer(to: subscriber) { receiveErased(self, $0) }
  }

  /// Attaches `sink` to the wrapped publisher, unwrapped.
  @inlinable
  internal final func receive(sink: Subscribers.Sink<Output, Failure>) {
    receiveSink(self, sink)
  }

  /// Hands `sink`, which `sink(receiveCompletion:receiveValue:)` has just made and shared
  /// with no one, to the wrapped publisher's `_subscribeNewSink(_:)`.
  @inlinable
  internal final func receive(newSink sink: Subscribers.Sink<Output, Failure>) {
    receiveNewSink(self, sink)
  }
}

/// Holds the wrapped publisher of an ``AnyPublisher``.
@usableFromInline
internal final class PublisherBox<Base: Publisher>: AnyPublisherBox<Base.Output, Base.Failure> {
  @usableFromInline
  internal let base: Base

  @inlinable
  internal init(_ base: Base) {
    self.base = base
    if _canBeClass(Base.self) > 1 {
      // Unspecialised: functions that capture nothing (see `AnyPublisherBoxRoot`).
      super.init(
        receiveErased: { box, subscriber in
          unsafeDowncast(box, to: AnyPublisherBoxRoot.self).receiveOverridden(erased: subscriber)
        },
        receiveSink: { box, sink in unsafeDowncast(box, to: AnyPublisherBoxRoot.self).receiveOverridden(sink: sink) },
        receiveNewSink: { box, sink in
          unsafeDowncast(box, to: AnyPublisherBoxRoot.self).receiveOverridden(newSink: sink)
        },
        receiveFanIn: { box, entry, side in
          unsafeDowncast(box, to: AnyPublisherBoxRoot.self).receiveOverridden(fanIn: entry, side: side)
        },
        subject: SubjectBacking(base))
    } else {
      super.init(
        receiveErased: { box, subscriber in
          unsafeDowncast(box, to: PublisherBox<Base>.self).base.receive(
            subscriber: subscriber.assumingMemoryBound(to: AnySubscriber<Base.Output, Base.Failure>.self).pointee)
        },
        receiveSink: { box, sink in
          unsafeDowncast(box, to: PublisherBox<Base>.self).base.receive(
            subscriber: unsafeDowncast(sink, to: Subscribers.Sink<Base.Output, Base.Failure>.self))
        },
        receiveNewSink: { box, sink in
          unsafeDowncast(box, to: PublisherBox<Base>.self).base._subscribeNewSink(
            unsafeDowncast(sink, to: Subscribers.Sink<Base.Output, Base.Failure>.self))
        },
        receiveFanIn: { box, entry, side in
          unsafeDowncast(box, to: PublisherBox<Base>.self).base.receive(
            subscriber: FanInSubscriber<Base.Output, Base.Failure>(parent: entry, side: side))
        },
        subject: SubjectBacking(base))
    }
  }

  @inlinable
  internal override func receiveOverridden(erased subscriber: UnsafeRawPointer) {
    base.receive(subscriber: subscriber.assumingMemoryBound(to: AnySubscriber<Base.Output, Base.Failure>.self).pointee)
  }

  @inlinable
  internal override func receiveOverridden(sink: AnyObject) {
    base.receive(subscriber: unsafeDowncast(sink, to: Subscribers.Sink<Base.Output, Base.Failure>.self))
  }

  @inlinable
  internal override func receiveOverridden(newSink sink: AnyObject) {
    base._subscribeNewSink(unsafeDowncast(sink, to: Subscribers.Sink<Base.Output, Base.Failure>.self))
  }

  @inlinable
  internal override func receiveOverridden(fanIn entry: FanInJustEntry, side: FanInSide) {
    base.receive(subscriber: FanInSubscriber<Base.Output, Base.Failure>(parent: entry, side: side))
  }
}
