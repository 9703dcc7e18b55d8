/// Memory as x86-64 (TSO) presents it to a protocol that relies on fences: each thread's
/// stores wait in a first-in-first-out buffer of its own before they reach memory, and the
/// thread reads its own newest buffered store first. A load never passes an earlier load
/// and a store never passes an earlier store, but a load may pass an earlier store to
/// another location — the reordering that store-buffering protocols (Dekker's) must fence
/// against.
///
/// A model that uses it offers, for every thread whose buffer is not empty, one more step:
/// the oldest buffered store reaching memory (``flushOldest(of:)``), so that exploration
/// covers every moment at which a store becomes visible. Fences are enabled only on an
/// empty buffer (a read-modify-write, a `lock`-prefixed instruction, drains it first;
/// `mfence` likewise); the kernel's process-wide barrier (`membarrier`) is a step enabled
/// only when every thread's buffer is empty (``isDrained``), since it makes every running
/// thread execute a full fence.
///
/// Locations are small integers; values are integers.
struct StoreBuffers: Hashable {
  struct BufferedStore: Hashable {
    var location: Int
    var value: Int
  }

  var memory: [Int]
  var buffers: [[BufferedStore]]

  init(locations: [Int], threads: Int) {
    memory = locations
    buffers = Array(repeating: [], count: threads)
  }

  /// What `thread` reads at `location`: its own newest buffered store there, else memory.
  func load(_ location: Int, by thread: Int) -> Int {
    buffers[thread].last { $0.location == location }?.value ?? memory[location]
  }

  /// A plain (or release) store: into `thread`'s buffer.
  mutating func store(_ location: Int, _ value: Int, by thread: Int) {
    buffers[thread].append(BufferedStore(location: location, value: value))
  }

  /// A sequentially consistent store or a read-modify-write: only on an empty buffer
  /// (check ``isDrained(_:)`` first), straight to memory.
  mutating func storeFenced(_ location: Int, _ value: Int, by thread: Int) {
    precondition(buffers[thread].isEmpty, "a fenced access on a thread whose stores are still buffered")
    memory[location] = value
  }

  /// Whether `thread`'s buffer is empty (a fence may run).
  func isDrained(_ thread: Int) -> Bool { buffers[thread].isEmpty }

  /// Whether every thread's buffer is empty (the process-wide barrier may run).
  var isDrained: Bool { buffers.allSatisfy(\.isEmpty) }

  /// The oldest store in `thread`'s buffer reaches memory.
  mutating func flushOldest(of thread: Int) {
    let oldest = buffers[thread].removeFirst()
    memory[oldest.location] = oldest.value
  }
}
