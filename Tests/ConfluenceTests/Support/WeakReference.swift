/// A weak reference a test keeps to an object, to tell when the code under test lets it go.
final class WeakReference<Object: AnyObject> {
  weak var object: Object?

  init(_ object: Object) {
    self.object = object
  }
}
