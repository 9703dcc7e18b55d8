// confluence-soak: a load test, not a timed unit test. Eight threads send into a few
// PassthroughSubjects shared by subscribers that come and go (each a map → filter → sink,
// subscribed, kept for a short while, cancelled, from two other threads) for a set time.
// Every second it prints values delivered per second and the resident memory; at the end,
// the totals, the peak memory and how much memory grew between the first and the last
// quarter of the run (it should stay flat: nothing is kept per value or per subscriber).
//
//   swift run -c release --package-path Benchmarks confluence-soak [--seconds 60]
//       [--senders 8] [--subjects 4] [--subscriber-threads 2] [--live 64]

import Confluence
import Foundation
import Synchronization

struct SoakOptions {
  var seconds = 60
  var senders = 8
  var subjects = 4
  var subscriberThreads = 2
  /// How many subscriptions each subscriber thread keeps alive at once.
  var live = 64

  init(arguments: [String]) {
    var rest = arguments[...]
    func number(_ flag: String) -> Int {
      guard let text = rest.popFirst(), let value = Int(text), value > 0 else {
        fatalError("\(flag) needs a positive whole number")
      }
      return value
    }
    while let argument = rest.popFirst() {
      switch argument {
      case "--seconds": seconds = number(argument)
      case "--senders": senders = number(argument)
      case "--subjects": subjects = number(argument)
      case "--subscriber-threads": subscriberThreads = number(argument)
      case "--live": live = number(argument)
      case "-h", "--help":
        print("usage: confluence-soak [--seconds N] [--senders N] [--subjects N] [--subscriber-threads N] [--live N]")
        exit(0)
      default:
        fatalError("unknown argument \(argument); try --help")
      }
    }
  }
}

/// Resident set size and its high-water mark, in MiB, from /proc/self/status.
func memory() -> (rss: Double, peak: Double) {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
  func field(_ name: String) -> Double {
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
    let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Double($0) }
    return (kilobytes ?? 0) / 1024
  }
  return (field("VmRSS"), field("VmHWM"))
}

let options = SoakOptions(arguments: Array(CommandLine.arguments.dropFirst()))
let subjects = (0..<options.subjects).map { _ in PassthroughSubject<Int, Never>() }
let delivered = Atomic<Int>(0)
let sent = Atomic<Int>(0)
let subscriptions = Atomic<Int>(0)
let stop = Atomic<Bool>(false)
let done = DispatchGroup()

for sender in 0..<options.senders {
  done.enter()
  Thread.detachNewThread {
    let subject = subjects[sender % subjects.count]
    var value = sender
    var batch = 0
    while !stop.load(ordering: .relaxed) {
      for _ in 0..<256 {
        subject.send(value)
        value &+= 1
      }
      batch += 256
      if batch >= 4096 {
        sent.add(batch, ordering: .relaxed)
        batch = 0
      }
    }
    sent.add(batch, ordering: .relaxed)
    done.leave()
  }
}

for thread in 0..<options.subscriberThreads {
  done.enter()
  Thread.detachNewThread {
    var random = SystemRandomNumberGenerator()
    var live: [AnyCancellable] = []
    var index = thread
    while !stop.load(ordering: .relaxed) {
      let subject = subjects[index % subjects.count]
      index &+= 1
      let cancellable =
        subject
        .map { $0 &* 3 &+ 1 }
        .filter { $0 & 2 == 0 }
        .sink { _ in delivered.add(1, ordering: .relaxed) }
      live.append(cancellable)
      subscriptions.add(1, ordering: .relaxed)
      if live.count >= options.live {
        live.remove(at: Int.random(in: 0..<live.count, using: &random)).cancel()
      }
      usleep(UInt32.random(in: 0...200, using: &random))
    }
    live.forEach { $0.cancel() }
    done.leave()
  }
}

print("| second | values delivered / s | sends / s | subscriptions / s | RSS MiB |")
print("| ---: | ---: | ---: | ---: | ---: |")
var samples: [Double] = []
var lastDelivered = 0
var lastSent = 0
var lastSubscriptions = 0
let start = ContinuousClock.now
for second in 1...options.seconds {
  Thread.sleep(until: Date(timeIntervalSinceNow: 1))
  let nowDelivered = delivered.load(ordering: .relaxed)
  let nowSent = sent.load(ordering: .relaxed)
  let nowSubscriptions = subscriptions.load(ordering: .relaxed)
  let rss = memory().rss
  samples.append(rss)
  print(
    "| \(second) | \(nowDelivered - lastDelivered) | \(nowSent - lastSent) | \(nowSubscriptions - lastSubscriptions) | "
      + String(format: "%.1f", rss) + " |")
  lastDelivered = nowDelivered
  lastSent = nowSent
  lastSubscriptions = nowSubscriptions
}
stop.store(true, ordering: .relaxed)
done.wait()
let elapsed = ContinuousClock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
let quarter = max(1, samples.count / 4)
let early = samples.prefix(quarter).reduce(0, +) / Double(quarter)
let late = samples.suffix(quarter).reduce(0, +) / Double(quarter)
print("")
print(
  "senders \(options.senders), subjects \(options.subjects), subscriber threads \(options.subscriberThreads), "
    + "\(options.live) live subscriptions per thread, \(String(format: "%.1f", seconds)) s")
print(String(format: "values delivered: %.0f per second (%ld in all)", Double(lastDelivered) / seconds, lastDelivered))
print(String(format: "sends: %.0f per second", Double(lastSent) / seconds))
print(String(format: "subscriptions made and cancelled: %.0f per second", Double(lastSubscriptions) / seconds))
print(
  String(
    format: "memory: peak %.1f MiB; mean RSS first quarter %.1f MiB, last quarter %.1f MiB (%+.1f%%)",
    memory().peak, early, late, early > 0 ? (late - early) / early * 100 : 0))
