/// A type of object with a publisher that emits before the object has changed.
///
/// By default an `ObservableObject` provides an
/// ``objectWillChange-385ma`` publisher that emits before any of its
/// `@Published` properties changes.
///
/// ```swift
/// class Contact: ObservableObject {
///   @Published var name: String
///   @Published var age: Int
///
///   init(name: String, age: Int) {
///     self.name = name
///     self.age = age
///   }
///
///   func haveBirthday() -> Int {
///     age += 1
///     return age
///   }
/// }
///
/// let john = Contact(name: "John Appleseed", age: 24)
/// cancellable = john.objectWillChange
///   .sink { _ in
///     print("\(john.age) will change")
///   }
/// print(john.haveBirthday())
/// // Prints "24 will change"
/// // Prints "25"
/// ```
///
/// To signal changes yourself, or with another publisher type, declare
/// `objectWillChange` in your class; `@Published` properties then do not signal it.
public protocol ObservableObject: AnyObject {
  /// The type of publisher that emits before the object has changed.
  associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
  where ObjectWillChangePublisher.Failure == Never

  /// A publisher that emits before the object has changed.
  var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
  /// A publisher that emits before the object has changed: just before any `@Published`
  /// property of the object (including those declared in superclasses) changes.
  ///
  /// ```swift
  /// let cancellable = model.objectWillChange.sink { print("will change") }
  /// model.count += 1   // prints "will change"
  /// ```
  ///
  /// Every access returns the same publisher for a given object. Swift on Linux has no
  /// compiler-synthesised storage for it, so the first access finds the object's
  /// `@Published` properties by reflection (`Mirror`, so a custom `customMirror` that
  /// hides them hides them here too) and installs one shared publisher into each of them.
  /// An object without `@Published` properties gets a new publisher that never emits.
  ///
  /// - Complexity: O(*n*) in the number of stored properties of the object.
  public var objectWillChange: ObservableObjectPublisher {
    observationObjectWillChange(of: self)
  }
}
