import XCTest

@testable import Confluence

/// `TypeMetadata` reads the runtime's metadata layout by hand, and `KnownJust` trusts it to
/// pick out the publishers whose bytes are their output. Checked against types whose answers
/// are known, through generic functions this (debug) build does not specialise, as
/// `flatMap`, `switchToLatest` and the fan-ins call it.
final class TypeMetadataTests: XCTestCase {
  private struct Failure: Error {}

  /// A struct publisher laid out as `Just` (its output alone), which is not one.
  private struct LooksLikeJust: Publisher {
    typealias Output = Int
    typealias Failure = Never
    let value: Int
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
      Just(value).receive(subscriber: subscriber)
    }
  }

  private enum EnumPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never
    case one
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
      Just(1).receive(subscriber: subscriber)
    }
  }

  @inline(never)
  private func matches<P: Publisher>(_: P.Type) -> Bool {
    KnownJust.matches(P.self)
  }

  func testJustOfAnyOutputMatches() {
    XCTAssertTrue(matches(Just<Int>.self))
    XCTAssertTrue(matches(Just<String>.self))
    XCTAssertTrue(matches(Just<(Int8, Double)>.self))
    XCTAssertTrue(matches(Just<[Int]?>.self))
  }

  func testJustGivenAFailureTypeMatches() {
    XCTAssertTrue(matches(Publishers.SetFailureType<Just<Int>, Failure>.self))
    XCTAssertTrue(matches(Publishers.SetFailureType<Just<String>, Never>.self))
  }

  func testOtherPublishersDoNotMatch() {
    XCTAssertFalse(matches(LooksLikeJust.self))
    XCTAssertFalse(matches(EnumPublisher.self))
    XCTAssertFalse(matches(PassthroughSubject<Int, Never>.self))
    XCTAssertFalse(matches(CurrentValueSubject<Int, Failure>.self))
    XCTAssertFalse(matches(AnyPublisher<Int, Never>.self))
    XCTAssertFalse(matches(Optional<Int>.Publisher.self))
    XCTAssertFalse(matches(Empty<Int, Never>.self))
    XCTAssertFalse(matches(Publishers.SetFailureType<LooksLikeJust, Failure>.self))
    XCTAssertFalse(matches(Publishers.SetFailureType<Empty<Int, Never>, Failure>.self))
    XCTAssertFalse(matches(Publishers.Map<Just<Int>, Int>.self))
    XCTAssertFalse(matches(Publishers.SetFailureType<Publishers.SetFailureType<Just<Int>, Never>, Failure>.self))
  }

  func testAnyTypeCanBeAsked() {
    // Not only publishers: whatever metadata it is handed, it reads only a struct's.
    let types: [(Any.Type, Bool)] = [
      (Just<Int>.self, true), (Publishers.SetFailureType<Just<Int>, Failure>.self, true),
      (LooksLikeJust.self, false), (PassthroughSubject<Int, Never>.self, false),
      (Publishers.SetFailureType<LooksLikeJust, Failure>.self, false), (Int.self, false),
      ((Int, Int).self, false), (((Int) -> Int).self, false), (Optional<Int>.self, false),
    ]
    for (type, expected) in types {
      XCTAssertEqual(KnownJust.matchesUnspecialised(type), expected, "\(type)")
    }
  }

  func testStructDescriptorIsPerGenericType() {
    XCTAssertNotNil(TypeMetadata.structDescriptor(of: Just<Int>.self))
    XCTAssertEqual(
      TypeMetadata.structDescriptor(of: Just<Int>.self), TypeMetadata.structDescriptor(of: Just<String>.self))
    XCTAssertNotEqual(
      TypeMetadata.structDescriptor(of: Just<Int>.self), TypeMetadata.structDescriptor(of: LooksLikeJust.self))
    XCTAssertNil(TypeMetadata.structDescriptor(of: PassthroughSubject<Int, Never>.self))
    XCTAssertNil(TypeMetadata.structDescriptor(of: EnumPublisher.self))
    XCTAssertNil(TypeMetadata.structDescriptor(of: Optional<Int>.self))
    XCTAssertNil(TypeMetadata.structDescriptor(of: (Int, Int).self))
  }

  func testFirstGenericArgument() {
    XCTAssertTrue(TypeMetadata.firstGenericArgument(of: Just<String>.self) == String.self)
    XCTAssertTrue(
      TypeMetadata.firstGenericArgument(of: Publishers.SetFailureType<Just<Int>, Failure>.self) == Just<Int>.self)
    XCTAssertTrue(
      TypeMetadata.firstGenericArgument(of: Publishers.Map<Empty<Int, Never>, String>.self) == Empty<Int, Never>.self)
  }

  /// A subscriber laid out as a fan-in side (a reference and a byte), which is not one.
  private struct LooksLikeASide: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    let reference: AnyObject
    let byte: UInt8
    var combineIdentifier: CombineIdentifier { CombineIdentifier(reference) }
    func receive(subscription: Subscription) {}
    func receive(_ input: Int) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<Never>) {}
  }

  @inline(never)
  private func isFanInSide<S: Subscriber>(_: S.Type) -> Bool where S.Input == Int, S.Failure == Never {
    AnyPublisher<Int, Never>.isFanInSide(S.self)
  }

  func testFanInSidesAreToldFromOtherSubscribers() {
    XCTAssertTrue(isFanInSide(FanInSubscriber<Int, Never>.self))
    XCTAssertEqual(MemoryLayout<LooksLikeASide>.size, MemoryLayout<FanInSubscriber<Int, Never>>.size)
    XCTAssertFalse(isFanInSide(LooksLikeASide.self))
    XCTAssertFalse(isFanInSide(Subscribers.Sink<Int, Never>.self))
    XCTAssertFalse(isFanInSide(AnySubscriber<Int, Never>.self))
  }

  func testInstancesOfAGenericStructAreToldFromOtherTypes() {
    XCTAssertTrue(TypeMetadata.isInstance(Just<String>.self, ofStructOf: Just<Int>.self))
    XCTAssertFalse(TypeMetadata.isInstance(LooksLikeJust.self, ofStructOf: Just<Int>.self))
    XCTAssertFalse(TypeMetadata.isInstance(EnumPublisher.self, ofStructOf: Just<Int>.self))
    XCTAssertFalse(TypeMetadata.isInstance(PassthroughSubject<Int, Never>.self, ofStructOf: Just<Int>.self))

    XCTAssertTrue(TypeMetadata.isStruct(LooksLikeJust.self, otherThanInstancesOf: Just<Int>.self))
    XCTAssertFalse(TypeMetadata.isStruct(Just<[Int]>.self, otherThanInstancesOf: Just<Int>.self))
    XCTAssertFalse(TypeMetadata.isStruct(EnumPublisher.self, otherThanInstancesOf: Just<Int>.self))
    XCTAssertFalse(TypeMetadata.isStruct(PassthroughSubject<Int, Never>.self, otherThanInstancesOf: Just<Int>.self))
  }

  @inline(never)
  private func erase<P: Publisher>(_ publisher: P) -> AnyPublisher<P.Output, P.Failure> {
    AnyPublisher(publisher)
  }

  @inline(never)
  private func backing<P: Publisher>(_ publisher: P) -> SubjectBacking<P.Output, P.Failure>? {
    SubjectBacking(publisher)
  }

  private final class Model {
    @Published var value = 1
  }

  /// Erasing where unspecialised tells the publishers that are their own box (an
  /// `AnyPublisher`, a subject) and the subjects' publishers from the rest by their metadata
  /// first: each still erases and subscribes as itself.
  func testErasingUnspecialisedKeepsEachPublisherAsItself() {
    let subject = PassthroughSubject<Int, Never>()
    XCTAssertTrue(erase(subject).box === subject)
    XCTAssertTrue(erase(erase(subject)).box === subject)
    let current = CurrentValueSubject<Int, Failure>(0)
    XCTAssertTrue(erase(current).box === current)
    let mapped = erase(subject.map { $0 * 2 })
    XCTAssertFalse(mapped.box === subject)
    XCTAssertTrue(erase(mapped).box === mapped.box)

    XCTAssertTrue(backing(subject)?.parent === subject)
    XCTAssertTrue(backing(current)?.parent === current)
    XCTAssertNil(backing(subject.map { $0 }))
    XCTAssertNil(backing(Just(1)))
    XCTAssertNil(backing(LooksLikeJust(value: 1)))
    let model = Model()
    XCTAssertNotNil(backing(model.$value))

    var received: [Int] = []
    let cancellable = erase(model.$value).combineLatest(erase(mapped)).sink { received.append($0 + $1) }
    subject.send(3)
    model.value = 2
    XCTAssertEqual(received, [7, 8])
    cancellable.cancel()
  }
}
