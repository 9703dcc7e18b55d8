import Confluence
import ConfluenceNetworking
import ConfluenceTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A value shared between a test and a server route's thread.
final class Shared<Value>: @unchecked Sendable {
  // @unchecked Sendable: `value` is read and written only inside `lock`.
  private let lock = NSLock()
  private var stored: Value

  init(_ value: Value) { stored = value }

  var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }

  func update<Result>(_ body: (inout Value) -> Result) -> Result { lock.withLock { body(&stored) } }
}

/// Waits (polling every 5 ms) until `condition` holds, at most `timeout` seconds; returns
/// whether it did. For what happens on the server's or the connection's threads, in real time.
func eventually(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
  let deadline = Date(timeIntervalSinceNow: timeout)
  while !condition() {
    if Date() >= deadline { return false }
    usleep(5_000)
  }
  return true
}

extension XCTestCase {
  /// Subscribes a test subscriber with `demand` and waits for its completion.
  func record<P: Publisher>(
    _ publisher: P, demand: Subscribers.Demand = .unlimited, timeout: TimeInterval = 10,
    file: StaticString = #filePath, line: UInt = #line
  ) -> TestSubscriber<P.Output, P.Failure> {
    let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: demand, file: file, line: line)
    let done = expectation(description: "completion")
    subscriber.onCompletion = { _ in done.fulfill() }
    publisher.subscribe(subscriber)
    wait(for: [done], timeout: timeout)
    return subscriber
  }
}

extension HTTPBytesPublisher.Part {
  /// The bytes, if this part is some.
  var bytes: Data? {
    if case .bytes(let bytes) = self { return bytes }
    return nil
  }

  /// The response, if this part is it.
  var response: HTTPURLResponse? {
    if case .response(let response) = self { return response }
    return nil
  }
}

extension LocalHTTPServer {
  func url(_ path: String) -> URL { URL(string: baseURL.absoluteString + path)! }
}
