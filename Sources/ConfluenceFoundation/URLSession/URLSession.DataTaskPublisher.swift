import Confluence
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSession {
  /// A publisher that delivers the results of performing URL session data tasks.
  ///
  /// Make one with ``FoundationNetworking/URLSession/dataTaskPublisher(for:)-(URL)`` (or the
  /// `URLRequest` form). Each subscriber gets its own data task, created and resumed when it
  /// first requests a value. The task's result arrives as one value, `(data, response)`,
  /// followed by `.finished`; a failed task ends the stream with its `URLError`.
  ///
  /// ```swift
  /// let url = URL(string: "http://127.0.0.1:8080/v0/item/8863.json")!
  /// let cancellable = URLSession.shared.dataTaskPublisher(for: url)
  ///   .map(\.data)
  ///   .decode(type: Story.self, decoder: JSONDecoder())
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.title) })
  /// ```
  ///
  /// As on Apple's platforms, any response — `404` and `500` included — is a value: checking
  /// the status is the caller's business (`tryMap` on `response as? HTTPURLResponse`). An
  /// error that is not a `URLError`, and a task that ends with neither an error nor a
  /// response, fail with `URLError(.unknown)`.
  ///
  /// Back-pressure: the task starts on the first request (any demand is enough for its one
  /// value; each later request only resumes it again). `cancel()` cancels the task, and
  /// nothing is delivered afterwards. `request(.none)` traps, as Apple's does.
  ///
  /// On Linux, swift-corelibs-foundation can trap in `URLSession.behaviour(for:)` when a
  /// task is cancelled while its session's `URLCache` is still looking the request up: the
  /// cancel then reaches the task after the task has finished and left its session. On a
  /// loaded two-core machine, runs of 2,000 requests each cancelled at once or within a few
  /// milliseconds of starting trapped in 14 of 15 with the cache and in none of 15 without
  /// it. A session whose subscriptions are often cancelled (a search box, a list that
  /// reloads) is safest made with `configuration.urlCache = nil`; `URLSession.shared` has a
  /// cache.
  public struct DataTaskPublisher: Publisher {
    /// The kind of values published by this publisher: the data and the response.
    public typealias Output = (data: Data, response: URLResponse)

    /// The kind of errors this publisher might publish.
    public typealias Failure = URLError

    /// The URL request performed by the data task.
    public let request: URLRequest

    /// The URL session that performs the data task.
    public let session: URLSession

    /// Creates a data task publisher from the provided URL request and URL session.
    ///
    /// - Parameters:
    ///   - request: The URL request to perform.
    ///   - session: The URL session to create the data task.
    public init(request: URLRequest, session: URLSession) {
      self.request = request
      self.session = session
    }

    /// Attaches `subscriber`, handing it a subscription that creates the data task on its
    /// first request.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      subscriber.receive(subscription: DataTaskSubscription(parent: self, downstream: AnySubscriber(subscriber)))
    }
  }

  /// Returns a publisher that wraps a URL session data task for a given URL.
  ///
  /// The publisher publishes data when the task completes, or terminates if the task fails
  /// with an error.
  ///
  /// ```swift
  /// let cancellable = URLSession.shared.dataTaskPublisher(for: URL(string: "http://127.0.0.1:8080/")!)
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.response) })
  /// ```
  ///
  /// - Parameter url: The URL for which to create a data task.
  /// - Returns: A publisher that wraps a data task for the URL.
  public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
    DataTaskPublisher(request: URLRequest(url: url), session: self)
  }

  /// Returns a publisher that wraps a URL session data task for a given URL request.
  ///
  /// The publisher publishes data when the task completes, or terminates if the task fails
  /// with an error.
  ///
  /// ```swift
  /// var request = URLRequest(url: URL(string: "http://127.0.0.1:8080/v0/topstories.json")!)
  /// request.timeoutInterval = 5
  /// let cancellable = URLSession.shared.dataTaskPublisher(for: request)
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.data.count) })
  /// ```
  ///
  /// - Parameter request: The URL request for which to create a data task.
  /// - Returns: A publisher that wraps a data task for the URL request.
  public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
    DataTaskPublisher(request: request, session: self)
  }
}
