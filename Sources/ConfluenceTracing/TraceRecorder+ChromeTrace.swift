import Confluence
import Foundation

extension TraceRecorder {
  /// The events kept, as Chrome trace-event JSON, which the Perfetto UI
  /// (ui.perfetto.dev) and `chrome://tracing` open.
  ///
  /// Every subscription is a thread-like track (`tid` is the lane number, named by a
  /// `thread_name` metadata event `#<lane> <name>`) holding a slice from the subscribe to
  /// the completion or cancel (`B`/`E` events); the subscription, requests, returned
  /// demand, values, completion and cancel are instant events (`ph: "i"`, `s: "t"`) on
  /// it, with the recording thread in `args.thread`; and the lane's outstanding demand is
  /// a counter (`ph: "C"`, named `demand #<lane> <name>`; -1 stands for unlimited).
  /// Times (`ts`) are microseconds since the recording started.
  ///
  /// ```swift
  /// try recorder.chromeTraceJSON().write(toFile: "trace.json", atomically: true, encoding: .utf8)
  /// ```
  public func chromeTraceJSON() -> String {
    let events = self.events
    var lines: [String] = []
    lines.append(
      #"{"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"Confluence pipelines"}}"#)
    var named = Set<Int>()
    var outstanding: [Int: Subscribers.Demand] = [:]
    var open = Set<Int>()
    for event in events {
      let lane = event.lane
      let ts = Self.microseconds(event.time)
      let laneTitle = "#\(lane) \(event.laneName)"
      if named.insert(lane).inserted {
        lines.append(
          #"{"name":"thread_name","ph":"M","pid":1,"tid":\#(lane),"args":{"name":\#(Self.json(laneTitle))}}"#)
      }
      func instant(_ name: String, _ args: [(String, String)] = []) {
        let fields = ([("thread", "\(event.thread)")] + args).map { "\(Self.json($0.0)):\($0.1)" }
        lines.append(
          #"{"name":\#(Self.json(name)),"cat":"pipeline","ph":"i","s":"t","ts":\#(ts),"pid":1,"tid":\#(lane),"args":{\#(fields.joined(separator: ","))}}"#
        )
      }
      func counter(_ demand: Subscribers.Demand) {
        let value = demand.max.map(String.init) ?? "-1"
        lines.append(
          #"{"name":\#(Self.json("demand " + laneTitle)),"ph":"C","ts":\#(ts),"pid":1,"tid":\#(lane),"args":{"outstanding":\#(value)}}"#
        )
      }
      func begin() {
        guard open.insert(lane).inserted else { return }
        lines.append(
          #"{"name":\#(Self.json(event.laneName)),"cat":"subscription","ph":"B","ts":\#(ts),"pid":1,"tid":\#(lane)}"#)
      }
      func end() {
        guard open.remove(lane) != nil else { return }
        lines.append(
          #"{"name":\#(Self.json(event.laneName)),"cat":"subscription","ph":"E","ts":\#(ts),"pid":1,"tid":\#(lane)}"#)
      }
      switch event.kind {
      case .subscribed:
        begin()
        instant("subscribe")
      case .subscription(let description):
        begin()
        instant("subscription", [("subscription", Self.json(description))])
      case .request(let demand):
        instant("request", [("demand", Self.json(demand.description))])
        outstanding[lane, default: .none] += demand
        counter(outstanding[lane, default: .none])
      case .demandReturned(let demand):
        instant("demand returned", [("demand", Self.json(demand.description))])
        outstanding[lane, default: .none] += demand
        counter(outstanding[lane, default: .none])
      case .value(let value):
        instant("value", [("value", Self.json(value))])
        if let current = outstanding[lane], current > 0 {
          outstanding[lane] = current - 1
          counter(current - 1)
        }
      case .finished:
        instant("finished")
        end()
      case .failure(let error):
        instant("failure", [("error", Self.json(error))])
        end()
      case .cancel:
        instant("cancel")
        end()
      }
    }
    return "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n" + lines.joined(separator: ",\n") + "\n]}\n"
  }

  /// Writes ``chromeTraceJSON()`` to the file at `path`, replacing it.
  ///
  /// - Throws: What writing the file throws.
  public func writeChromeTrace(toFile path: String) throws {
    try chromeTraceJSON().write(toFile: path, atomically: true, encoding: .utf8)
  }

  /// Microseconds, with nanosecond precision, as JSON text.
  private static func microseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    let whole = nanoseconds / 1_000
    let fraction = nanoseconds % 1_000
    return fraction == 0 ? "\(whole)" : "\(whole)." + String(String(fraction + 1_000).dropFirst())
  }

  /// A JSON string literal.
  private static func json(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          out += "\\u" + String(String(scalar.value + 0x10000, radix: 16).dropFirst())
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
