// What no Combine implementation can beat on the sequence chain: the chain's three stages
// stored as closures in generic classes (as `map`, `filter` and `sink` must store the user's
// closures) and called one after the other, with no library around them. Not part of the
// benchmark package; build and run it on its own:
//
//   swiftc -O Benchmarks/Floors/StoredClosures.swift -o /tmp/stored-closures
//   /tmp/stored-closures            # times, best of 7, 10^8 elements
//   valgrind --tool=callgrind /tmp/stored-closures three 100000   # and 200000: instructions
//
// `one`: only the sink's closure is stored (what the eager chain calls per element, after
// map and filter have built their arrays); `three`: map, filter and sink all stored (the
// streaming chain's shape).

import Foundation

struct Accumulator: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<UInt64>
  init() {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: 0xcbf2_9ce4_8422_2325)
  }
  @inline(__always) func add(_ value: Int) {
    pointer.pointee = (pointer.pointee ^ UInt64(bitPattern: Int64(value))) &* 0x100_0000_01b3
  }
}

@inline(never) func opaque<T>(_ value: T) -> T { value }

/// A closure kept the way a generic subscriber keeps it.
final class Stage<Input, Output> {
  let body: (Input) -> Output
  init(_ body: @escaping (Input) -> Output) { self.body = body }
}

@inline(never) func threeStoredClosures(_ n: Int) -> UInt64 {
  let sum = Accumulator()
  let map = opaque(Stage<Int, Int>({ $0 &* 3 &+ 1 }))
  let filter = opaque(Stage<Int, Bool>({ $0 & 2 == 0 }))
  let sink = opaque(Stage<Int, Void>({ sum.add($0) }))
  for i in 0..<n {
    let value = map.body(i)
    if filter.body(value) { sink.body(value) }
  }
  return sum.pointer.pointee
}

@inline(never) func oneStoredClosure(_ n: Int) -> UInt64 {
  let sum = Accumulator()
  let sink = opaque(Stage<Int, Void>({ sum.add($0) }))
  for i in 0..<n {
    let value = i &* 3 &+ 1
    if value & 2 == 0 { sink.body(value) }
  }
  return sum.pointer.pointee
}

@inline(never) func plainLoop(_ n: Int) -> UInt64 {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for i in 0..<n {
    let value = i &* 3 &+ 1
    if value & 2 == 0 { hash = (hash ^ UInt64(bitPattern: Int64(value))) &* 0x100_0000_01b3 }
  }
  return hash
}

func best(_ name: String, _ body: @escaping (Int) -> UInt64, n: Int) {
  var fastest = Double.infinity
  var checksum: UInt64 = 0
  for _ in 0..<7 {
    let start = ContinuousClock.now
    checksum = opaque(body)(opaque(n))  // opaque: a pure loop called 7 times must not be computed once
    let elapsed = ContinuousClock.now - start
    let ns = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    fastest = min(fastest, ns / Double(n))
  }
  print(name, String(format: "%.2f ns per element", fastest), checksum)
}

let arguments = CommandLine.arguments
if arguments.count == 3, let n = Int(arguments[2]) {
  switch arguments[1] {
  case "three": print(threeStoredClosures(n))
  case "one": print(oneStoredClosure(n))
  default: print(plainLoop(n))
  }
} else {
  let n = 100_000_000
  best("plain loop", plainLoop, n: n)
  best("one stored closure (sink)", oneStoredClosure, n: n)
  best("three stored closures (map, filter, sink)", threeStoredClosures, n: n)
}
