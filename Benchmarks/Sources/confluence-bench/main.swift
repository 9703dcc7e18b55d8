// confluence-bench: runs every workload over every library in this one process, interleaving
// the repetitions so that machine noise spreads evenly, checks that every library delivered
// the same checksum as the hand-written loop, and prints a Markdown table.
//
//   swift run -c release --package-path Benchmarks confluence-bench [--quick] [--reps N]
//       [--workload SUBSTRING] [--library SUBSTRING] [--markdown FILE]
//
// Environment: BENCH_QUICK=1 is the same as --quick (small N, 2 repetitions).

import AsyncWorkloads
import BenchSupport
import CMallocCounter
import ConfluenceWorkloads
import Foundation
import OpenCombineWorkloads

// MARK: Options

struct Options {
  var quick = ProcessInfo.processInfo.environment["BENCH_QUICK"].map { $0 != "0" && !$0.isEmpty } ?? false
  var repetitions: Int?
  var workloadFilter: String?
  var libraryFilter: String?
  var markdownPath: String?

  init(arguments: [String]) {
    var rest = arguments[...]
    func value(_ flag: String) -> String {
      guard let value = rest.popFirst() else { fatalError("\(flag) needs a value") }
      return value
    }
    while let argument = rest.popFirst() {
      switch argument {
      case "--quick": quick = true
      case "--reps": repetitions = Int(value(argument))
      case "--workload": workloadFilter = value(argument)
      case "--library": libraryFilter = value(argument)
      case "--markdown": markdownPath = value(argument)
      case "-h", "--help":
        print("usage: confluence-bench [--quick] [--reps N] [--workload S] [--library S] [--markdown FILE]")
        print("workloads: " + WorkloadID.allCases.map(\.rawValue).joined(separator: ", "))
        exit(0)
      default:
        fatalError("unknown argument \(argument); try --help")
      }
    }
  }

  var reps: Int { repetitions ?? (quick ? 2 : 7) }
}

let options = Options(arguments: Array(CommandLine.arguments.dropFirst()))

// MARK: Measuring

func nanoseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

/// BENCH_CORRUPT=<library name substring> makes that library's checksums wrong, to check that
/// a wrong result fails the run (and CI).
let corrupted = ProcessInfo.processInfo.environment["BENCH_CORRUPT"].map { $0.lowercased() }

/// Runs a body once; returns its checksum and the time it took.
func run(_ implementation: Implementation, _ n: Int) async -> (checksum: UInt64, ns: Double) {
  let result = await run(implementation.body!, n)
  if let corrupted, !corrupted.isEmpty, implementation.library.rawValue.lowercased().contains(corrupted) {
    return (result.checksum ^ 1, result.ns)
  }
  return result
}

/// Runs a body once; returns its checksum and the time it took.
func run(_ body: Body, _ n: Int) async -> (checksum: UInt64, ns: Double) {
  let clock = ContinuousClock()
  let start = clock.now
  let checksum: UInt64
  switch body {
  case .sync(let function): checksum = function(n)
  case .async(let function): checksum = await function(n)
  }
  let elapsed = start.duration(to: clock.now)
  blackHole(checksum)
  return (checksum, nanoseconds(elapsed))
}

func medianOf(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return .nan }
  return sorted.count % 2 == 1
    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func maxRSSKilobytes() -> Int {
  var usage = rusage()
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  return usage.ru_maxrss
}

struct Row {
  let implementation: Implementation
  var samples: [Double] = []  // ns per unit
  var allocationsPerUnit: Double = .nan
  /// Allocations per unit beyond a fixed setup cost: (allocations at N − at N/2) / (N − N/2).
  /// Measured for the steady-state workloads only; 0 means nothing allocates per element.
  var marginalAllocationsPerUnit: Double = .nan
  var freesPerUnit: Double = .nan
  var peakHeapKB: Double = .nan
  var wrong: [String] = []
  var median: Double { medianOf(samples) }
}

// MARK: Sanity: the malloc counter sees allocations made by the Swift runtime.

final class Probe {}
malloc_counter_start()
blackHole(Probe())
let probeCounts = malloc_counter_stop()
guard probeCounts.allocations >= 1 else {
  FileHandle.standardError.write(
    "error: the malloc interposer is not active (counted \(probeCounts.allocations))\n".data(using: .utf8)!)
  exit(2)
}

// MARK: Running

let registry = LoopWorkloads.all + ConfluenceWorkloads.all + OpenCombineWorkloads.all + AsyncWorkloads.all
var failures: [String] = []
var sections: [(workload: WorkloadID, n: Int, rows: [Row], missing: [Implementation], rssKB: Int)] = []

func log(_ message: String) {
  FileHandle.standardError.write((message + "\n").data(using: .utf8)!)
}

for workload in WorkloadID.allCases {
  if let filter = options.workloadFilter, !workload.rawValue.contains(filter) { continue }
  let n = workload.count(quick: options.quick)
  let candidates = registry.filter { $0.workload == workload }
  let selected = candidates.filter { implementation in
    implementation.library == .loop
      || options.libraryFilter.map { implementation.library.rawValue.lowercased().contains($0.lowercased()) } ?? true
  }
  var rows = selected.filter { $0.body != nil }.map { Row(implementation: $0) }
  let missing = selected.filter { $0.body == nil }
  guard let loopIndex = rows.firstIndex(where: { $0.implementation.library == .loop }) else { continue }

  log("== \(workload.rawValue), N = \(n), \(options.reps) repetitions")
  // Reference checksum, then a warm-up of every library that also checks its checksum.
  let expected = await run(rows[loopIndex].implementation.body!, n).checksum
  for index in rows.indices {
    let result = await run(rows[index].implementation, n)
    if result.checksum != expected {
      rows[index].wrong.append("warm-up: checksum \(result.checksum), expected \(expected)")
    }
  }
  // Timed repetitions, interleaved across libraries.
  for repetition in 0..<options.reps {
    for index in rows.indices {
      let result = await run(rows[index].implementation, n)
      if result.checksum != expected {
        rows[index].wrong.append("repetition \(repetition): checksum \(result.checksum), expected \(expected)")
      }
      rows[index].samples.append(result.ns / Double(n))
    }
  }
  // One more run of each with the malloc counter on.
  for index in rows.indices {
    malloc_counter_start()
    let result = await run(rows[index].implementation, n)
    let counts = malloc_counter_stop()
    if result.checksum != expected {
      rows[index].wrong.append("allocation run: checksum \(result.checksum), expected \(expected)")
    }
    rows[index].allocationsPerUnit = Double(counts.allocations) / Double(n)
    rows[index].freesPerUnit = Double(counts.frees) / Double(n)
    rows[index].peakHeapKB = Double(counts.peakLiveBytes) / 1024
    if workload.isSteadyState {
      // A second counted run at N/2: what grows with N is the per-element cost, the rest is setup.
      let half = n / 2
      malloc_counter_start()
      let halfResult = await run(rows[index].implementation, half)
      let halfCounts = malloc_counter_stop()
      blackHole(halfResult)
      rows[index].marginalAllocationsPerUnit =
        (Double(counts.allocations) - Double(halfCounts.allocations)) / Double(n - half)
    }
  }
  for row in rows where !row.wrong.isEmpty {
    let message =
      "\(workload.rawValue) / \(row.implementation.library.rawValue): WRONG RESULT: "
      + row.wrong.joined(separator: "; ")
    log("error: " + message)
    failures.append(message)
  }
  for row in rows {
    log(
      String(
        format: "   %-24@ %10.2f ns/%@, %.0f allocations in the counted run", row.implementation.library.rawValue,
        row.median,
        workload.unit, row.allocationsPerUnit * Double(n)))
  }
  sections.append((workload, n, rows, missing, maxRSSKilobytes()))
}

// MARK: Report

func cpuModel() -> String {
  guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
  for line in text.split(separator: "\n") where line.hasPrefix("model name") {
    return line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
  }
  return "unknown"
}

func compilerVersion() -> String {
  #if compiler(>=6.4)
    return ">= 6.4"
  #elseif compiler(>=6.3)
    return "6.3"
  #elseif compiler(>=6.2)
    return "6.2"
  #else
    return "< 6.2"
  #endif
}

func format(_ value: Double, digits: Int = 1) -> String {
  value.isNaN ? "–" : String(format: "%.\(digits)f", value)
}

var out = ""
let dateFormatter = ISO8601DateFormatter()
out +=
  "Run \(dateFormatter.string(from: Date())) · \(ProcessInfo.processInfo.activeProcessorCount) cores (nproc) · CPU \(cpuModel())"
out += " · compiler \(compilerVersion()) · \(options.quick ? "QUICK mode (timings meaningless)" : "full mode")"
out += " · median of \(options.reps) repetitions after one warm-up · peak RSS \(maxRSSKilobytes() / 1024) MiB\n\n"

for section in sections {
  out += "### \(section.workload.rawValue): \(section.workload.title)\n\n"
  out += "N = \(section.n); times are per \(section.workload.unit)."
  out +=
    " ×loop and ×OpenCombine are ratios of medians (lower is better). Max RSS so far: \(section.rssKB / 1024) MiB.\n\n"
  if section.workload.reportsRate {
    let rates = section.rows.map { row in
      "\(row.implementation.library.rawValue) \(format(1e3 / row.median, digits: 2)) M"
    }
    out += "Values per second (median): " + rates.joined(separator: ", ") + ".\n\n"
  }
  out += "| library | median ns | min ns | ×loop | ×OpenCombine | allocs | frees | peak heap KiB | measured |\n"
  out += "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n"
  let loopMedian = section.rows.first { $0.implementation.library == .loop }?.median ?? .nan
  let openCombineMedian = section.rows.first { $0.implementation.library == .openCombine }?.median ?? .nan
  for row in section.rows {
    let name =
      row.wrong.isEmpty ? row.implementation.library.rawValue : "**WRONG** \(row.implementation.library.rawValue)"
    out += "| \(name) | \(format(row.median, digits: 2)) | \(format(row.samples.min() ?? .nan, digits: 2))"
    out += " | \(format(row.median / loopMedian)) | \(format(row.median / openCombineMedian, digits: 3))"
    out +=
      " | \(format(row.allocationsPerUnit, digits: 2)) | \(format(row.freesPerUnit, digits: 2)) | \(format(row.peakHeapKB))"
    out += " | `\(row.implementation.note)` |\n"
  }
  for implementation in section.missing {
    out += "| \(implementation.library.rawValue) | – | – | – | – | – | – | – | \(implementation.note) |\n"
  }
  out += "\n"
}

// Confluence against ARCHITECTURE.md's targets. A nil time target means only ARCHITECTURE.md's
// "allocations per element in steady state: 0" applies.
let targets: [(WorkloadID, Double?, String)] = [
  (.sequenceEager, 10, "Sequence.publisher → map → filter → sink (eager overloads)"),
  (.sequenceStreaming, 10, "Sequence.publisher → map → filter → sink (operator types)"),
  (.subject1, 15, "PassthroughSubject.send → map → filter → sink"),
  (.flatMapJust, 150, "flatMap { Just($0) }, per inner publisher"),
  (.justBuildDrop, 150, "build Just.map.sink, then drop it"),
  (.scan, nil, "scan, per element"),
  (.removeDuplicates, nil, "removeDuplicates, per element"),
  (.compactMap, nil, "compactMap, per element"),
  (.reduce, nil, "reduce, per element"),
  (.merge2, nil, "merge of 2 subjects, per element sent"),
  (.zip2, nil, "zip of 2 subjects, per element sent"),
  (.combineLatest2, nil, "combineLatest of 2 subjects, per element sent"),
  (.share10, nil, "share() fan-out to 10, per send"),
  (.subject12, nil, "PassthroughSubject.send → 12 stages → sink"),
  (.erasedSubject12, nil, "12 stages behind an AnyPublisher API → sink"),
  (.anySubscriber12, nil, "12 stages → AnySubscriber"),
  (.sequence12, nil, "Sequence.publisher → 12 stages → sink"),
  (.subject12Called, nil, "PassthroughSubject.send → 12 stages (keep calls a function) → sink"),
  (.erasedSubject12Called, nil, "12 stages (keep calls a function) behind an AnyPublisher API → sink"),
  (.subject12Mixed, nil, "PassthroughSubject.send → 12 mixed stages (compactMap, removeDuplicates, scan, …) → sink"),
]

// Issue 12's targets, as ratios to OpenCombine in this run (×OpenCombine at most 1 / factor).
let ratioTargets: [(WorkloadID, Double, String)] = [
  (.erasedBuildDrop, 5, "erased build-and-drop"),
  (.erasedZipTree, 2, "erased zip tree, per leaf"),
  (.subject1, 20, "PassthroughSubject.send → map → filter → sink"),
  (.flatMapJust, 10, "flatMap { Just($0) }"),
  (.justBuildDrop, 10, "build-and-drop"),
]
out += "### Confluence against ARCHITECTURE.md's targets\n\n"
out += "Allocations in steady state: \"marginal\" is (allocations at N − allocations at N/2) / (N/2), what grows"
out += " with N; the target is met below 0.001. \(options.quick ? "QUICK mode: the times are not meaningful." : "")\n\n"
out += "| benchmark | target | Confluence | allocs per unit | verdict |\n| --- | ---: | ---: | ---: | --- |\n"
for (workload, target, title) in targets {
  let targetText = target.map { "≤ \(Int($0)) ns" + (workload.isSteadyState ? ", 0 allocs" : "") } ?? "0 allocs"
  guard let section = sections.first(where: { $0.workload == workload }),
    let row = section.rows.first(where: { $0.implementation.library == .confluence })
  else {
    out += "| \(title) | \(targetText) | not measured | – | – |\n"
    continue
  }
  let allocationsOK = !workload.isSteadyState || row.marginalAllocationsPerUnit < 0.001
  let verdict = row.median <= (target ?? .infinity) && allocationsOK ? "meets" : "MISSES"
  let allocations =
    workload.isSteadyState
    ? "\(format(row.allocationsPerUnit, digits: 3)) (marginal \(format(row.marginalAllocationsPerUnit, digits: 3)))"
    : format(row.allocationsPerUnit, digits: 3)
  out += "| \(title) | \(targetText) | \(format(row.median, digits: 2)) ns | \(allocations) | \(verdict) |\n"
}
out += "\n"

/// The median of `library` on `workload` in this run, if it was measured.
@MainActor func median(_ workload: WorkloadID, _ library: Library) -> Double? {
  sections.first(where: { $0.workload == workload })?.rows.first(where: { $0.implementation.library == library })?
    .median
}

out += "### Confluence against issue 12's ratio targets (OpenCombine ÷ Confluence, this run)\n\n"
out += "| benchmark | target | OpenCombine ÷ Confluence | verdict |\n| --- | ---: | ---: | --- |\n"
for (workload, factor, title) in ratioTargets {
  guard let mine = median(workload, .confluence), let theirs = median(workload, .openCombine) else {
    out += "| \(title) | ≥ \(Int(factor))× | not measured | – |\n"
    continue
  }
  let ratio = theirs / mine
  out += "| \(title) | ≥ \(Int(factor))× | \(format(ratio, digits: 1))× | \(ratio >= factor ? "meets" : "MISSES") |\n"
}
out += "\n"

/// Issue 12's ceilings: Confluence's median over a reference's median in this run, where the
/// reference is the hand-written loop of the same workload or Confluence's own subject chain.
enum CeilingReference { case loop, confluenceSubjectChain }
let ceilings: [(WorkloadID, CeilingReference, Double, String)] = [
  (.sequenceEager, .loop, 2, "sequence chain (eager overloads) ÷ the hand-written loop"),
  (.sequenceStreaming, .loop, 2, "sequence chain (operator types) ÷ the hand-written loop"),
  (.merge2, .confluenceSubjectChain, 2, "merge of two subjects ÷ the subject chain, per element sent"),
  (.zip2, .confluenceSubjectChain, 2, "zip of two subjects ÷ the subject chain, per element sent"),
  (.combineLatest2, .confluenceSubjectChain, 2, "combineLatest of two subjects ÷ the subject chain, per element sent"),
  (.receiveOnDispatch, .loop, 1.2, "receive(on: DispatchQueue) ÷ a bare DispatchQueue.async per value"),
  // Issue 36: at least 0.8× the lines per second of the most direct reading Foundation offers.
  (.httpLines, .loop, 1.25, "lines from 127.0.0.1 (linesPublisher) ÷ a URLSession data delegate splitting by hand"),
]
out += "### Confluence against issue 12's cost ceilings (Confluence ÷ reference, this run)\n\n"
out += "| benchmark | ceiling | Confluence ÷ reference | verdict |\n| --- | ---: | ---: | --- |\n"
for (workload, reference, ceiling, title) in ceilings {
  let referenceMedian =
    switch reference {
    case .loop: median(workload, .loop)
    case .confluenceSubjectChain: median(.subject1, .confluence)
    }
  guard let mine = median(workload, .confluence), let referenceMedian else {
    out += "| \(title) | ≤ \(String(format: "%g", ceiling))× | not measured | – |\n"
    continue
  }
  let ratio = mine / referenceMedian
  out +=
    "| \(title) | ≤ \(String(format: "%g", ceiling))× | \(format(ratio, digits: 2))× | \(ratio <= ceiling ? "meets" : "MISSES") |\n"
}
out += "\n"

// Issue 21's targets: the speed holds for long pipelines. Ratios to OpenCombine in this run,
// and the 12-stage subject pipeline's cost over the 2-stage one's (both Confluence).
let longRatioTargets: [(WorkloadID, Double, String)] = [
  (.subject12, 15, "subject → 6 × (map → filter) → sink, 12 stages"),
  (.erasedSubject12, 10, "the same 12 stages behind an AnyPublisher API"),
  (.switchToLatest5, 5, "subject → 5 × (map { Just($0) } → switchToLatest) → sink"),
  (.subject12Called, 15, "the 12 subject stages, each keep calling a non-inlined function"),
  (.erasedSubject12Called, 10, "the same, behind an AnyPublisher API"),
]
out += "### Confluence against issue 21's targets (long pipelines, this run)\n\n"
out += "| benchmark | target | measured | verdict |\n| --- | ---: | ---: | --- |\n"
for (workload, factor, title) in longRatioTargets {
  guard let mine = median(workload, .confluence), let theirs = median(workload, .openCombine) else {
    out += "| \(title): OpenCombine ÷ Confluence | ≥ \(Int(factor))× | not measured | – |\n"
    continue
  }
  let ratio = theirs / mine
  out +=
    "| \(title): OpenCombine ÷ Confluence | ≥ \(Int(factor))× | \(format(ratio, digits: 1))× | \(ratio >= factor ? "meets" : "MISSES") |\n"
}
if let twelve = median(.subject12, .confluence), let two = median(.subject1, .confluence) {
  let ratio = twelve / two
  out +=
    "| 12-stage subject pipeline ÷ the 2-stage one (subject-12 ÷ subject-1) | ≤ 8.0× | \(format(ratio, digits: 2))× | \(ratio <= 8 ? "meets" : "MISSES") |\n"
} else {
  out += "| 12-stage subject pipeline ÷ the 2-stage one (subject-12 ÷ subject-1) | ≤ 8.0× | not measured | – |\n"
}
out += "\n"

// Issue 35's targets: deep pipelines cost per level what one level costs (at most 1.5× the
// same shape at depth 1, per level and per unit), and every row is at least 10× faster than
// OpenCombine where it has the operator (the generic helper's 12 stages: issue 21's 15×).
out += "### Confluence against issue 35's targets (deep pipelines, this run)\n\n"
out +=
  "| benchmark | depth | Confluence ns per unit | per level ÷ depth 1 (≤ 1.5×) | OpenCombine ÷ Confluence | verdict |\n"
out += "| --- | ---: | ---: | ---: | ---: | --- |\n"
for workload in WorkloadID.allCases
where workload.depth > 1 || workload.depthOne != nil || workload.isGenericHelper
  || WorkloadID.allCases.contains(where: { $0.depthOne == workload })
{
  guard let mine = median(workload, .confluence) else {
    out += "| \(workload.rawValue) | \(workload.depth) | not measured | – | – | – |\n"
    continue
  }
  var verdicts: [Bool] = []
  var perLevel = "–"
  if let one = workload.depthOne, let base = median(one, .confluence) {
    let ratio = mine / Double(workload.depth) / base
    perLevel = "\(format(ratio, digits: 2))×"
    verdicts.append(ratio <= 1.5)
  }
  var versus = "–"
  if let theirs = median(workload, .openCombine) {
    let ratio = theirs / mine
    versus = "\(format(ratio, digits: 1))×"
    verdicts.append(ratio >= (workload.isGenericHelper ? 15 : 10))
  }
  let verdict = verdicts.isEmpty ? "–" : verdicts.allSatisfy { $0 } ? "meets" : "MISSES"
  out +=
    "| \(workload.rawValue) | \(workload.depth) | \(format(mine, digits: 1)) | \(perLevel) | \(versus) | \(verdict) |\n"
}
out += "\n"

// Issue 36: memory under a subscriber that stops reading. The server writes lines until the
// client takes nothing for half a second (at most 256 MiB); the heap is the process's peak
// above where it started, while the reader waits.
if options.workloadFilter.map({ WorkloadID.httpLines.rawValue.contains($0) }) ?? true {
  log("== http-lines: a subscriber that stops reading")
  out += "### http-lines: a subscriber that asks for one line and then stops\n\n"
  out += "The server writes lines until the client takes nothing for 0.5 s (or 256 MiB are out).\n\n"
  out += "| reader | bytes the server wrote | peak heap while waiting |\n| --- | ---: | ---: |\n"
  for (name, measure) in [
    ("ConfluenceNetworking `linesPublisher`, demand 1", HTTPLinesWorkloads.slowSubscriber),
    ("`URLSession` data delegate, its queue blocked after the first chunk", SlowReader.urlSessionDelegate),
  ] as [(String, () -> Int)] {
    malloc_counter_start()
    let written = measure()
    let counts = malloc_counter_stop()
    out += "| \(name) | \(written) | \(counts.peakLiveBytes / 1024) KiB |\n"
    log("   \(name): the server wrote \(written) bytes, peak heap \(counts.peakLiveBytes / 1024) KiB")
  }
  out += "\n"
}

print(out)
if let path = options.markdownPath {
  try out.write(toFile: path, atomically: true, encoding: .utf8)
}

if !failures.isEmpty {
  log("\n\(failures.count) WRONG RESULT(S):")
  for failure in failures { log("  " + failure) }
  exit(1)
}
log("all checksums agree")
