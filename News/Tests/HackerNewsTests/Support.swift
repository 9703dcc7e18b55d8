import Combine
import Foundation
import HackerNews
import NewsServer
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Everything a publisher sent, collected until it completed.
struct Recording<Output, Failure: Error> {
  var values: [Output] = []
  var completion: Subscribers.Completion<Failure>?

  var failure: Failure? {
    if case .failure(let error) = completion { return error }
    return nil
  }
}

// Safe: `lock` guards `recording`.
private final class Recorder<Output, Failure: Error>: @unchecked Sendable {
  let lock = NSLock()
  var recording = Recording<Output, Failure>()
}

/// Subscribes to `publisher` and waits (at most `timeout` seconds) for it to complete.
func record<P: Publisher>(
  _ publisher: P, timeout: TimeInterval = 20, file: StaticString = #filePath, line: UInt = #line
) -> Recording<P.Output, P.Failure> {
  let recorder = Recorder<P.Output, P.Failure>()
  let done = DispatchSemaphore(value: 0)
  let cancellable = publisher.sink(
    receiveCompletion: { completion in
      recorder.lock.withLock { recorder.recording.completion = completion }
      done.signal()
    },
    receiveValue: { value in recorder.lock.withLock { recorder.recording.values.append(value) } })
  if done.wait(timeout: .now() + timeout) == .timedOut {
    XCTFail("the publisher did not complete within \(timeout) s", file: file, line: line)
  }
  cancellable.cancel()
  return recorder.lock.withLock { recorder.recording }
}

/// A session that opens up to `connections` connections to one host.
func makeSession(connections: Int = 8) -> URLSession {
  let configuration = URLSessionConfiguration.ephemeral
  configuration.httpMaximumConnectionsPerHost = connections
  return URLSession(configuration: configuration)
}

/// The JSON fixtures of the real API (`Fixtures/`).
func fixture(_ name: String) throws -> Data {
  let url = try XCTUnwrap(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "json"))
  return try Data(contentsOf: url)
}

/// A small snapshot folder written for a test: feeds, extra items and users.
func makeSnapshot(feeds: [String: [[String: Any]]], items: [[String: Any]] = [], users: [[String: Any]] = []) throws
  -> Snapshot
{
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("news-test-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  for (name, list) in feeds {
    try JSONSerialization.data(withJSONObject: list).write(to: folder.appendingPathComponent("\(name)stories.json"))
  }
  try JSONSerialization.data(withJSONObject: items).write(to: folder.appendingPathComponent("items.json"))
  try JSONSerialization.data(withJSONObject: users).write(to: folder.appendingPathComponent("users.json"))
  defer { try? FileManager.default.removeItem(at: folder) }
  return try Snapshot(folders: [folder])
}
