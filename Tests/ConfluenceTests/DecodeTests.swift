import Confluence
import ConfluenceFoundation
import ConfluenceTesting
import Foundation
import XCTest

/// A tiny decoder written for the tests: reads an `Int` from a string.
struct IntStringDecoder: TopLevelDecoder {
  func decode<T: Decodable>(_ type: T.Type, from input: String) throws -> T {
    guard let number = Int(input), let value = number as? T else { throw TestError("not a number: \(input)") }
    return value
  }
}

final class DecodeTests: XCTestCase {
  fileprivate struct PostmanEchoTimeStampCheckResponse: Decodable, Hashable {
    let valid: Bool
  }

  func test_bookExample_decodesJSON() {
    // "Using Combine", reference chapter, "decode": {"valid":true} becomes the struct.
    let subscriber = TestSubscriber<PostmanEchoTimeStampCheckResponse, any Error>()
    Just(Data(#"{"valid":true}"#.utf8))
      .decode(type: PostmanEchoTimeStampCheckResponse.self, decoder: JSONDecoder())
      .subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [PostmanEchoTimeStampCheckResponse(valid: true)])
    XCTAssertEqual(subscriber.eventDescriptions.last, "completion(finished)")
  }

  func test_decodesEachValue_withTinyCoder() {
    let subscriber = TestSubscriber<Int, any Error>()
    ["1", "2"].publisher.decode(type: Int.self, decoder: IntStringDecoder()).subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(Decode)", "value(1)", "value(2)", "completion(finished)"])
  }

  func test_decodingError_cancelsUpstreamAndFails() {
    let upstream = ScriptedPublisher<String, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.decode(type: Int.self, decoder: IntStringDecoder()).subscribe(subscriber)
    upstream.send("x")
    XCTAssertEqual(upstream.cancelCount, 1)
    upstream.send("1")
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Decode)", "completion(failure(not a number: x))"])
  }

  func test_catchAfterDecode_oneShotPattern() {
    // "Using Combine", "Using catch to handle errors in a one-shot pipeline": decode, then a placeholder.
    struct IPInfo: Codable, Equatable { var ip: String }
    let subscriber = TestSubscriber<IPInfo, Never>()
    Just(Data("not json".utf8))
      .decode(type: IPInfo.self, decoder: JSONDecoder())
      .catch { _ in Just(IPInfo(ip: "8.8.8.8")) }
      .subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Catch"), .value(IPInfo(ip: "8.8.8.8")), .completion(.finished)])
  }

  func test_demand_max1_andCancel() {
    let upstream = ScriptedPublisher<String, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(1))
    upstream.decode(type: Int.self, decoder: IntStringDecoder()).subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [.max(1)])
    XCTAssertEqual(upstream.send("5"), .none)
    subscriber.cancel()
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Decode)", "value(5)"])
  }
}
