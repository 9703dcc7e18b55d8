import XCTest

@testable import Confluence

/// `TupleWriter` places a tuple's elements by the elements' sizes and alignments, and the
/// fan-ins write their outputs with it where the code is not specialised (as in this debug
/// build, whose calls into the library's generic code are not specialised). Checked against
/// the offsets the compiler itself gives, and through every fan-in with element types whose
/// alignments leave padding between them.
final class TupleWriterTests: XCTestCase {
  private final class Token: Equatable {
    let name: String
    init(_ name: String) { self.name = name }
    static func == (lhs: Token, rhs: Token) -> Bool { lhs.name == rhs.name }
  }

  private struct Triple: Equatable {
    var a: Int8
    var b: Int64
    var c: Int16
  }

  /// Where a writer places the second element, through a generic function.
  private func secondOffset<A, B>(_: A.Type, _: B.Type) -> Int {
    var storage = 0
    return withUnsafeMutableBytes(of: &storage) { bytes in
      var writer = TupleWriter(bytes.baseAddress!)
      _ = writer.next(A.self)
      return UnsafeMutableRawPointer(writer.next(B.self)) - bytes.baseAddress!
    }
  }

  func testOffsetsAreTheCompilersForTwoElements() {
    XCTAssertEqual(secondOffset(Int8.self, Int64.self), MemoryLayout<(Int8, Int64)>.offset(of: \(Int8, Int64).1))
    XCTAssertEqual(secondOffset(Int64.self, Int8.self), MemoryLayout<(Int64, Int8)>.offset(of: \(Int64, Int8).1))
    XCTAssertEqual(secondOffset(Bool.self, String.self), MemoryLayout<(Bool, String)>.offset(of: \(Bool, String).1))
    typealias VoidFirst = ((), Int32)
    XCTAssertEqual(secondOffset(Void.self, Int32.self), MemoryLayout<VoidFirst>.offset(of: \VoidFirst.1))
    XCTAssertEqual(secondOffset(Int16.self, Triple.self), MemoryLayout<(Int16, Triple)>.offset(of: \(Int16, Triple).1))
    XCTAssertEqual(secondOffset(Triple.self, Int8.self), MemoryLayout<(Triple, Int8)>.offset(of: \(Triple, Int8).1))
    XCTAssertEqual(secondOffset(Int8?.self, Double.self), MemoryLayout<(Int8?, Double)>.offset(of: \(Int8?, Double).1))
  }

  func testOffsetsAreTheCompilersForFourElements() {
    typealias Four = (Int8, Int32, Int8, Int64)
    var storage = (0, 0, 0)
    let (b, c, d) = withUnsafeMutableBytes(of: &storage) { bytes in
      let base = bytes.baseAddress!
      var writer = TupleWriter(base)
      _ = writer.next(Int8.self)
      let b = UnsafeMutableRawPointer(writer.next(Int32.self)) - base
      let c = UnsafeMutableRawPointer(writer.next(Int8.self)) - base
      return (b, c, UnsafeMutableRawPointer(writer.next(Int64.self)) - base)
    }
    XCTAssertEqual(
      [b, c, d],
      [
        MemoryLayout<Four>.offset(of: \Four.1), MemoryLayout<Four>.offset(of: \Four.2),
        MemoryLayout<Four>.offset(of: \Four.3),
      ])
    XCTAssertEqual([b, c, d], [4, 8, 16])
  }

  func testWriterWritesEachElementWhereTheTupleHasIt() {
    let tuple = UnsafeMutablePointer<(Int8, String, Bool, Triple)>.allocate(capacity: 1)
    defer { tuple.deallocate() }
    var writer = TupleWriter(UnsafeMutableRawPointer(tuple))
    writer.next(Int8.self).initialize(to: -3)
    writer.next(String.self).initialize(to: "text")
    writer.next(Bool.self).initialize(to: true)
    writer.next(Triple.self).initialize(to: Triple(a: 1, b: 2, c: 3))
    let value = tuple.move()
    XCTAssertEqual(value.0, -3)
    XCTAssertEqual(value.1, "text")
    XCTAssertEqual(value.2, true)
    XCTAssertEqual(value.3, Triple(a: 1, b: 2, c: 3))
  }

  /// `copyWrapped` copies the slot's value and leaves the slot holding it.
  func testCopyWrappedCopiesTheSlotsValue() {
    weak var released: Token?
    do {
      var slot: Token? = Token("slot")
      released = slot
      let destination = UnsafeMutablePointer<Token>.allocate(capacity: 1)
      defer { destination.deallocate() }
      Optional.copyWrapped(&slot, to: destination)
      XCTAssertTrue(destination.pointee === slot)
      XCTAssertEqual(destination.move().name, "slot")
      XCTAssertEqual(slot?.name, "slot")
      var number: Int8? = 42
      let byte = UnsafeMutablePointer<Int8>.allocate(capacity: 1)
      defer { byte.deallocate() }
      Optional.copyWrapped(&number, to: byte)
      XCTAssertEqual(byte.move(), 42)
    }
    XCTAssertNil(released, "the copy and the slot are each released once")
  }

  func testZipOutputsWithPaddedElements() {
    let bytes = PassthroughSubject<Int8, Never>()
    let words = PassthroughSubject<Int64, Never>()
    let tokens = PassthroughSubject<Token, Never>()
    let flags = PassthroughSubject<Bool, Never>()
    var pairs: [String] = []
    var quadruples: [String] = []
    let pairCancellable = bytes.zip(words).sink { pairs.append("\($0.0) \($0.1)") }
    let quadCancellable = Publishers.Zip4(bytes, tokens, flags, words).sink {
      quadruples.append("\($0.0) \($0.1.name) \($0.2) \($0.3)")
    }
    bytes.send(1)
    bytes.send(2)
    tokens.send(Token("a"))
    words.send(10)
    flags.send(true)
    words.send(20)
    tokens.send(Token("b"))
    flags.send(false)
    XCTAssertEqual(pairs, ["1 10", "2 20"])
    XCTAssertEqual(quadruples, ["1 a true 10", "2 b false 20"])
    pairCancellable.cancel()
    quadCancellable.cancel()
  }

  func testZip3OutputsAndReleasesItsValues() {
    weak var released: Token?
    var outputs: [String] = []
    do {
      let tokens = PassthroughSubject<Token, Never>()
      let bytes = PassthroughSubject<Int8, Never>()
      let triples = PassthroughSubject<Triple, Never>()
      let cancellable = tokens.zip(bytes, triples).sink { outputs.append("\($0.0.name) \($0.1) \($0.2.b)") }
      let token = Token("kept")
      released = token
      tokens.send(token)
      bytes.send(7)
      triples.send(Triple(a: 1, b: 99, c: 2))
      cancellable.cancel()
    }
    XCTAssertEqual(outputs, ["kept 7 99"])
    XCTAssertNil(released, "the output's token is released once delivered")
  }

  func testCombineLatestOutputsWithPaddedElements() {
    let bytes = CurrentValueSubject<Int8, Never>(1)
    let tokens = CurrentValueSubject<Token, Never>(Token("a"))
    let words = CurrentValueSubject<Int64, Never>(100)
    let flags = CurrentValueSubject<Bool, Never>(false)
    var twos: [String] = []
    var threes: [String] = []
    var fours: [String] = []
    let two = bytes.combineLatest(words).sink { twos.append("\($0.0) \($0.1)") }
    let three = bytes.combineLatest(tokens, words).sink { threes.append("\($0.0) \($0.1.name) \($0.2)") }
    let four = bytes.combineLatest(tokens, flags, words).sink {
      fours.append("\($0.0) \($0.1.name) \($0.2) \($0.3)")
    }
    bytes.send(2)
    tokens.send(Token("b"))
    flags.send(true)
    words.send(200)
    XCTAssertEqual(twos, ["1 100", "2 100", "2 200"])
    XCTAssertEqual(threes, ["1 a 100", "2 a 100", "2 b 100", "2 b 200"])
    XCTAssertEqual(fours, ["1 a false 100", "2 a false 100", "2 b false 100", "2 b true 100", "2 b true 200"])
    two.cancel()
    three.cancel()
    four.cancel()
  }
}
