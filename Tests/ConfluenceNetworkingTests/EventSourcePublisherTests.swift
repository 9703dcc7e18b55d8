import Confluence
import ConfluenceFoundation
import ConfluenceNetworking
import ConfluenceTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `EventSourcePublisher` against `LocalHTTPServer` on 127.0.0.1: events split anywhere by
/// the network, reconnection on virtual time (`TestScheduler`) with `retry`, `Last-Event-ID`
/// and backoff, the ways a stream ends, demand, cancel and volume.
final class EventSourcePublisherTests: XCTestCase {
  private typealias Updates = TestSubscriber<EventSourceUpdate, HTTPStreamError>

  private var server: LocalHTTPServer!
  private var scheduler: TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>!

  override func setUpWithError() throws {
    server = try LocalHTTPServer()
    scheduler = .dispatchQueue()
  }

  override func tearDown() {
    server.stop()
    server = nil
    scheduler = nil
  }

  private func publisher(
    _ path: String, configure: (inout EventSourceConfiguration) -> Void = { _ in }
  ) -> EventSourcePublisher<TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>> {
    var configuration = EventSourceConfiguration()
    configure(&configuration)
    return URLSession.shared.eventSourcePublisher(
      for: server.url(path), scheduler: scheduler, configuration: configuration)
  }

  private func subscribe(
    _ path: String, demand: Subscribers.Demand = .unlimited, strict: Bool = true,
    configure: (inout EventSourceConfiguration) -> Void = { _ in }
  ) -> Updates {
    let subscriber = Updates(initialDemand: demand, strictCancellation: strict)
    publisher(path, configure: configure).subscribe(subscriber)
    return subscriber
  }

  private func events(_ subscriber: Updates) -> [ServerSentEvent] { subscriber.values.compactMap(\.event) }

  private func reconnections(_ subscriber: Updates) -> [EventSourceReconnection] {
    subscriber.values.compactMap {
      if case .reconnecting(let reconnection) = $0 { return reconnection }
      return nil
    }
  }

  /// A route that answers each connection with events `after+1 … after+perConnection` (after
  /// the request's `Last-Event-ID`), then the start of the next event and a drop; once
  /// `total` events are out it answers 204. Every connection starts with `retry: 500`.
  private func routeResumableStream(_ path: String, total: Int, perConnection: Int, withIDs: Bool = true) {
    server.route(
      path,
      .decide { request in
        let after = Int(request.header("Last-Event-ID") ?? "0") ?? 0
        guard after < total else { return .respond(status: 204, body: Data(), contentType: "text/event-stream") }
        return .stream(contentType: "text/event-stream") { writer in
          let after = Int(writer.request.header("Last-Event-ID") ?? "0") ?? 0
          var text = "retry: 500\n"
          for id in (after + 1)...min(after + perConnection, total) {
            text += (withIDs ? "id: \(id)\n" : "") + "event: tick\ndata: event \(id)\ndata: line 2\n\n"
          }
          guard writer.write(text) else { return }
          writer.pause(0.01)
          writer.write("id: \(after + perConnection + 1)\ndata: cut sh")
          writer.pause(0.01)
          writer.drop()
        }
      })
  }

  // MARK: Events

  func test_events_areDeliveredAfterOpen_withTheirTypeDataAndID() {
    server.route(
      "/events",
      .stream(contentType: "text/event-stream; charset=utf-8") { writer in
        writer.write(": welcome\n\nevent: put\nid: 1\ndata: {\"path\":\"/\",\"data\":[1,2]}\n\n")
        writer.pause(0.02)
        writer.write("event: keep-alive\ndata: null\n\ndata: plain\ndata: two lines\n\n")
        _ = writer.waitForClientToClose(timeout: 5)
      })
    let subscriber = subscribe("/events", strict: false)
    XCTAssertTrue(eventually { subscriber.values.count == 4 })
    XCTAssertEqual(
      subscriber.values,
      [
        .open,
        .event(ServerSentEvent(type: "put", data: #"{"path":"/","data":[1,2]}"#, id: "1")),
        .event(ServerSentEvent(type: "keep-alive", data: "null", id: "1")),
        .event(ServerSentEvent(type: "message", data: "plain\ntwo lines", id: "1")),
      ])
    XCTAssertEqual(subscriber.subscriptionDescription, "EventSourcePublisher")
    subscriber.cancel()
  }

  func test_requestHeaders_acceptEventStream_noStore_andTheCallersOwn() {
    server.route("/events", .respond(status: 204, body: Data()))
    var request = URLRequest(url: server.url("/events"))
    request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
    let subscriber = record(URLSession.shared.eventSourcePublisher(for: request, scheduler: scheduler))
    XCTAssertEqual(subscriber.completion, .finished)
    let received = server.receivedRequests.first
    XCTAssertEqual(received?.header("Accept"), "text/event-stream")
    XCTAssertEqual(received?.header("Cache-Control"), "no-store")
    XCTAssertEqual(received?.header("Authorization"), "Bearer t")
    XCTAssertNil(received?.header("Last-Event-ID"), "no ID yet, no header")
  }

  func test_eventsSplitAtEveryByteBoundary_overTheNetwork_arriveWhole() {
    let stream = Array("\u{FEFF}id: 7\r\nevent: patch\r\ndata: {\"score\":42}\r\ndata: ü€🎉\r\n\r\n".utf8)
    let expected = ServerSentEvent(type: "patch", data: "{\"score\":42}\nü€🎉", id: "7")
    for split in 1..<stream.count {
      server.route(
        "/split\(split)",
        .stream(contentType: "text/event-stream") { writer in
          writer.write(Data(stream[..<split]))
          writer.pause(0.002)
          writer.write(Data(stream[split...]))
          _ = writer.waitForClientToClose(timeout: 5)
        })
    }
    for split in 1..<stream.count {
      let subscriber = subscribe("/split\(split)", strict: false)
      XCTAssertTrue(eventually(timeout: 5) { subscriber.values.count == 2 }, "split at \(split)")
      XCTAssertEqual(subscriber.values, [.open, .event(expected)], "split at \(split)")
      subscriber.cancel()
    }
  }

  func test_slowAndBurstyChunks_deliverEveryEventInOrder() {
    var stream: [UInt8] = []
    for id in 1...200 {
      stream += Array("id: \(id)\ndata: \(String(repeating: "•", count: id % 13))\(id)\n\n".utf8)
      if id % 10 == 0 { stream += Array(": keep-alive\n\n".utf8) }
    }
    let bytes = stream
    server.route(
      "/bursty",
      .stream(contentType: "text/event-stream") { writer in
        var offset = 0
        var step = 0
        while offset < bytes.count {
          let size = [1, 3, 700, 5, 2000, 17][step % 6]
          let end = min(offset + size, bytes.count)
          guard writer.write(Data(bytes[offset..<end])) else { return }
          if step % 7 == 0 { writer.pause(0.003) }
          offset = end
          step += 1
        }
        _ = writer.waitForClientToClose(timeout: 5)
      })
    let subscriber = subscribe("/bursty", strict: false)
    XCTAssertTrue(eventually { self.events(subscriber).count == 200 })
    XCTAssertEqual(events(subscriber).map(\.id), (1...200).map(String.init))
    XCTAssertEqual(events(subscriber).map(\.data), (1...200).map { String(repeating: "•", count: $0 % 13) + "\($0)" })
    subscriber.cancel()
  }

  // MARK: Reconnection

  func test_droppedConnection_reconnectsAfterTheServersRetry_withLastEventID_noEventLostOrRepeated() {
    routeResumableStream("/stream", total: 9, perConnection: 3)
    let subscriber = subscribe("/stream")
    for connection in 1...3 {
      XCTAssertTrue(eventually { self.reconnections(subscriber).count == connection }, "drop \(connection)")
      let reconnection = reconnections(subscriber).last
      XCTAssertEqual(reconnection?.delay, .milliseconds(500), "the server's retry")
      XCTAssertEqual(reconnection?.attempt, 1)
      XCTAssertEqual(reconnection?.lastEventID, String(connection * 3))
      XCTAssertEqual(reconnection?.error, .connectionFailed(URLError(.networkConnectionLost)))
      scheduler.advance(by: .milliseconds(499))
      usleep(50_000)
      XCTAssertEqual(server.receivedRequests.count, connection, "no reconnection before the retry time")
      scheduler.advance(by: .milliseconds(1))
      XCTAssertTrue(eventually { self.server.receivedRequests.count == connection + 1 }, "reconnected")
      XCTAssertEqual(server.receivedRequests.last?.header("Last-Event-ID"), String(connection * 3))
    }
    XCTAssertTrue(eventually { subscriber.completion != nil }, "after 9 events the server answers 204")
    XCTAssertEqual(events(subscriber).map(\.id), (1...9).map(String.init), "every event once, in order")
    XCTAssertEqual(events(subscriber).map(\.data), (1...9).map { "event \($0)\nline 2" })
    XCTAssertEqual(subscriber.values.filter { $0 == .open }.count, 3)
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_reconnect_withoutIDs_sendsNoLastEventID() {
    let connections = Shared(0)
    server.route(
      "/anonymous",
      .stream(contentType: "text/event-stream") { writer in
        let number = connections.update {
          $0 += 1; return $0
        }
        writer.write("data: connection \(number)\n\n")
        writer.pause(0.01)
        writer.drop()
      })
    let subscriber = subscribe("/anonymous") { $0.reconnectionTime = .milliseconds(100) }
    XCTAssertTrue(eventually { self.reconnections(subscriber).count == 1 })
    XCTAssertEqual(reconnections(subscriber).first?.lastEventID, "")
    scheduler.advance(by: .milliseconds(100))
    XCTAssertTrue(eventually { self.events(subscriber).count == 2 })
    XCTAssertEqual(events(subscriber).map(\.data), ["connection 1", "connection 2"])
    XCTAssertEqual(server.receivedRequests.map { $0.header("Last-Event-ID") }, [nil, nil])
    subscriber.cancel()
  }

  func test_lastEventIDFromTheConfiguration_isSentOnTheFirstConnection() {
    routeResumableStream("/stream", total: 6, perConnection: 3)
    let subscriber = subscribe("/stream", strict: false) { $0.lastEventID = "4" }
    XCTAssertTrue(eventually { self.events(subscriber).count == 2 })
    XCTAssertEqual(server.receivedRequests.first?.header("Last-Event-ID"), "4")
    XCTAssertEqual(events(subscriber).map(\.id), ["5", "6"])
    subscriber.cancel()
  }

  func test_serverClosingTheStream_isAReconnection_withNoError() {
    server.route(
      "/ends",
      .stream(contentType: "text/event-stream") { writer in
        writer.write("id: 1\ndata: only\n\n")
      })
    let subscriber = subscribe("/ends") { $0.reconnectionTime = .seconds(2) }
    XCTAssertTrue(eventually { self.reconnections(subscriber).count == 1 })
    XCTAssertEqual(
      reconnections(subscriber), [EventSourceReconnection(attempt: 1, delay: .seconds(2), lastEventID: "1", error: nil)]
    )
    subscriber.cancel()
  }

  func test_failedAttemptsInARow_backOffExponentially_toTheMaximum_thenFail() {
    server.route("/refuses", .drop)
    let subscriber = subscribe("/refuses") {
      $0.reconnectionTime = .milliseconds(100)
      $0.maximumReconnectionDelay = .milliseconds(350)
      $0.maximumReconnectAttempts = 4
    }
    for attempt in 1...4 {
      XCTAssertTrue(eventually { self.reconnections(subscriber).count == attempt }, "attempt \(attempt)")
      scheduler.advance(
        by: reconnections(subscriber).last.map {
          .milliseconds(
            Int($0.delay.components.seconds * 1000) + Int($0.delay.components.attoseconds / 1_000_000_000_000_000))
        } ?? .zero)
    }
    XCTAssertTrue(eventually { subscriber.completion != nil })
    XCTAssertEqual(reconnections(subscriber).map(\.attempt), [1, 2, 3, 4])
    XCTAssertEqual(
      reconnections(subscriber).map(\.delay),
      [.milliseconds(100), .milliseconds(200), .milliseconds(350), .milliseconds(350)])
    XCTAssertEqual(server.receivedRequests.count, 5)
    XCTAssertEqual(subscriber.completion, .failure(.connectionFailed(URLError(.networkConnectionLost))))
  }

  func test_anOpenConnection_resetsTheBackoff() {
    server.route("/flaky", .drop)
    let subscriber = subscribe("/flaky") { $0.reconnectionTime = .milliseconds(100) }
    XCTAssertTrue(eventually { self.reconnections(subscriber).count == 1 })
    scheduler.advance(by: .milliseconds(100))
    XCTAssertTrue(eventually { self.reconnections(subscriber).count == 2 })
    // The third connection opens, delivers one event and drops.
    server.route(
      "/flaky",
      .stream(contentType: "text/event-stream") { writer in
        writer.write("data: at last\n\n")
        writer.pause(0.01)
        writer.drop()
      })
    scheduler.advance(by: .milliseconds(200))
    XCTAssertTrue(eventually { self.reconnections(subscriber).count == 3 })
    XCTAssertEqual(reconnections(subscriber).map(\.attempt), [1, 2, 1])
    XCTAssertEqual(
      reconnections(subscriber).map(\.delay), [.milliseconds(100), .milliseconds(200), .milliseconds(100)])
    XCTAssertEqual(events(subscriber).map(\.data), ["at last"])
    XCTAssertEqual(subscriber.values.filter { $0 == .open }.count, 1)
    subscriber.cancel()
  }

  // MARK: How a stream ends

  func test_204_finishesCleanly() {
    server.route("/done", .respond(status: 204, body: Data()))
    let subscriber = record(publisher("/done"))
    XCTAssertEqual(subscriber.values, [])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_wrongContentType_failsWithUnexpectedContentType_theSignToPoll() {
    server.route("/v0/topstories.json", .respond(status: 200, body: Data("[1,2,3]".utf8)))
    let subscriber = record(publisher("/v0/topstories.json"))
    XCTAssertEqual(subscriber.values, [])
    XCTAssertEqual(subscriber.completion, .failure(.unexpectedContentType("application/json")))
    XCTAssertEqual(server.requestedPaths.count, 1, "no reconnection")
  }

  func test_statusOtherThan200_failsWithUnacceptableStatus() {
    for status in [500, 404, 201, 500, 404, 503, 404, 500] {
      server.route("/s\(status)", .respond(status: status, body: Data(), contentType: "text/event-stream"))
      let subscriber = record(publisher("/s\(status)"))
      XCTAssertEqual(subscriber.completion, .failure(.unacceptableStatus(status)), "\(status)")
    }
  }

  func test_eventBeyondTheLimit_failsWithEventTooLarge_andClosesTheConnection() {
    server.route(
      "/huge",
      .stream(contentType: "text/event-stream") { writer in
        for _ in 0..<100 { guard writer.write("data: " + String(repeating: "z", count: 100) + "\n") else { return } }
        _ = writer.waitForClientToClose(timeout: 5)
      })
    let subscriber = record(publisher("/huge") { $0.maximumEventLength = 2_000 })
    XCTAssertEqual(subscriber.completion, .failure(.eventTooLarge(maximumLength: 2_000)))
    XCTAssertTrue(eventually(timeout: 3) { self.server.closedBeforeAnswer == ["/huge"] })
  }

  // MARK: Demand and cancel

  func test_demandOfOne_readsOnlyWhatIsAskedFor_theServerBlocks_thenEverythingArrives() {
    let blockedAfter = Shared<Int?>(nil)
    let written = Shared(0)
    server.route(
      "/firehose",
      .stream(contentType: "text/event-stream") { writer in
        var id = 0
        while writer.bytesWritten < 64 << 20 {
          id += 1
          let event = Data("id: \(id)\ndata: \(String(repeating: "e", count: 1000))\n\n".utf8)
          if writer.write(event, within: 0.5) != .written {
            id -= 1  // that one did not go out whole: it will be cut short by the close
            break
          }
        }
        blockedAfter.value = writer.bytesWritten
        written.value = id
        writer.drop()
      })
    let subscriber = subscribe("/firehose", demand: .max(2))
    XCTAssertTrue(eventually { blockedAfter.value != nil })
    XCTAssertEqual(subscriber.values.count, 2, "open and one event, as asked")
    let bytes = blockedAfter.value ?? .max
    XCTAssertLessThan(bytes, 768 * 1024, "the publisher read ahead of demand")
    subscriber.request(.unlimited)
    XCTAssertTrue(eventually(timeout: 20) { self.reconnections(subscriber).count == 1 })
    XCTAssertEqual(events(subscriber).map(\.id), (1...written.value).map(String.init))
    print("EventSourcePublisher, demand of 1 event: the server blocked after \(bytes) bytes")
    subscriber.cancel()
  }

  func test_reconnection_waitsForDemand_toDeliverItsUpdate() {
    routeResumableStream("/stream", total: 6, perConnection: 3)
    let subscriber = subscribe("/stream", demand: .max(4))  // open + 3 events
    XCTAssertTrue(eventually { self.events(subscriber).count == 3 })
    usleep(100_000)
    scheduler.advance(by: .seconds(10))
    usleep(50_000)
    XCTAssertEqual(server.receivedRequests.count, 1, "no reconnection before its update was delivered")
    subscriber.request(.max(1))
    XCTAssertTrue(eventually { self.reconnections(subscriber).count == 1 })
    scheduler.advance(by: .milliseconds(500))
    XCTAssertTrue(eventually { self.server.receivedRequests.count == 2 })
    subscriber.cancel()
  }

  func test_cancelDuringARead_closesTheConnection() {
    server.route(
      "/open",
      .stream(contentType: "text/event-stream") { writer in
        writer.write("data: hello\n\n")
        _ = writer.waitForClientToClose(timeout: 10)
      })
    let subscriber = subscribe("/open", strict: false)
    XCTAssertTrue(eventually { subscriber.values.count == 2 })
    subscriber.cancel()
    XCTAssertTrue(eventually(timeout: 3) { self.server.closedBeforeAnswer == ["/open"] })
    XCTAssertNil(subscriber.completion)
  }

  func test_cancelWhileWaitingToReconnect_makesNoNewConnection() {
    routeResumableStream("/stream", total: 6, perConnection: 3)
    let subscriber = subscribe("/stream")
    XCTAssertTrue(eventually { self.reconnections(subscriber).count == 1 })
    subscriber.cancel()
    scheduler.advance(by: .seconds(5))
    usleep(100_000)
    XCTAssertEqual(server.receivedRequests.count, 1)
    XCTAssertNil(subscriber.completion)
  }

  func test_cancel_freesTheSubscription() {
    server.route(
      "/open",
      .stream(contentType: "text/event-stream") { writer in
        writer.write("data: hello\n\n")
        _ = writer.waitForClientToClose(timeout: 10)
      })
    weak var weakSubscription: AnyObject?
    do {
      let subscriber = subscribe("/open", strict: false)
      XCTAssertTrue(eventually { subscriber.values.count == 2 })
      weakSubscription = subscriber.subscription as AnyObject?
      subscriber.cancel()
    }
    XCTAssertTrue(eventually(timeout: 3) { weakSubscription == nil })
  }

  func test_eventsPublisher_deliversTheEventsOnly() {
    routeResumableStream("/stream", total: 2, perConnection: 2)
    let subscriber = TestSubscriber<ServerSentEvent, HTTPStreamError>()
    publisher("/stream").events().subscribe(subscriber)
    XCTAssertTrue(eventually { subscriber.values.count == 2 })
    XCTAssertEqual(subscriber.values.map(\.data), ["event 1\nline 2", "event 2\nline 2"])
    subscriber.cancel()
  }

  /// Over `URLSession`, which cannot pause, a subscriber that falls behind overflows the
  /// buffer; the stream reconnects with `Last-Event-ID` and loses nothing.
  func test_overURLSession_aSubscriberThatFallsBehind_reconnectsWhereItLeftOff() {
    let total = 2_000
    server.route(
      "/fast",
      .decide { request in
        let after = Int(request.header("Last-Event-ID") ?? "0") ?? 0
        guard after < total else { return .respond(status: 204, body: Data()) }
        return .stream(contentType: "text/event-stream") { writer in
          for id in (after + 1)...total {
            guard writer.write("id: \(id)\ndata: \(String(repeating: "f", count: 200))\n\n") else { return }
          }
        }
      })
    let subscriber = subscribe("/fast", demand: .max(2)) {
      $0.transport = .urlSession(bufferLimit: 64 * 1024)
      $0.reconnectionTime = .milliseconds(10)
    }
    XCTAssertTrue(eventually { self.server.receivedRequests.count == 1 && subscriber.values.count == 2 })
    usleep(300_000)  // the session reads on: the buffer overflows while nobody asks
    subscriber.request(.unlimited)
    var advanced = 0
    let deadline = Date(timeIntervalSinceNow: 20)
    while subscriber.completion == nil, Date() < deadline {
      let pending = reconnections(subscriber)
      if pending.count > advanced {
        advanced = pending.count
        scheduler.advance(by: .seconds(61))  // beyond any backoff (at most 60 s)
      }
      usleep(5_000)
    }
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(reconnections(subscriber).first?.error, .bufferLimitExceeded(64 * 1024))
    XCTAssertEqual(events(subscriber).map(\.id), (1...total).map(String.init), "every event once, in order")
  }

  // MARK: Volume

  /// 10,000 events over five connections, each dropped mid-event, resumed with
  /// `Last-Event-ID` on a real dispatch queue (the server's `retry: 1`).
  func test_tenThousandEvents_acrossReconnections_withoutLossOrRepetition() {
    let total = 10_000
    server.route(
      "/many",
      .decide { request in
        let after = Int(request.header("Last-Event-ID") ?? "0") ?? 0
        guard after < total else { return .respond(status: 204, body: Data()) }
        return .stream(contentType: "text/event-stream") { writer in
          var batch = "retry: 1\n"
          for id in (after + 1)...min(after + 2_000, total) {
            batch += "id: \(id)\ndata: {\"id\":\(id)}\n\n"
            if id % 200 == 0 {
              guard writer.write(batch) else { return }
              batch = ""
            }
          }
          writer.write(batch + "id: 999999\ndata: never deliv")
          writer.drop()
        }
      })
    let subscriber = TestSubscriber<EventSourceUpdate, HTTPStreamError>(strictCancellation: false)
    URLSession.shared.eventSourcePublisher(for: server.url("/many"), scheduler: DispatchQueue(label: "reconnect"))
      .subscribe(subscriber)
    XCTAssertTrue(eventually(timeout: 30) { subscriber.completion != nil })
    XCTAssertEqual(events(subscriber).map(\.id), (1...total).map(String.init))
    XCTAssertEqual(server.receivedRequests.count, 6, "five streams and the 204 that ends them")
    XCTAssertEqual(subscriber.completion, .finished)
  }
}
