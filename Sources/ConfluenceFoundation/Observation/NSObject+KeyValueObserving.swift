#if !canImport(ObjectiveC)
  import Confluence
  import Foundation

  // Porting hints. Apple's `publisher(for:options:)` observes an `@objc dynamic` property
  // through key-value observing, which needs the Objective-C runtime; Linux has none, so
  // neither the method nor its types can exist here. These unavailable declarations turn
  // the "no member" error that book code would meet into one that names the replacement:
  // the Observation framework's `@Observable` and `observationPublisher(for:options:)`.

  /// The protocol that gives Apple's `NSObject` its key-value observing publisher.
  ///
  /// On Linux it only carries the unavailable ``publisher(for:options:)``, whose error names
  /// the replacement, ``Observation/Observable/observationPublisher(for:options:)``.
  public protocol _KeyValueCodingAndObservingPublishing {}

  extension NSObject: _KeyValueCodingAndObservingPublishing {}

  extension _KeyValueCodingAndObservingPublishing where Self: NSObject {
    /// Unavailable on Linux: key-value observing needs the Objective-C runtime.
    ///
    /// Make the class `@Observable` (drop `NSObject` and `@objc dynamic`) and call
    /// ``Observation/Observable/observationPublisher(for:options:)``, which takes the same
    /// key path and the options `.initial` and `.prior`.
    @available(
      *, unavailable,
      message:
        "key-value observing needs the Objective-C runtime, which Linux lacks: make the class @Observable (no NSObject, no @objc dynamic) and use observationPublisher(for:options:)"
    )
    public func publisher<Value>(
      for keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [.initial, .new]
    ) -> NSObject.KeyValueObservingPublisher<Self, Value> {
      fatalError("unavailable")
    }
  }

  extension NSObject {
    /// Unavailable on Linux: key-value observing needs the Objective-C runtime.
    ///
    /// ``ObservationPublisher`` publishes a key path's values on an `@Observable` object.
    @available(
      *, unavailable,
      message:
        "key-value observing needs the Objective-C runtime, which Linux lacks: use ObservationPublisher, from observationPublisher(for:options:) on an @Observable class"
    )
    public struct KeyValueObservingPublisher<Subject: NSObject, Value>: Publisher {
      public typealias Output = Value
      public typealias Failure = Never

      public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
        fatalError("unavailable")
      }
    }
  }

  /// Unavailable on Linux: the options of key-value observing, which needs the Objective-C
  /// runtime. ``ObservationOptions`` has `.initial` and `.prior` for
  /// ``Observation/Observable/observationPublisher(for:options:)``.
  @available(
    *, unavailable,
    message:
      "key-value observing needs the Objective-C runtime, which Linux lacks: use ObservationOptions with observationPublisher(for:options:)"
  )
  public struct NSKeyValueObservingOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let new = NSKeyValueObservingOptions(rawValue: 1 << 0)
    public static let old = NSKeyValueObservingOptions(rawValue: 1 << 1)
    public static let initial = NSKeyValueObservingOptions(rawValue: 1 << 2)
    public static let prior = NSKeyValueObservingOptions(rawValue: 1 << 3)
  }
#endif
