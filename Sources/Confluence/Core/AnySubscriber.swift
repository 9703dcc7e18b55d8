/// A type-erasing subscriber.
///
/// Use an `AnySubscriber` to wrap an existing subscriber whose details you don’t want to
/// expose. You can also use `AnySubscriber` to create a custom subscriber by providing
/// closures for the methods defined in ``Subscriber``, rather than implementing
/// ``Subscriber`` directly:
///
/// ```swift
/// let subscriber = AnySubscriber<Int, Never>(
///   receiveSubscription: { $0.request(.max(2)) },
///   receiveValue: { print($0); return .none },
///   receiveCompletion: { print($0) })
/// [1, 2, 3].publisher.subscribe(subscriber)   // prints 1, 2
/// ```
///
/// What `print` and mirrors show, as Apple's: a wrapped subscriber's own `description` (or
/// its type name, if it has none) and mirror; `Subject` and the mirror of the connection
/// for a wrapped subject; `Anonymous AnySubscriber` (mirrored as that string) for one made
/// from closures. ``combineIdentifier`` is the wrapped subscriber's, the subject
/// connection's, or a fresh identifier for one made from closures.
///
/// Back-pressure: none of its own; it returns whatever demand the wrapped subscriber or
/// closure returns (`.none` when wrapping a subject or when there is no `receiveValue`).
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  internal let box: AnySubscriberBox<Input, Failure>

  /// A unique identifier for publisher streams: the wrapped subscriber's.
  public let combineIdentifier: CombineIdentifier

  /// Creates a type-erasing subscriber to wrap an existing subscriber.
  ///
  /// Wrapping an `AnySubscriber` returns it unchanged rather than wrapping it twice.
  ///
  /// ```swift
  /// let erased = AnySubscriber(Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in }))
  /// ```
  ///
  /// - Parameter s: The subscriber to type-erase.
  @inlinable
  public init<S: Subscriber>(_ s: S) where S.Input == Input, S.Failure == Failure {
    if let erased = s as? AnySubscriber<Input, Failure> {
      self = erased
    } else {
      box = SubscriberBox(s)
      combineIdentifier = s.combineIdentifier
    }
  }

  /// Creates a type-erasing subscriber to wrap an existing subject.
  ///
  /// It connects as `publisher.subscribe(subject)` does: the first
  /// subscription it receives is accepted (later ones are cancelled) and the subject gets
  /// the connection itself through ``Subject/send(subscription:)``, so that the subject's
  /// requests and cancel go upstream; each value reaches ``Subject/send(_:)`` and the first
  /// completion ``Subject/send(completion:)``. The subject is referred to weakly.
  ///
  /// ```swift
  /// let relay = PassthroughSubject<Int, Never>()
  /// upstream.subscribe(AnySubscriber(relay))
  /// ```
  ///
  /// - Parameter s: The subject to type-erase.
  public init<S: Subject>(_ s: S) where S.Output == Input, S.Failure == Failure {
    let connection = SubjectSubscriber(subject: s)
    box = SubscriberBox(connection)
    combineIdentifier = connection.combineIdentifier
  }

  /// Creates a type-erasing subscriber that executes the provided closures.
  ///
  /// A missing `receiveSubscription` requests nothing; a missing `receiveValue` asks for
  /// no more values (`.none`); a missing `receiveCompletion` ignores the completion.
  ///
  /// ```swift
  /// let subscriber = AnySubscriber<String, Never>(
  ///   receiveSubscription: { $0.request(.unlimited) },
  ///   receiveValue: { print($0); return .none })
  /// ```
  ///
  /// - Parameters:
  ///   - receiveSubscription: A closure to execute when the subscriber receives the
  ///     initial subscription from the publisher.
  ///   - receiveValue: A closure to execute when the subscriber receives a value from the
  ///     publisher.
  ///   - receiveCompletion: A closure to execute when the subscriber receives a completion
  ///     callback from the publisher.
  public init(
    receiveSubscription: ((Subscription) -> Void)? = nil,
    receiveValue: ((Input) -> Subscribers.Demand)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
  ) {
    box = ClosureSubscriberBox(
      receiveSubscription: receiveSubscription, receiveValue: receiveValue, receiveCompletion: receiveCompletion)
    combineIdentifier = CombineIdentifier()
  }

  /// Tells the subscriber that it has successfully subscribed to the publisher and may
  /// request items.
  ///
  /// - Parameter subscription: A subscription that represents the connection between
  ///   publisher and subscriber.
  @inlinable
  public func receive(subscription: Subscription) {
    box.receive(subscription: subscription)
  }

  /// Tells the subscriber that the publisher has produced an element.
  ///
  /// - Parameter value: The published element.
  /// - Returns: The demand the wrapped subscriber returned.
  @inlinable
  public func receive(_ value: Input) -> Subscribers.Demand {
    box.receive(value)
  }

  /// Tells the subscriber that the publisher has completed publishing, either normally or
  /// with an error.
  ///
  /// - Parameter completion: A ``Subscribers/Completion`` case indicating whether
  ///   publishing completed normally or with an error.
  @inlinable
  public func receive(completion: Subscribers.Completion<Failure>) {
    box.receive(completion: completion)
  }

  /// The wrapped subscriber's description, or `Anonymous AnySubscriber`.
  public var description: String { box.description }

  /// The wrapped subscriber's mirror, or one with no children.
  public var customMirror: Mirror { box.customMirror }

  /// The wrapped subscriber's playground description, or ``description``.
  public var playgroundDescription: Any { box.playgroundDescription }
}

/// The root of ``AnySubscriberBox``, generic over nothing, so that the functions the box
/// calls take it as this class and their types name no generic parameter.
///
/// That lets a box's initialiser, where it runs unspecialised (a debug build's app code
/// erasing a subscriber), hand over functions for the subscription and the completion that
/// capture nothing and call the methods below, which the boxes override: formed in
/// unspecialised code, a function that names the box's types captures their metadata, an
/// allocation per function (two of the three are spared; the value function, called per
/// value, keeps the cheaper call). The same methods, the value one too, serve an
/// unoptimised build, where `unsafeDowncast` checks its cast and so would look the box's
/// metadata up in the runtime's cache on every event: a method of the box's class finds it
/// in the object.
@usableFromInline
internal class AnySubscriberBoxRoot {
  @inlinable
  internal init() {}

  /// The subscription (overridden by each box).
  @usableFromInline
  internal func receiveSubscriptionOverridden(_ subscription: Subscription) {
    confluencePreconditionFailure("each subscriber box overrides receiveSubscriptionOverridden(_:)")
  }

  #if CONFLUENCE_UNOPTIMISED
    /// A value, which the pointer points to (an `Input`), in an unoptimised build
    /// (overridden by each box; elsewhere the value handler casts).
    @usableFromInline
    internal func receiveValueOverridden(_ value: UnsafeRawPointer) -> Subscribers.Demand {
      confluencePreconditionFailure("each subscriber box overrides receiveValueOverridden(_:)")
    }
  #endif

  /// The completion, which the pointer points to (overridden by each box).
  @usableFromInline
  internal func receiveCompletionOverridden(_ completion: UnsafeRawPointer) {
    confluencePreconditionFailure("each subscriber box overrides receiveCompletionOverridden(_:)")
  }
}

/// The box behind ``AnySubscriber``: one indirect call per event.
@usableFromInline
internal class AnySubscriberBox<Input, Failure: Error>: AnySubscriberBoxRoot {
  // The three events reach the wrapped subscriber through functions formed in the
  // subclasses' initialisers, which run where the subscriber's type is known, so they run
  // specialised code. (Overridden methods reached through a generic class's vtable would
  // run unspecialised: generic metadata looked up at run time, on every value.) The
  // functions capture nothing and take the box as ``AnySubscriberBoxRoot`` and the event as
  // a raw pointer, so storing them costs no allocation and calling them needs no
  // reabstraction thunk. Where a box's initialiser runs unspecialised, and in an
  // unoptimised build, the functions call the methods ``AnySubscriberBoxRoot`` declares and
  // the box overrides instead (see there why).

  /// Hands the subscription to the subscriber held by the box (first argument).
  @usableFromInline
  internal typealias SubscriptionHandler = (AnySubscriberBoxRoot, any Subscription) -> Void

  /// Hands the value the pointer points to (an `Input`, borrowed) to the box's subscriber.
  @usableFromInline
  internal typealias ValueHandler = (AnySubscriberBoxRoot, UnsafeRawPointer) -> Subscribers.Demand

  /// Hands the completion the pointer points to (a `Subscribers.Completion<Failure>`,
  /// borrowed) to the box's subscriber.
  @usableFromInline
  internal typealias CompletionHandler = (AnySubscriberBoxRoot, UnsafeRawPointer) -> Void

  @usableFromInline internal let subscriptionHandler: SubscriptionHandler
  @usableFromInline internal let valueHandler: ValueHandler
  @usableFromInline internal let completionHandler: CompletionHandler

  @inlinable
  internal init(
    subscription: @escaping SubscriptionHandler, value: @escaping ValueHandler,
    completion: @escaping CompletionHandler
  ) {
    subscriptionHandler = subscription
    valueHandler = value
    completionHandler = completion
    super.init()
  }

  @inlinable
  internal final func receive(subscription: Subscription) {
    subscriptionHandler(self, subscription)
  }

  @inlinable
  internal final func receive(_ value: Input) -> Subscribers.Demand {
    withReadPointer(to: value) { valueHandler(self, $0) }
  }

  @inlinable
  internal final func receive(completion: Subscribers.Completion<Failure>) {
    withUnsafePointer(to: completion) { completionHandler(self, $0) }
  }

  @usableFromInline
  internal var description: String { "AnySubscriber" }

  /// Whether the wrapped subscriber is a stand-in that already reports to debugging tools.
  internal var wrapsIntrospectionWatcher: Bool { false }

  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}

/// Holds a subscriber of one concrete type behind ``AnySubscriber``.
@usableFromInline
internal final class SubscriberBox<Base: Subscriber>: AnySubscriberBox<Base.Input, Base.Failure> {
  @usableFromInline
  internal let base: Base

  @inlinable
  internal init(_ base: Base) {
    self.base = base
    // The handlers cast the box to this class and run the subscriber's code, specialised
    // where its type is known. Where this initialiser runs unspecialised, the handlers of the
    // subscription and the completion capture nothing and call the methods this class
    // overrides instead, and in an unoptimised build all three do (see
    // ``AnySubscriberBoxRoot``). The value handler still captures where unspecialised:
    // through an override, a value costs more.
    let unspecialised = BuildConfiguration.isUnoptimised || _canBeClass(Base.self) > 1
    #if CONFLUENCE_UNOPTIMISED
      let value: ValueHandler = { box, value in box.receiveValueOverridden(value) }
    #else
      let value: ValueHandler = { box, value in
        unsafeDowncast(box, to: SubscriberBox<Base>.self).base.receive(
          value.assumingMemoryBound(to: Base.Input.self).pointee)
      }
    #endif
    if unspecialised {
      super.init(
        subscription: { box, subscription in box.receiveSubscriptionOverridden(subscription) },
        value: value,
        completion: { box, completion in box.receiveCompletionOverridden(completion) })
    } else {
      super.init(
        subscription: { box, subscription in
          unsafeDowncast(box, to: SubscriberBox<Base>.self).base.receive(subscription: subscription)
        },
        value: value,
        completion: { box, completion in
          unsafeDowncast(box, to: SubscriberBox<Base>.self).base.receive(
            completion: completion.assumingMemoryBound(to: Subscribers.Completion<Base.Failure>.self).pointee)
        })
    }
  }

  @inlinable
  internal override func receiveSubscriptionOverridden(_ subscription: Subscription) {
    base.receive(subscription: subscription)
  }

  #if CONFLUENCE_UNOPTIMISED
    @inlinable
    internal override func receiveValueOverridden(_ value: UnsafeRawPointer) -> Subscribers.Demand {
      base.receive(value.assumingMemoryBound(to: Base.Input.self).pointee)
    }
  #endif

  @inlinable
  internal override func receiveCompletionOverridden(_ completion: UnsafeRawPointer) {
    base.receive(completion: completion.assumingMemoryBound(to: Subscribers.Completion<Base.Failure>.self).pointee)
  }

  @usableFromInline
  internal override var description: String {
    (base as? CustomStringConvertible)?.description ?? String(describing: Base.self)
  }

  internal override var wrapsIntrospectionWatcher: Bool { base is IntrospectionWatching }

  @usableFromInline
  internal override var customMirror: Mirror {
    Mirror(reflecting: base)
  }

  @usableFromInline
  internal override var playgroundDescription: Any {
    (base as? CustomPlaygroundDisplayConvertible)?.playgroundDescription ?? description
  }
}

/// The subscriber behind ``AnySubscriber/init(receiveSubscription:receiveValue:receiveCompletion:)``.
@usableFromInline
internal final class ClosureSubscriberBox<Input, Failure: Error>: AnySubscriberBox<Input, Failure> {
  @usableFromInline internal let receiveSubscription: ((Subscription) -> Void)?
  @usableFromInline internal let receiveValue: ((Input) -> Subscribers.Demand)?
  @usableFromInline internal let receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?

  @usableFromInline
  internal init(
    receiveSubscription: ((Subscription) -> Void)?,
    receiveValue: ((Input) -> Subscribers.Demand)?,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
  ) {
    self.receiveSubscription = receiveSubscription
    self.receiveValue = receiveValue
    self.receiveCompletion = receiveCompletion
    // As `SubscriberBox.init(_:)`: where this runs unspecialised, the handlers of the
    // subscription and the completion capture nothing.
    let unspecialised = BuildConfiguration.isUnoptimised || _canBeClass(Input.self) > 1
    #if CONFLUENCE_UNOPTIMISED
      let value: ValueHandler = { box, value in box.receiveValueOverridden(value) }
    #else
      let value: ValueHandler = { box, value in
        unsafeDowncast(box, to: ClosureSubscriberBox<Input, Failure>.self).receiveValue?(
          value.assumingMemoryBound(to: Input.self).pointee) ?? .none
      }
    #endif
    if unspecialised {
      super.init(
        subscription: { box, subscription in box.receiveSubscriptionOverridden(subscription) },
        value: value,
        completion: { box, completion in box.receiveCompletionOverridden(completion) })
    } else {
      super.init(
        subscription: { box, subscription in
          unsafeDowncast(box, to: ClosureSubscriberBox<Input, Failure>.self).receiveSubscription?(subscription)
        },
        value: value,
        completion: { box, completion in
          unsafeDowncast(box, to: ClosureSubscriberBox<Input, Failure>.self).receiveCompletion?(
            completion.assumingMemoryBound(to: Subscribers.Completion<Failure>.self).pointee)
        })
    }
  }

  @usableFromInline
  internal override func receiveSubscriptionOverridden(_ subscription: Subscription) {
    receiveSubscription?(subscription)
  }

  #if CONFLUENCE_UNOPTIMISED
    @usableFromInline
    internal override func receiveValueOverridden(_ value: UnsafeRawPointer) -> Subscribers.Demand {
      receiveValue?(value.assumingMemoryBound(to: Input.self).pointee) ?? .none
    }
  #endif

  @usableFromInline
  internal override func receiveCompletionOverridden(_ completion: UnsafeRawPointer) {
    receiveCompletion?(completion.assumingMemoryBound(to: Subscribers.Completion<Failure>.self).pointee)
  }

  @usableFromInline
  internal override var description: String { "Anonymous AnySubscriber" }

  /// Apple's: the mirror of the description string, with no children.
  @usableFromInline
  internal override var customMirror: Mirror { Mirror(reflecting: description) }
}

extension AnySubscriber: IntrospectionWatchingCarrier {
  internal var carriesIntrospectionWatcher: Bool { box.wrapsIntrospectionWatcher }
}
