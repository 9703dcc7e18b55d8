import Confluence
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An HTTP exchange through `URLSession`, for what the socket client does not speak
/// (`https://`), or when the caller asks for it (`HTTPStreamTransport.urlSession`).
///
/// swift-corelibs-foundation cannot pause a running transfer (measured: `suspend()` on a
/// running data task neither stops libcurl's reading nor the delegate's `didReceive` calls),
/// so this connection takes what the session delivers and holds it until asked, up to
/// `bufferLimit` bytes; beyond that it cancels the task and fails with
/// `HTTPStreamError.bufferLimitExceeded`. Each connection has its own session (made from the
/// caller's configuration, so its headers, proxies and cookies apply), because
/// swift-corelibs-foundation does not call a task's own delegate; it is invalidated when the
/// exchange ends, which releases its delegate.
//
// @unchecked Sendable: `cancelled`, `task` and `ownSession` are guarded by `lock`; everything
// else is touched only on `queue` (the delegate's callbacks hop onto it).
final class URLSessionHTTPConnection: HTTPStreamConnection, @unchecked Sendable {
  private let request: URLRequest
  private let configuration: URLSessionConfiguration
  private let bufferLimit: Int
  private let queue = DispatchQueue(label: "ConfluenceNetworking.URLSessionHTTPConnection")

  private let lock = Lock()
  private var cancelled = false
  private var task: URLSessionDataTask?
  private var ownSession: URLSession?

  // Confined to `queue`.
  private var report: HTTPStreamReportHandler?
  private var respondedWith: HTTPURLResponse?
  private var chunks: [Data] = []
  private var firstChunk = 0
  private var buffered = 0
  private var wantsBody = false
  private var outcome: HTTPStreamReport?
  private var ended = false

  init(request: URLRequest, session: URLSession, bufferLimit: Int) {
    self.request = request
    // The caller's configuration without a response cache: a stream is not a document to
    // keep, and with a `URLCache` swift-corelibs-foundation can trap when a task is cancelled
    // while the cache lookup is pending (see `URLSession.DataTaskPublisher`).
    let own = session.configuration.copy() as? URLSessionConfiguration
    own?.urlCache = nil
    configuration = own ?? session.configuration
    self.bufferLimit = bufferLimit
  }

  func start(_ report: HTTPStreamReportHandler) {
    queue.async { [self] in
      self.report = report
      let delegateQueue = OperationQueue()
      delegateQueue.maxConcurrentOperationCount = 1
      let session = URLSession(
        configuration: configuration, delegate: URLSessionStreamDelegate(connection: self),
        delegateQueue: delegateQueue)
      let task = session.dataTask(with: request)
      let started = lock.withLock { () -> Bool in
        guard !cancelled else { return false }
        self.task = task
        ownSession = session
        return true
      }
      if started {
        task.resume()
      } else {
        session.invalidateAndCancel()
      }
    }
  }

  func readNext() {
    queue.async { [self] in
      guard !ended, respondedWith != nil else { return }
      wantsBody = true
      serve()
    }
  }

  func cancel() {
    let (task, session) = lock.withLock { () -> (URLSessionDataTask?, URLSession?) in
      guard !cancelled else { return (nil, nil) }
      cancelled = true
      defer {
        self.task = nil
        ownSession = nil
      }
      return (self.task, ownSession)
    }
    task?.cancel()
    session?.invalidateAndCancel()
    queue.async { [self] in
      ended = true
      report = nil
      chunks = []
    }
  }

  // MARK: - The delegate's news, on `queue`

  func received(response: URLResponse) {
    queue.async { [self] in noteResponse(response) }
  }

  func received(data: Data, response: URLResponse?) {
    queue.async { [self] in
      if let response { noteResponse(response) }
      guard !ended, respondedWith != nil, !data.isEmpty else { return }
      chunks.append(data)
      buffered += data.count
      serve()
      // Only bytes held ahead of demand count: a chunk handed over at once does not.
      if buffered > bufferLimit {
        end(with: .failure(.bufferLimitExceeded(bufferLimit)), cancelTask: true)
      }
    }
  }

  func completed(error: Error?, response: URLResponse?) {
    queue.async { [self] in
      if error == nil, let response { noteResponse(response) }
      guard !ended else { return }
      if let error {
        outcome = .failure(.connectionFailed(error as? URLError ?? URLError(.unknown)))
      } else {
        outcome = .end
      }
      if respondedWith == nil {
        // An exchange that ends with no response is a failure, whatever the session said.
        let failure = error.map { HTTPStreamReport.failure(.connectionFailed($0 as? URLError ?? URLError(.unknown))) }
        return end(with: failure ?? .failure(.connectionFailed(URLError(.badServerResponse))), cancelTask: false)
      }
      serve()
    }
  }

  /// Reports the response, the first time the session shows it.
  private func noteResponse(_ response: URLResponse) {
    guard !ended, respondedWith == nil else { return }
    guard let http = response as? HTTPURLResponse else {
      return end(with: .failure(.malformedResponse("not an HTTP response")), cancelTask: true)
    }
    respondedWith = http
    deliver(.response(http))
  }

  /// Answers a pending `readNext()` if it can.
  private func serve() {
    guard wantsBody, !ended else { return }
    if firstChunk < chunks.count {
      let chunk = chunks[firstChunk]
      firstChunk += 1
      buffered -= chunk.count
      if firstChunk == chunks.count {
        chunks.removeAll(keepingCapacity: true)
        firstChunk = 0
      }
      wantsBody = false
      deliver(.body(chunk))
    } else if let outcome {
      end(with: outcome, cancelTask: false)
    }
  }

  private func deliver(_ item: HTTPStreamReport) {
    guard let report, !lock.withLock({ cancelled }) else { return }
    report.handle(item)
  }

  private func end(with item: HTTPStreamReport, cancelTask: Bool) {
    guard !ended else { return }
    ended = true
    chunks = []
    let report = self.report
    self.report = nil
    let (task, session) = lock.withLock { () -> (URLSessionDataTask?, URLSession?) in
      defer {
        self.task = nil
        ownSession = nil
      }
      return (self.task, ownSession)
    }
    if cancelTask {
      task?.cancel()
      session?.invalidateAndCancel()
    } else {
      session?.finishTasksAndInvalidate()
    }
    guard let report, !lock.withLock({ cancelled }) else { return }
    report.handle(item)
  }
}

/// The session delegate of one `URLSessionHTTPConnection`: passes what the session reports
/// to it. The session holds its delegate until it is invalidated; the delegate holds the
/// connection weakly, so an abandoned connection is freed.
private final class URLSessionStreamDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked Sendable: `connection` is a weak reference set once, in init.
  private weak var connection: URLSessionHTTPConnection?

  init(connection: URLSessionHTTPConnection) {
    self.connection = connection
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    connection?.received(response: response)
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    connection?.received(data: data, response: dataTask.response)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    connection?.completed(error: error, response: task.response)
  }
}
