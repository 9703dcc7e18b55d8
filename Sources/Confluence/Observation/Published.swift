/// A type that publishes a property marked with an attribute.
///
/// Publishing a property with the `@Published` attribute creates a publisher of this
/// type. You access the publisher with the `$` operator, as shown here:
///
/// ```swift
/// class Weather {
///   @Published var temperature: Double
///   init(temperature: Double) {
///     self.temperature = temperature
///   }
/// }
///
/// let weather = Weather(temperature: 20)
/// cancellable = weather.$temperature
///   .sink { print("Temperature now: \($0)") }
/// weather.temperature = 25
///
/// // Prints:
/// // Temperature now: 20.0
/// // Temperature now: 25.0
/// ```
///
/// When the property changes, publishing occurs in the property’s `willSet` block,
/// meaning subscribers receive the new value before it’s actually set on the property.
/// In the above example, the second time the sink executes its closure, it receives the
/// parameter value `25`. However, if the closure evaluated `weather.temperature`, the
/// value returned would be `20`.
///
/// In a class that conforms to ``ObservableObject``, every `@Published` property also
/// signals the object's default
/// ``ObservableObject/objectWillChange-385ma`` publisher before it
/// changes (before its own subscribers run).
///
/// > Important: The `@Published` attribute is class constrained. Use it with properties
/// of classes, not with non-class types like structures.
///
/// Back-pressure: `$property` behaves like a ``CurrentValueSubject`` that never completes:
/// each subscriber receives the current value on its first demand, and, after a change
/// it had no demand for, the value current when its demand arrives.
///
/// Thread safety: reading and writing the property are each atomic, but a write runs its
/// subscribers on the writing thread; as with any property, coordinate concurrent writers
/// yourself.
@propertyWrapper
public struct Published<Value> {
  /// The reference storage shared by all copies of this wrapper.
  @usableFromInline
  internal var box: PublishedSubject<Value>

  /// Creates the published instance with an initial wrapped value.
  ///
  /// Don’t call this initializer directly. Instead, declare a property with the
  /// `@Published` attribute, as shown here:
  ///
  /// ```swift
  /// @Published var lastUpdated: Date = Date()
  /// ```
  ///
  /// - Parameter wrappedValue: The publisher’s initial value.
  @inlinable
  public init(wrappedValue: Value) {
    box = PublishedSubject(wrappedValue)
  }

  /// Creates the published instance with an initial value.
  ///
  /// Don’t call this initializer directly. Instead, declare a property with the
  /// `@Published` attribute, as shown here:
  ///
  /// ```swift
  /// @Published var lastUpdated: Date = Date()
  /// ```
  ///
  /// - Parameter initialValue: The publisher’s initial value.
  @inlinable
  public init(initialValue: Value) {
    self.init(wrappedValue: initialValue)
  }

  /// Unavailable: `@Published` works only on properties of classes, which go through
  /// ``subscript(_enclosingInstance:wrapped:storage:)`` instead.
  @available(*, unavailable, message: "@Published is only available on properties of classes")
  public var wrappedValue: Value {
    get { fatalError("@Published is only available on properties of classes") }
    set { fatalError("@Published is only available on properties of classes") }
  }

  /// The property for which this instance exposes a publisher.
  ///
  /// The ``Published/projectedValue`` is the property accessed with the `$` operator.
  ///
  /// ```swift
  /// let cancellable = weather.$temperature.sink { print($0) }
  /// ```
  ///
  /// Setting it has no effect on the property (as in Apple's Combine, where the setter
  /// only exists so that `assign(to: &$property)` can take the publisher `inout`): the
  /// property keeps its own value and subscribers.
  public var projectedValue: Published<Value>.Publisher {
    mutating get { Publisher(box: box) }
    set {}
  }

  /// Reads and writes the wrapped value of a `@Published` property of a class.
  ///
  /// The compiler calls this subscript for every access to a `@Published` property of a
  /// class (`object.property` and `object.property = newValue`); don't call it directly.
  /// The setter signals the object's `objectWillChange` (if it has been installed), then
  /// publishes the new value to `$property` subscribers, then stores it.
  ///
  /// - Parameters:
  ///   - object: The object that declares the property.
  ///   - wrappedKeyPath: The key path of the property.
  ///   - storageKeyPath: The key path of this wrapper inside the object.
  /// - Returns: The property's value.
  @inlinable
  public static subscript<EnclosingSelf: AnyObject>(
    _enclosingInstance object: EnclosingSelf,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
  ) -> Value {
    get { object[keyPath: storageKeyPath].box.value }
    set { object[keyPath: storageKeyPath].box.set(newValue) }
  }
}
