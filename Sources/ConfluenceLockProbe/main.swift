// ConfluenceLockProbe: a process that starts with one thread, for the tests of what `Lock`
// does while the C library says the process has only ever had one thread (it skips its
// mutex; Sources/Confluence/Internal/Locking.swift). An XCTest process already has several
// threads when a test starts, so `SingleThreadedLockTests` runs this instead:
//
//   ConfluenceLockProbe lose-nothing            one line per check, PASSED: or FAILED:;
//                                               exit status 1 if any failed
//   ConfluenceLockProbe thread-inside-section   starts a thread inside a critical section
//                                               (debug builds trap)

import CConfluenceSystem
import Confluence
import Foundation
import Synchronization

var failed = false

@MainActor
func report(_ passed: Bool, _ what: String) {
  print((passed ? "PASSED: " : "FAILED: ") + what)
  failed = failed || !passed
}

/// Subjects used while the process has one thread (no section takes the mutex), then sent
/// to from two threads at once: every value must arrive, and nothing may hang.
@MainActor
func loseNothing() {
  report(confluence_is_single_threaded(), "the process starts with one thread")

  let passthrough = PassthroughSubject<Int, Never>()
  var sum = 0
  let flattened = passthrough.flatMap { Just($0) }.map { $0 * 2 }.sink { sum += $0 }
  for value in 1...1_000 { passthrough.send(value) }
  flattened.cancel()
  report(sum == 1_000 * 1_001, "one thread: flatMap and map delivered every value (sum \(sum))")

  let current = CurrentValueSubject<Int, Never>(0)
  let deliveries = Atomic<Int>(0)
  // `flatMap` into a `Just` and `zip` take their per-value sections with `Lock.acquire()`
  // and `release(_:)` rather than `withLock`: they must leave the mutex as they found it too.
  let flattenedCount = Atomic<Int>(0)
  let zippedCount = Atomic<Int>(0)
  let counting = [
    passthrough.sink { _ in deliveries.add(1, ordering: .relaxed) },
    current.sink { _ in deliveries.add(1, ordering: .relaxed) },
    passthrough.flatMap { Just($0) }.sink { _ in flattenedCount.add(1, ordering: .relaxed) },
    passthrough.zip(current).sink { _ in zippedCount.add(1, ordering: .relaxed) },
  ]
  passthrough.send(1)
  current.send(1)
  report(deliveries.load(ordering: .relaxed) == 3, "one thread: both subjects delivered (and the current value)")
  report(confluence_is_single_threaded(), "still one thread before the senders start")

  // Two threads send to the subjects subscribed above, at once.
  let perThread = 50_000
  let done = DispatchSemaphore(value: 0)
  for thread in 0..<2 {
    Thread {
      for value in 0..<perThread {
        passthrough.send(value)
        current.send(thread * perThread + value)
      }
      done.signal()
    }.start()
  }
  done.wait()
  done.wait()
  report(!confluence_is_single_threaded(), "the C library knows of the second thread")
  let expected = 3 + 2 * 2 * perThread
  let delivered = deliveries.load(ordering: .relaxed)
  report(delivered == expected, "two threads: \(delivered) of \(expected) values delivered")
  // Each subject got 1 + 2 × perThread sends after subscribing (`current` also its value
  // at subscribe, which `zip` keeps for a partner that never comes).
  let flattenedNow = flattenedCount.load(ordering: .relaxed)
  let zipped = zippedCount.load(ordering: .relaxed)
  report(
    flattenedNow == 1 + 2 * perThread && zipped == 1 + 2 * perThread,
    "two threads: flatMap delivered \(flattenedNow), zip \(zipped), of \(1 + 2 * perThread) each")
  let last = current.value
  report(last == perThread - 1 || last == 2 * perThread - 1, "the current value is one thread's last (\(last))")
  withExtendedLifetime(counting) {}
}

switch CommandLine.arguments.dropFirst().first {
case "lose-nothing":
  loseNothing()
  exit(failed ? 1 : 0)
case "thread-inside-section":
  guard confluence_is_single_threaded() else {
    print("the process did not start with one thread")
    exit(2)
  }
  let lock = Lock()
  lock.withLock { Thread {}.start() }
  print("no trap")
  exit(0)
default:
  FileHandle.standardError.write(Data("usage: ConfluenceLockProbe lose-nothing | thread-inside-section\n".utf8))
  exit(2)
}
