// "Combine in Action", chapter 12, "Key-Value Observing", on Linux.
//
// Key-value observing needs the Objective-C runtime: `publisher(for:)` on an NSObject's
// `@objc dynamic` property exists only on Apple platforms (on Linux, calling it is a
// compile-time error that names the replacement). What Linux has is the Observation
// framework: mark the class `@Observable` and call `observationPublisher(for:options:)`.
// The options and the printed values are the book's.
import Combine
import Foundation
import Observation

#if canImport(Darwin)
  // Apple platforms: the book's code.
  class TestObject: NSObject {
    @objc dynamic var integerProperty: Int = 0
    @objc dynamic var stringProperty: String = ""
    @objc dynamic var arrayProperty: [Float] = []
  }

  func changes<Value>(of object: TestObject, _ keyPath: KeyPath<TestObject, Value>, prior: Bool = false)
    -> AnyPublisher<Value, Never>
  {
    object.publisher(for: keyPath, options: prior ? [.prior] : [.initial]).eraseToAnyPublisher()
  }
#else
  // Linux: the same object, observed through the Observation framework.
  @Observable final class TestObject {
    var integerProperty: Int = 0
    var stringProperty: String = ""
    var arrayProperty: [Float] = []
  }

  func changes<Value>(of object: TestObject, _ keyPath: KeyPath<TestObject, Value>, prior: Bool = false)
    -> AnyPublisher<Value, Never>
  {
    object.observationPublisher(for: keyPath, options: prior ? [.prior] : [.initial]).eraseToAnyPublisher()
  }
#endif

print("-- publisher(for:) (the initial value, then each change)")
let obj = TestObject()
let subscription = changes(of: obj, \.integerProperty)
  .sink {
    print("integerProperty changes to \($0)")
  }
obj.integerProperty = 100
obj.integerProperty = 200

print("-- two more properties")
let subscription2 = changes(of: obj, \.stringProperty)
  .sink {
    print("stringProperty changes to \($0)")
  }
let subscription3 = changes(of: obj, \.arrayProperty)
  .sink {
    print("arrayProperty changes to \($0)")
  }
obj.stringProperty = "Hello"
obj.arrayProperty = [1.0]
obj.stringProperty = "World"
obj.arrayProperty = [1.0, 2.0]

print("-- options: [.prior] (the value before each change, then the value after it)")
let priorObject = TestObject()
let priorSubscription = changes(of: priorObject, \.integerProperty, prior: true)
  .sink {
    print("integerProperty changes to \($0)")
  }
priorObject.integerProperty = 100
priorObject.integerProperty = 200

print("-- ObservableObject")
class MonitorObject: ObservableObject {
  @Published var someProperty = false
  @Published var someOtherProperty = ""
}

let object = MonitorObject()
let objectSubscription = object.objectWillChange.sink {
  print("object will change")
}
object.someProperty = true
object.someOtherProperty = "Hello world"
