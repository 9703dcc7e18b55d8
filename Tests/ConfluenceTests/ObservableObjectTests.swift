import Confluence
import ConfluenceTesting
import XCTest

final class ObservableObjectTests: XCTestCase {
  // Chapter 12 of "Combine in Action".
  class MonitorObject: ObservableObject {
    @Published var someProperty = false
    @Published var someOtherProperty = ""
  }

  func test_bookMonitorObject_printsObjectWillChangeTwice() {
    var printed: [String] = []
    let object = MonitorObject()
    let subscription = object.objectWillChange.sink {
      printed.append("object will change")
    }
    object.someProperty = true
    object.someOtherProperty = "Hello world"
    XCTAssertEqual(printed, ["object will change", "object will change"])
    XCTAssertEqual(object.someProperty, true)
    XCTAssertEqual(object.someOtherProperty, "Hello world")
    withExtendedLifetime(subscription) {}
  }

  // Apple's documentation of ObservableObject.
  class Contact: ObservableObject {
    @Published var name: String
    @Published var age: Int

    init(name: String, age: Int) {
      self.name = name
      self.age = age
    }

    func haveBirthday() -> Int {
      age += 1
      return age
    }
  }

  func test_appleContactExample_firesBeforeTheChange() {
    var printed: [String] = []
    let john = Contact(name: "John Appleseed", age: 24)
    let cancellable = john.objectWillChange
      .sink { _ in
        printed.append("\(john.age) will change")
      }
    printed.append("\(john.haveBirthday())")
    XCTAssertEqual(printed, ["24 will change", "25"])
    withExtendedLifetime(cancellable) {}
  }

  func test_objectWillChange_isTheSamePublisherEveryTime() {
    let object = MonitorObject()
    XCTAssertTrue(object.objectWillChange === object.objectWillChange)
    XCTAssertFalse(object.objectWillChange === MonitorObject().objectWillChange)
  }

  func test_objectWillChange_firesBeforePropertySubscribers() {
    var log: [String] = []
    let object = Contact(name: "A", age: 1)
    let property = object.$name.dropFirstForTests().sink { log.append("$name \($0), name is \(object.name)") }
    let change = object.objectWillChange.sink { log.append("will change, name is \(object.name)") }
    object.name = "B"
    XCTAssertEqual(log, ["will change, name is A", "$name B, name is A"])
    withExtendedLifetime((property, change)) {}
  }

  class Base: ObservableObject {
    @Published var inherited = 0
  }

  final class Derived: Base {
    @Published var own = ""
    var plain = 0
  }

  func test_subclass_publishedPropertiesOfEveryLevelFire() {
    var count = 0
    let object = Derived()
    let cancellable = object.objectWillChange.sink { count += 1 }
    object.inherited = 1
    object.own = "x"
    object.plain = 2
    XCTAssertEqual(count, 2)
    withExtendedLifetime(cancellable) {}
  }

  class NothingPublished: ObservableObject {
    var value = 0
  }

  func test_objectWithoutPublishedProperties_neverFires() {
    let object = NothingPublished()
    var count = 0
    let cancellable = object.objectWillChange.sink { count += 1 }
    object.value = 1
    XCTAssertEqual(count, 0)
    withExtendedLifetime(cancellable) {}
  }

  final class CustomSignal: ObservableObject {
    let objectWillChange = PassthroughSubject<String, Never>()
    @Published var value = 0
    var manual = 0 {
      willSet { objectWillChange.send("manual") }
    }
  }

  func test_customObjectWillChange_isNotSignalledByPublished() {
    let object = CustomSignal()
    var received: [String] = []
    let cancellable = object.objectWillChange.sink { received.append($0) }
    object.value = 1
    object.manual = 1
    XCTAssertEqual(received, ["manual"])
    withExtendedLifetime(cancellable) {}
  }

  func test_changesBeforeFirstAccess_areNotSignalled_laterOnesAre() {
    let object = MonitorObject()
    object.someProperty = true
    var count = 0
    let cancellable = object.objectWillChange.sink { count += 1 }
    object.someProperty = false
    XCTAssertEqual(count, 1)
    withExtendedLifetime(cancellable) {}
  }

  func test_objectIsFreed_whileObjectWillChangeSubscribed() {
    var object: MonitorObject? = MonitorObject()
    weak let weakObject = object
    var count = 0
    let cancellable = object!.objectWillChange.sink { count += 1 }
    object?.someProperty = true
    object = nil
    XCTAssertNil(weakObject, "subscribing to objectWillChange does not keep the object alive")
    XCTAssertEqual(count, 1)
    withExtendedLifetime(cancellable) {}
  }

  @MainActor
  final class MainActorModel: ObservableObject {
    @Published var count = 0
    func increment() { count += 1 }
  }

  @MainActor
  func test_mainActorClass_worksLikeAnyOther() {
    let model = MainActorModel()
    var log: [String] = []
    let changes = model.objectWillChange.sink { log.append("will change from \(model.count)") }
    let counts = model.$count.sink { log.append("count \($0)") }
    model.increment()
    XCTAssertEqual(log, ["count 0", "will change from 0", "count 1"])
    withExtendedLifetime((changes, counts)) {}
  }

  func test_genericUse_throughProtocol() {
    func observe<O: ObservableObject>(_ object: O, into log: @escaping () -> Void) -> AnyCancellable {
      object.objectWillChange.sink(receiveCompletion: { _ in }, receiveValue: { _ in log() })
    }
    var count = 0
    let object = Contact(name: "x", age: 0)
    let cancellable = observe(object) { count += 1 }
    object.age = 3
    XCTAssertEqual(count, 1)
    withExtendedLifetime(cancellable) {}
  }
}

extension Published.Publisher {
  /// Skips the current value that `$property` delivers on subscription.
  fileprivate func dropFirstForTests() -> Publishers.Filter<Published<Value>.Publisher> {
    var isFirst = true
    return filter { _ in
      defer { isFirst = false }
      return !isFirst
    }
  }
}
