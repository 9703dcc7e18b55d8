// confluence-instructions: runs one benchmark body once and prints its checksum.
//
//   confluence-instructions WORKLOAD LIBRARY N
//
// For instruction counts: `Benchmarks/instructions` runs it under callgrind with N and 2N
// elements and prints what one more element costs. Workload names are confluence-bench's;
// LIBRARY is matched against the library's name (`confluence`, `opencombine`).

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
switch body {
case .sync(let function): print(function(n))
case .async(let function): print(await function(n))
}
