import Combine
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A generic network layer: runs a `URLRequest` and decodes the JSON answer.
///
/// `run(_:)` is the one entry point for every request, whatever its method or path: it
/// turns `URLSession` into a publisher with `dataTaskPublisher(for:)`, checks the HTTP
/// status, and decodes the body as `T`. `run(_:retrying:)` adds retries with exponential
/// backoff for the failures that are worth another try (5xx answers, time-outs, dropped
/// connections).
///
/// ```swift
/// let client = APIClient()
/// let request = URLRequest(url: URL(string: "https://hacker-news.firebaseio.com/v0/maxitem.json")!)
/// let cancellable = (client.run(request) as AnyPublisher<APIClient.Response<Int>, Error>)
///   .map(\.value)
///   .sink(receiveCompletion: { print($0) }, receiveValue: { print("newest item:", $0) })
/// ```
///
/// Back-pressure: one request per subscription, started when the subscriber first asks for
/// a value; cancelling the subscription cancels the data task.
public struct APIClient: Sendable {
  /// A decoded value and the response it came with (status code, headers).
  public struct Response<T> {
    /// The decoded body.
    public let value: T
    /// The HTTP response.
    public let response: URLResponse
  }

  /// An answer whose HTTP status is not 2xx.
  public struct HTTPStatusError: Error, Hashable, CustomStringConvertible {
    /// The status code.
    public let status: Int
    /// The requested URL.
    public let url: URL
    public var description: String { "HTTP \(status) for \(url.absoluteString)" }
  }

  /// The session that performs the requests.
  public let session: URLSession
  /// The decoder for response bodies.
  public let decoder: JSONDecoder

  /// Creates a client on `session`.
  public init(session: URLSession = .shared, decoder: JSONDecoder = JSONDecoder()) {
    self.session = session
    self.decoder = decoder
  }

  /// Performs `request` once and decodes its body as `T`.
  ///
  /// Fails with the session's `URLError`, with ``HTTPStatusError`` for a status other than
  /// 2xx, or with the decoder's error.
  ///
  /// - Parameter request: The request to perform.
  /// - Returns: A publisher of one decoded response.
  public func run<T: Decodable>(_ request: URLRequest) -> AnyPublisher<Response<T>, Error> {
    let decoder = self.decoder
    return
      session
      .dataTaskPublisher(for: request)
      .tryMap { result -> Response<T> in
        if let http = result.response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
          throw HTTPStatusError(status: http.statusCode, url: request.url ?? URL(fileURLWithPath: "/"))
        }
        let value = try decoder.decode(T.self, from: result.data)
        return Response(value: value, response: result.response)
      }
      .eraseToAnyPublisher()
  }

  /// Performs `request`, retrying with exponential backoff while `policy` says the failure
  /// is worth another try, and decodes its body as `T`.
  ///
  /// The *n*-th retry waits `policy.delay(beforeRetry: n)` on `scheduler`. When the retries
  /// are used up, or the failure is not retryable, the last error is passed on.
  ///
  /// - Parameters:
  ///   - request: The request to perform.
  ///   - policy: How many retries, how long to wait, and which failures to retry.
  ///   - scheduler: The queue that times the waits.
  /// - Returns: A publisher of one decoded response.
  public func run<T: Decodable>(
    _ request: URLRequest, retrying policy: RetryPolicy, scheduler: DispatchQueue
  ) -> AnyPublisher<Response<T>, Error> {
    // The time limit is kept here, with Combine's `timeout`, rather than by the session
    // alone: swift-corelibs-foundation rounds `timeoutInterval` down to whole seconds (0.5 s
    // fails at once). The request's own limit stays as a backstop, rounded up.
    var request = request
    request.timeoutInterval = (policy.timeout + 1).rounded(.up)
    let limit = DispatchQueue.SchedulerTimeType.Stride.milliseconds(Int(policy.timeout * 1000))
    func attempt(_ retriesDone: Int) -> AnyPublisher<Response<T>, Error> {
      run(request)
        .timeout(limit, scheduler: scheduler, customError: { URLError(.timedOut) })
        .catch { error -> AnyPublisher<Response<T>, Error> in
          guard retriesDone < policy.retries, policy.shouldRetry(error) else {
            return Fail(error: error).eraseToAnyPublisher()
          }
          let wait = policy.delay(beforeRetry: retriesDone + 1)
          return Just(())
            .delay(for: .milliseconds(Int(wait * 1000)), scheduler: scheduler)
            .setFailureType(to: Error.self)
            .flatMap { attempt(retriesDone + 1) }
            .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }
    return attempt(0)
  }
}

/// When and how often ``APIClient`` retries a failed request.
///
/// Retried: answers with a 5xx status (and 429), time-outs, and connections the server
/// closed or reset without a complete answer. Not retried: 4xx answers, a host that cannot
/// be reached at all, and bodies that do not decode.
public struct RetryPolicy: Sendable, Hashable {
  /// The most retries after the first attempt.
  public var retries: Int
  /// The wait before the first retry, in seconds; each further retry waits twice as long.
  public var initialDelay: TimeInterval
  /// The longest wait between two attempts, in seconds.
  public var maxDelay: TimeInterval
  /// The time limit of one attempt, in seconds (`URLRequest.timeoutInterval`).
  public var timeout: TimeInterval

  /// Creates a policy.
  public init(
    retries: Int = 3, initialDelay: TimeInterval = 0.2, maxDelay: TimeInterval = 5, timeout: TimeInterval = 10
  ) {
    self.retries = retries
    self.initialDelay = initialDelay
    self.maxDelay = maxDelay
    self.timeout = timeout
  }

  /// Three retries after 0.2 s, 0.4 s and 0.8 s; 10 s per attempt.
  public static let `default` = RetryPolicy()

  /// No retries.
  public static let never = RetryPolicy(retries: 0)

  /// The wait before the `n`-th retry (`n` counts from 1), in seconds.
  public func delay(beforeRetry n: Int) -> TimeInterval {
    min(maxDelay, initialDelay * pow(2, Double(max(0, n - 1))))
  }

  /// Whether `error` is worth another attempt.
  public func shouldRetry(_ error: Error) -> Bool {
    if let status = error as? APIClient.HTTPStatusError {
      return status.status >= 500 || status.status == 429
    }
    if let urlError = error as? URLError {
      return Self.transientCodes.contains(urlError.code)
    }
    return false
  }

  static let transientCodes: Set<URLError.Code> = [
    .timedOut, .networkConnectionLost, .badServerResponse, .cannotParseResponse, .zeroByteResource,
  ]
}
