extension Subscribers {
  /// A simple subscriber that assigns received elements to a property indicated by a key
  /// path.
  ///
  /// Usually you create one with ``Publisher/assign(to:on:)``, which wraps it in an
  /// ``AnyCancellable``:
  ///
  /// ```swift
  /// final class Label { var text = "" }
  /// let label = Label()
  /// let assign = Subscribers.Assign(object: label, keyPath: \Label.text)
  /// ["a", "b"].publisher.subscribe(assign)   // label.text == "b"
  /// ```
  ///
  /// Back-pressure: requests `.unlimited` as soon as it receives a subscription.
  ///
  /// As Apple's, it acts only while subscribed: a value or completion that arrives before
  /// the subscription, or after completion or cancel, is ignored, and a second
  /// subscription (or one after completion or cancel) is cancelled.
  ///
  /// The subscriber holds `object` strongly until the upstream completes or the
  /// subscriber is cancelled, then releases it. ``cancel()`` may be called from any
  /// thread; the assignment itself runs on whatever thread the upstream delivers on.
  public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
  {
    public typealias Failure = Never

    @usableFromInline
    internal let lock = Lock()

    /// Guarded by `lock`.
    @usableFromInline
    internal var target: Root?

    /// Guarded by `lock`.
    @usableFromInline
    internal var status = SubscriptionStatus.awaitingSubscription

    /// The object that contains the property to assign, until completion or cancel.
    public final var object: Root? {
      lock.withLock { target }
    }

    /// The key path that indicates the property to assign.
    public final let keyPath: ReferenceWritableKeyPath<Root, Input>

    /// Creates a subscriber to assign the value of a property indicated by a key path.
    ///
    /// - Parameters:
    ///   - object: The object that contains the property. The subscriber assigns the
    ///     object’s property every time it receives a new value.
    ///   - keyPath: A key path that indicates the property to assign.
    @inlinable
    public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
      target = object
      self.keyPath = keyPath
    }

    /// Stores the subscription and requests `.unlimited`; a second subscription, or one
    /// arriving after cancel, is cancelled.
    @inlinable
    public final func receive(subscription: Subscription) {
      if lock.withLock({ target != nil && status.accept(subscription) }) {
        subscription.request(.unlimited)
      } else {
        subscription.cancel()
      }
    }

    /// Assigns `value` to the property, while subscribed, and asks for nothing more (it
    /// already asked for everything).
    @inlinable
    public final func receive(_ value: Input) -> Subscribers.Demand {
      let object = lock.withLock { () -> Root? in
        guard case .subscribed = status else { return nil }
        return target
      }
      if let object {
        object[keyPath: keyPath] = value
      }
      return .none
    }

    /// Releases the subscription and the object; ignored unless subscribed.
    @inlinable
    public final func receive(completion: Subscribers.Completion<Never>) {
      let released = lock.withLock { () -> Root? in
        guard case .subscribed = status else { return nil }
        _ = status.terminate()
        defer { target = nil }
        return target
      }
      _fixLifetime(released)
    }

    /// Cancels the subscription, if any, and releases the object. Idempotent.
    @inlinable
    public final func cancel() {
      let (upstream, released) = lock.withLock { () -> (Subscription?, Root?) in
        defer { target = nil }
        return (status.terminate(), target)
      }
      upstream?.cancel()
      _fixLifetime(released)
    }

    /// `Assign`, the root type and a full stop, as Apple's (`Assign Label.`).
    public final var description: String { "Assign \(Root.self)." }

    /// A mirror with the object, the key path and the subscription status, as Apple's.
    public final var customMirror: Mirror {
      let (object, status) = lock.withLock { (target, self.status) }
      return Mirror(self, children: ["object": object as Any, "keyPath": keyPath, "status": status])
    }

    /// The same as ``description``.
    public final var playgroundDescription: Any { description }
  }
}

extension Publisher where Failure == Never {
  /// Assigns each element from a publisher to a property on an object.
  ///
  /// ```swift
  /// class MyClass {
  ///   var anInt: Int = 0 {
  ///     didSet { print("anInt was set to: \(anInt)", terminator: "; ") }
  ///   }
  /// }
  /// var myObject = MyClass()
  /// let myRange = (0...2)
  /// cancellable = myRange.publisher
  ///   .assign(to: \.anInt, on: myObject)
  /// // Prints: "anInt was set to: 0; anInt was set to: 1; anInt was set to: 2"
  /// ```
  ///
  /// The returned token holds `object` strongly until the publisher completes or the token
  /// is cancelled; assigning to a property of an object that owns the token therefore
  /// makes a reference cycle until then.
  ///
  /// Back-pressure: requests an unlimited number of values.
  ///
  /// - Parameters:
  ///   - keyPath: A key path that indicates the property to assign.
  ///   - object: The object that contains the property. The subscriber assigns the
  ///     object’s property every time it receives a new value.
  /// - Returns: An ``AnyCancellable`` instance. Call ``Cancellable/cancel()`` on this
  ///   instance when you no longer want the publisher to automatically assign the
  ///   property. Deinitializing this instance will also cancel automatic assignment.
  @inlinable
  public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
    let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
    subscribe(subscriber)
    return AnyCancellable(subscriber)
  }
}
