// The News benchmark: 500 stories from `news serve --latency 20` at concurrency 8.
//
//   swift run -c release --package-path News news-benchmark [--runs 5] [--latency 20]
//       [--stories 500] [--concurrency 8]
//
// Starts `news serve` (the binary built next to this one) on a free port, then, for each
// run, reads the top feed through `API.feed` and `FeedPrinter` in this process (the same
// code `news top` runs, printing into memory) and times: the feed list's arrival, the
// first story printed, and the last. It also runs the whole `news top` binary against the
// same server and times the process. The ideal for the stories is ⌈stories/concurrency⌉ ×
// latency: the requests in waves of `concurrency`, each wave one latency long.
import Combine
import Foundation
import HackerNews
import NewsCLI

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

func option(_ name: String, _ fallback: Int) -> Int {
  let arguments = CommandLine.arguments
  guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let value = Int(arguments[i + 1]) else {
    return fallback
  }
  return value
}

let runs = option("--runs", 5)
let latency = option("--latency", 20)
let stories = option("--stories", 500)
let concurrency = option("--concurrency", 8)
let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("news")

// The server, as a person starts it.
let server = Process()
server.executableURL = binary
server.arguments = ["serve", "--port", "0", "--latency", String(latency)]
let serverOutput = Pipe()
server.standardOutput = serverOutput
try server.run()
var firstLine = Data()
while !firstLine.contains(UInt8(ascii: "\n")) {
  let chunk = serverOutput.fileHandleForReading.availableData
  if chunk.isEmpty { fatalError("news serve ended before printing its address") }
  firstLine.append(chunk)
}
let banner = String(decoding: firstLine, as: UTF8.self).split(separator: "\n")[0]
let base = URL(string: String(banner.split(separator: " ").last!))!
defer { server.interrupt() }

func milliseconds(_ from: Date, _ to: Date) -> Double { to.timeIntervalSince(from) * 1000 }

struct Sample {
  var listed: Double
  var firstStory: Double
  var stories: Double
  var total: Double
  var printed: Int
  var failed: Int
}

func measureInProcess() -> Sample {
  let configuration = URLSessionConfiguration.ephemeral
  configuration.httpMaximumConnectionsPerHost = concurrency
  let api = API(baseURL: base, session: URLSession(configuration: configuration))
  let output = BufferOutput()
  let printer = FeedPrinter(output: output, options: OutputOptions(), retries: 3, title: "top stories")
  let queue = DispatchQueue(label: "benchmark.output")
  let done = DispatchSemaphore(value: 0)
  let start = Date()
  var end = start
  let cancellable = api.feed(.top, limit: stories, maxConcurrent: concurrency)
    .receive(on: queue)
    .sink(
      receiveCompletion: { _ in
        end = Date()
        done.signal()
      },
      receiveValue: printer.receive)
  done.wait()
  cancellable.cancel()
  let listed = printer.listedAt ?? start
  return Sample(
    listed: milliseconds(start, listed), firstStory: milliseconds(listed, printer.firstRowAt ?? end),
    stories: milliseconds(listed, end), total: milliseconds(start, end), printed: printer.printed,
    failed: printer.failed)
}

func measureBinary() -> Double {
  let process = Process()
  process.executableURL = binary
  // A fresh database each run, as on a first start: each story is written as it arrives.
  let data = FileManager.default.temporaryDirectory.appendingPathComponent("news-benchmark-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: data) }
  process.arguments = [
    "top", "--base-url", base.absoluteString, "--limit", String(stories), "--concurrency", String(concurrency),
    "--data-dir", data.path,
  ]
  process.standardOutput = FileHandle.nullDevice
  let start = Date()
  try! process.run()
  process.waitUntilExit()
  return milliseconds(start, Date())
}

let ideal = Double((stories + concurrency - 1) / concurrency * latency)
print("news-benchmark: \(stories) stories, latency \(latency) ms, concurrency \(concurrency), \(runs) runs")
print("server: \(banner)")
print("ideal for the stories: ⌈\(stories)/\(concurrency)⌉ × \(latency) ms = \(Int(ideal)) ms")
_ = measureInProcess()  // warm-up: connections, caches
var samples: [Sample] = []
var binaryTimes: [Double] = []
for run in 1...runs {
  let sample = measureInProcess()
  samples.append(sample)
  let whole = measureBinary()
  binaryTimes.append(whole)
  print(
    String(
      format:
        "run %d: list %.1f ms, first story %.1f ms after the list, %d stories in %.0f ms (%.2f× ideal), total %.0f ms; `news top` process %.0f ms%@",
      run, sample.listed, sample.firstStory, sample.printed, sample.stories, sample.stories / ideal, sample.total,
      whole,
      sample.failed > 0 ? " (\(sample.failed) failed)" : ""))
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let storiesMedian = median(samples.map(\.stories))
let firstMedian = median(samples.map(\.firstStory))
print(
  String(
    format:
      "median: stories %.0f ms = %.2f× the ideal %d ms (goal ≤ 1.3×); first story %.1f ms after the list (goal ≤ %d ms); `news top` process %.0f ms",
    storiesMedian, storiesMedian / ideal, Int(ideal), firstMedian, 2 * latency, median(binaryTimes)))
server.interrupt()
server.waitUntilExit()
