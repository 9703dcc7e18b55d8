// confluence-instructions: runs one benchmark body once and prints its checksum.
//
//   confluence-instructions WORKLOAD LIBRARY N
//
// For instruction counts: `Benchmarks/instructions` runs it under callgrind with N and 2N
// elements and prints what one more element costs (`Benchmarks/atomics`: the atomic
// instructions among them). Workload names are confluence-bench's; LIBRARY is matched against
// the library's name (`confluence`, `opencombine`). The process starts no thread unless
// CONFLUENCE_START_THREAD=1; CONFLUENCE_TIME_REPS=R times the body (see below).

import BenchSupport
import ConfluenceWorkloads
import Foundation
import OpenCombineWorkloads

let arguments = CommandLine.arguments
guard arguments.count == 4, let n = Int(arguments[3]) else {
  FileHandle.standardError.write("usage: confluence-instructions WORKLOAD LIBRARY N\n".data(using: .utf8)!)
  exit(2)
}
let chosen = (ConfluenceWorkloads.all + OpenCombineWorkloads.all).filter { implementation in
  implementation.workload.rawValue == arguments[1]
    && implementation.library.rawValue.lowercased().contains(arguments[2].lowercased())
}
guard chosen.count == 1, let body = chosen[0].body else {
  FileHandle.standardError.write("no single runnable body for \(arguments[1]) / \(arguments[2])\n".data(using: .utf8)!)
  exit(2)
}
// With CONFLUENCE_START_THREAD=1 an idle thread is started first, so that the body runs in a
// process with several threads, as confluence-bench's does: glibc's mutexes and Confluence's
// `Lock` then take their atomic paths.
if ProcessInfo.processInfo.environment["CONFLUENCE_START_THREAD"] == "1" {
  let started = DispatchSemaphore(value: 0)
  Thread {
    started.signal()
    while true { sleep(3600) }
  }.start()
  started.wait()
}

/// Runs the body once with `n` elements and returns its checksum. On the main actor, as the
/// top-level code is: a synchronous body then runs on this thread, with no hop to the
/// concurrency runtime's threads, which would start one.
@MainActor
func runOnce() async -> UInt64 {
  switch body {
  case .sync(let function): function(n)
  case .async(let function): await function(n)
  }
}

// With CONFLUENCE_TIME_REPS=R: one warm-up, then R timed runs of N, and the median time
// per element on standard error. This process starts no thread of its own (confluence-bench
// runs its workloads from an async main, so the concurrency runtime's threads exist there),
// which is what a single-threaded program, and glibc's single-thread shortcuts, see.
if let reps = ProcessInfo.processInfo.environment["CONFLUENCE_TIME_REPS"].flatMap(Int.init), reps > 0 {
  var times: [Double] = []
  var checksum: UInt64 = 0
  for rep in 0...reps {
    let start = DispatchTime.now().uptimeNanoseconds
    checksum = await runOnce()
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(n)
    if rep > 0 { times.append(elapsed) }
  }
  times.sort()
  let median = times[times.count / 2]
  FileHandle.standardError.write(
    String(
      format: "%@ (%@): %.1f ns per element, median of %d (%.1f–%.1f)\n", arguments[1], arguments[2], median,
      reps, times[0], times[times.count - 1]
    ).data(using: .utf8)!)
  print(checksum)
} else {
  print(await runOnce())
}
