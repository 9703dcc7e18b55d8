import Foundation
import XCTest

/// `--trace FILE` and `--trace-timeline`: a trace of the real run's pipelines, recorded
/// with ConfluenceTracing.
final class TraceTests: XCTestCase {
  private func traceFile() -> URL {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("news-trace-\(UUID().uuidString).json")
    addTeardownBlock { try? FileManager.default.removeItem(at: file) }
    return file
  }

  /// One lane of the trace: its name and its events (`ph`, `name`) in time order.
  private struct Lane {
    var name: String
    var events: [(phase: String, name: String, ts: Double)] = []
  }

  private func lanes(of file: URL) throws -> [Int: Lane] {
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
    let events = try XCTUnwrap((json as? [String: Any])?["traceEvents"] as? [[String: Any]], "no traceEvents")
    var lanes: [Int: Lane] = [:]
    for event in events {
      let phase = try XCTUnwrap(event["ph"] as? String)
      let name = try XCTUnwrap(event["name"] as? String)
      guard let tid = event["tid"] as? Int, tid > 0 else { continue }
      if phase == "M", name == "thread_name" {
        lanes[tid, default: Lane(name: "")].name = try XCTUnwrap((event["args"] as? [String: Any])?["name"] as? String)
      } else if phase != "C" {
        let ts = try XCTUnwrap((event["ts"] as? NSNumber)?.doubleValue, "\(event)")
        lanes[tid, default: Lane(name: "")].events.append((phase, name, ts))
      }
    }
    return lanes
  }

  func test_top_withTrace_writesTraceEventJSON_withALanePerRequest_eightInFlight() throws {
    let file = traceFile()
    // 200 ms a request, so that the eight requests --concurrency allows are surely all in
    // flight before the first answer.
    let run = try news(["top", "--demo", "--latency", "200", "--limit", "10", "--trace", file.path])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(run.stdout.split(separator: "\n").count, 20, "ten stories, two rows each")
    XCTAssertEqual(run.stderr, "")

    let lanes = try lanes(of: file)
    XCTAssertFalse(lanes.values.contains { $0.name.isEmpty }, "a lane without a thread_name")
    // The requests: one for the list of ids, one per story (no retries without faults).
    let requests = lanes.filter { $0.value.name.hasSuffix(" DataTaskPublisher") }
    XCTAssertEqual(requests.count, 11, lanes.values.map(\.name).sorted().joined(separator: "\n"))
    for (id, lane) in requests {
      XCTAssertEqual(lane.name, "#\(id) DataTaskPublisher")
      // Each: a slice from subscribe to completion, holding the subscription, an unlimited
      // request (URLSession's publisher sends one value), the response, the end.
      XCTAssertEqual(
        lane.events.map { "\($0.phase) \($0.name)" },
        [
          "B DataTaskPublisher", "i subscribe", "i subscription", "i request", "i value", "i finished",
          "E DataTaskPublisher",
        ],
        lane.name)
    }
    // At most --concurrency (8) requests in flight, and eight at once while the stories load.
    var edges: [(ts: Double, step: Int)] = []
    for lane in requests.values {
      for event in lane.events where event.phase == "B" || event.phase == "E" {
        edges.append((event.ts, event.phase == "B" ? 1 : -1))
      }
    }
    // An end and a start at the same time: the end first.
    edges.sort { $0.ts < $1.ts || ($0.ts == $1.ts && $0.step < $1.step) }
    var inFlight = 0
    var most = 0
    for edge in edges {
      inFlight += edge.step
      most = max(most, inFlight)
    }
    XCTAssertEqual(most, 8)
    XCTAssertEqual(inFlight, 0, "a request never finished")
  }

  func test_item_withTraceTimeline_printsTheTimelineOnStandardError_andTheThreadOnStandardOutput() throws {
    let run = try news(["item", "8863", "--demo", "--latency", "0", "--trace-timeline"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stdout.contains("My YC app: Dropbox"), run.stdout)
    let lines = run.stderr.split(separator: "\n")
    // One request per item asked for: the story, its 33 top-level comment ids, and the 3
    // replies of the four comments the demo has (the others are `null`, with no replies).
    let requests = lines.filter { $0.contains(" DataTaskPublisher ") }
    XCTAssertEqual(requests.filter { $0.hasSuffix(" subscribed") }.count, 37, run.stderr)
    XCTAssertEqual(requests.filter { $0.hasSuffix(" finished") }.count, 37, run.stderr)
  }

  func test_trace_toAFolderThatDoesNotExist_isAWarning_andTheCommandSucceeds() throws {
    let run = try news(["top", "--demo", "--latency", "0", "--limit", "2", "--trace", "/nonexistent-folder/t.json"])
    XCTAssertEqual(run.status, 0)
    XCTAssertTrue(
      run.stderr.hasPrefix("news: warning: cannot write the trace to /nonexistent-folder/t.json: "), run.stderr)
  }
}
