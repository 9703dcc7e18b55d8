import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A real HTTP server on loopback that answers like the Hacker News API, from a
/// ``Snapshot`` — by default the front page of 2019-11-12 bundled with the package.
///
/// It serves `/v0/{top,new,best,ask,show,job}stories.json`, `/v0/item/ID.json` (`null` for
/// an id it does not have), `/v0/user/NAME.json`, `/v0/maxitem.json` and
/// `/v0/updates.json`, with HTTP/1.1 keep-alive. For tests and demos it can wait before
/// each answer, fail a share of the requests (500s, dropped connections, malformed JSON,
/// no answer), fail chosen items every time, and make the snapshot move.
///
/// Like Firebase's REST API (which the Hacker News API is), it streams a feed or an item
/// as server-sent events when the request accepts `text/event-stream`: first a `put` of
/// the whole value at `/`, then, as the live snapshot moves, a `put` of one changed key
/// (`{"path":"/score","data":301}`) or a `patch` of several
/// (`{"path":"/","data":{"3":8863,"4":21552}}`), and a `keep-alive` now and then. Each
/// event's `id` is the version of the data that made it, and a stream opened with
/// `Last-Event-ID` resumes after it. With a fail rate, a move drops an open stream at that
/// rate, in the middle of an event.
///
/// ```swift
/// var configuration = DemoServer.Configuration()
/// configuration.latency = 20...20
/// let server = try DemoServer.start(configuration: configuration)
/// let api = API(baseURL: server.baseURL)
/// // …
/// server.stop()
/// ```
///
/// Thread safety: `start`, `stop` and the request counters may be used from any thread;
/// the server answers on its own event loop threads.
public final class DemoServer: Sendable {
  private let group: MultiThreadedEventLoopGroup
  private let channel: any Channel
  private let store: Store
  private let ticker: RepeatedTask?

  /// The port the server listens on.
  public let port: Int
  /// The API's base URL on this server: `http://127.0.0.1:PORT/v0/`.
  public var baseURL: URL { URL(string: "http://\(store.configuration.host):\(port)/v0/")! }

  private init(group: MultiThreadedEventLoopGroup, channel: any Channel, store: Store, ticker: RepeatedTask?) {
    self.group = group
    self.channel = channel
    self.store = store
    self.ticker = ticker
    self.port = channel.localAddress?.port ?? 0
  }

  /// Starts a server on `snapshot` (the bundled one by default).
  ///
  /// - Throws: ``SnapshotError`` if the snapshot cannot be read, ``StartError`` if the
  ///   address cannot be bound.
  public static func start(snapshot: Snapshot? = nil, configuration: Configuration = .init()) throws -> DemoServer {
    let store = Store(snapshot: try snapshot ?? .bundled(), configuration: configuration)
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    do {
      let channel = try ServerBootstrap(group: group)
        .serverChannelOption(.backlog, value: 256)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
        .childChannelInitializer { channel in
          channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
            try channel.pipeline.syncOperations.addHandler(APIHandler(store: store))
          }
        }
        .bind(host: configuration.host, port: configuration.port)
        .wait()
      var ticker: RepeatedTask?
      if configuration.live {
        let tick = TimeAmount.milliseconds(Int64(max(0.05, configuration.tick) * 1000))
        ticker = group.next().scheduleRepeatedTask(initialDelay: tick, delay: tick) { _ in store.move() }
      }
      return DemoServer(group: group, channel: channel, store: store, ticker: ticker)
    } catch {
      try? group.syncShutdownGracefully()
      let host = configuration.host
      let port = configuration.port
      guard let error = error as? IOError else {
        throw StartError.cannotListen(host: host, port: port, reason: "\(error)")
      }
      switch error.errnoCode {
      case EADDRINUSE: throw StartError.portInUse(host: host, port: port)
      case EACCES, EPERM: throw StartError.permissionDenied(host: host, port: port)
      default: throw StartError.cannotListen(host: host, port: port, reason: String(cString: strerror(error.errnoCode)))
      }
    }
  }

  /// Stops listening, closes every connection and ends the server's threads.
  public func stop() {
    ticker?.cancel()
    try? channel.close().wait()
    try? group.syncShutdownGracefully()
  }

  /// Blocks until the server is stopped.
  public func wait() {
    try? channel.closeFuture.wait()
  }

  /// How many requests for `path` (for example `/v0/item/8863.json`) the server has had.
  public func requestCount(path: String) -> Int { store.requests(path: path) }

  /// How many requests the server has had in all.
  public var totalRequestCount: Int { store.totalRequests() }

  /// The most requests the server had in flight at once (received, not yet answered)
  /// since the previous call.
  public func takeMaxConcurrentRequests() -> Int { store.takeMaxInFlight() }

  /// Makes one move of the live snapshot now (what `live` does every `tick` seconds).
  public func move() { store.move() }

  /// How many event streams are open now.
  public var openStreamCount: Int { store.openStreamCount() }
}

/// Answers each request on a connection, after the configured delay, or injects a fault.
private final class APIHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private let store: Store
  private var head: HTTPRequestHead?
  /// The event stream this connection carries, once it became one.
  private var stream: Int?

  init(store: Store) { self.store = store }

  func channelInactive(context: ChannelHandlerContext) {
    if let stream { store.closeStream(stream) }
    stream = nil
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head):
      self.head = head
    case .body:
      break
    case .end:
      guard let head else { return }
      self.head = nil
      respond(to: head, context: context)
    }
  }

  private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
    let path = String(head.uri.prefix { $0 != "?" })
    if head.method == .GET, stream == nil,
      head.headers["Accept"].contains(where: { $0.lowercased().contains("text/event-stream") }),
      openStream(path: path, head: head, context: context)
    {
      return
    }
    let (answer, delay) =
      head.method == .GET
      ? store.answer(path: path)
      : (.json(status: 405, body: Array(#"{"error":"only GET"}"#.utf8)), 0)
    let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    let keepAlive = head.isKeepAlive
    let version = head.version
    let send: @Sendable () -> Void = {
      let (handler, context) = bound.value
      handler.send(answer, version: version, keepAlive: keepAlive, context: context)
    }
    if delay > 0 {
      context.eventLoop.scheduleTask(in: .milliseconds(Int64(delay))) { send() }
    } else {
      send()
    }
  }

  /// Answers with an event stream of `path` if it streams: the response's head, then the
  /// stream's opening, then whatever the moves write, until the connection closes.
  private func openStream(path: String, head: HTTPRequestHead, context: ChannelHandlerContext) -> Bool {
    let channel = context.channel
    let loop = context.eventLoop
    let write: @Sendable (String) -> Void = { text in
      loop.execute {
        guard channel.isActive else { return }
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(string: text))))
          .whenFailure { _ in channel.close(promise: nil) }
      }
    }
    let drop: @Sendable (String) -> Void = { text in
      loop.execute {
        guard channel.isActive else { return }
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(string: text))))
          .whenComplete { _ in channel.close(promise: nil) }
      }
    }
    guard
      let (id, opening) = store.openStream(
        path: path, lastEventID: head.headers["Last-Event-ID"].first, write: write, drop: drop)
    else { return false }
    stream = id
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "text/event-stream; charset=utf-8")
    headers.add(name: "Cache-Control", value: "no-cache")
    headers.add(name: "Transfer-Encoding", value: "chunked")
    context.write(
      wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
    var buffer = context.channel.allocator.buffer(capacity: opening.utf8.count)
    buffer.writeString(opening)
    context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
    return true
  }

  private func send(_ answer: Store.Answer, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext) {
    if answer != .fault(.hang) { store.finished() }
    guard context.channel.isActive else { return }
    let status: Int
    let body: [UInt8]
    switch answer {
    case .fault(.drop):
      context.close(promise: nil)
      return
    case .fault(.hang):
      return
    case .fault(.serverError):
      status = 500
      body = Array(#"{"error":"injected fault: internal server error"}"#.utf8)
    case .fault(.malformed):
      status = 200
      body = Array(#"{"by":"dhouston","descendants":71,"id":88"#.utf8) + Array("\u{0}<html>".utf8)
    case .json(let s, let b):
      status = s
      body = b
    }
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
    headers.add(name: "Content-Length", value: String(body.count))
    headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
    let responseHead = HTTPResponseHead(version: version, status: .init(statusCode: status), headers: headers)
    context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
    var buffer = context.channel.allocator.buffer(capacity: body.count)
    buffer.writeBytes(body)
    context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
    let done = context.writeAndFlushPromise(wrapOutboundOut(.end(nil)))
    if !keepAlive {
      let channel = context.channel
      done.whenComplete { _ in channel.close(promise: nil) }
    }
  }
}

private extension ChannelHandlerContext {
  func writeAndFlushPromise(_ data: NIOAny) -> EventLoopFuture<Void> {
    let promise = eventLoop.makePromise(of: Void.self)
    writeAndFlush(data, promise: promise)
    return promise.futureResult
  }
}
