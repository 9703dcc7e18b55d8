import Confluence
import ConfluenceFoundation
import ConfluenceTesting
import Foundation
import XCTest

/// A tiny encoder written for the tests: describes the value, and refuses negative numbers.
struct DescribingEncoder: TopLevelEncoder {
  func encode<T: Encodable>(_ value: T) throws -> String {
    if let number = value as? Int, number < 0 { throw TestError("negative \(number)") }
    return "<\(value)>"
  }
}

final class EncodeTests: XCTestCase {
  struct Article: Codable, Equatable {
    let title: String
  }

  func test_encodesEachValue_withTinyCoder() {
    let subscriber = TestSubscriber<String, any Error>()
    [1, 2].publisher.encode(encoder: DescribingEncoder()).subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(Encode)", "value(<1>)", "value(<2>)", "completion(finished)"])
  }

  func test_encodesWithJSONEncoder() throws {
    let subscriber = TestSubscriber<Data, any Error>()
    Just(Article(title: "My First Article")).encode(encoder: JSONEncoder()).subscribe(subscriber)
    let data = try XCTUnwrap(subscriber.values.first)
    XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"title":"My First Article"}"#)
  }

  func test_encodingError_cancelsUpstreamAndFails() {
    let upstream = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<String, any Error>()
    upstream.encode(encoder: DescribingEncoder()).subscribe(subscriber)
    upstream.send(1)
    upstream.send(-1)
    XCTAssertEqual(upstream.cancelCount, 1)
    upstream.send(2)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(Encode)", "value(<1>)", "completion(failure(negative -1))"])
  }

  func test_passesDemand_max1_andNone() {
    let upstream = ScriptedPublisher<Int, Never>()
    let subscriber = TestSubscriber<String, any Error>(initialDemand: .none)
    upstream.encode(encoder: DescribingEncoder()).subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [])
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requests, [.max(1)])
  }

  func test_upstreamFailure_andCancel() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let failed = TestSubscriber<String, any Error>()
    upstream.encode(encoder: DescribingEncoder()).subscribe(failed)
    upstream.send(completion: .failure(TestError("up")))
    XCTAssertEqual(failed.eventDescriptions, ["subscription(Encode)", "completion(failure(up))"])

    let cancelled = TestSubscriber<String, any Error>()
    upstream.encode(encoder: DescribingEncoder()).subscribe(cancelled)
    cancelled.cancel()
    XCTAssertEqual(upstream.cancelCount, 1)
  }
}
