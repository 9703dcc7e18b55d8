// TEMPORARY: Apple's `URLSession.dataTaskPublisher(for:)` and `JSONDecoder: TopLevelDecoder`
// are being added to ConfluenceFoundation on another branch. Until they land, this file
// stands in for them with the same names and shapes, so that the client above is written
// against Apple's API unchanged. Delete this file when main has them.
import Combine
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension JSONDecoder: @retroactive TopLevelDecoder {}

extension URLSession {
  func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
    DataTaskPublisher(request: request, session: self)
  }

  func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
    DataTaskPublisher(request: URLRequest(url: url), session: self)
  }

  struct DataTaskPublisher: Publisher {
    typealias Output = (data: Data, response: URLResponse)
    typealias Failure = URLError

    let request: URLRequest
    let session: URLSession

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      subscriber.receive(subscription: Inner(request: request, session: session, downstream: AnySubscriber(subscriber)))
    }

    // Safe: `lock` guards `downstream`, `task` and `started`.
    private final class Inner: Subscription, @unchecked Sendable {
      typealias S = AnySubscriber<Output, Failure>
      private let lock = NSLock()
      private let request: URLRequest
      private let session: URLSession
      private var downstream: S?
      private var task: URLSessionDataTask?
      private var started = false

      init(request: URLRequest, session: URLSession, downstream: S) {
        self.request = request
        self.session = session
        self.downstream = downstream
      }

      func request(_ demand: Subscribers.Demand) {
        let task: URLSessionDataTask? = lock.withLock {
          guard demand > 0, !started, downstream != nil else { return nil }
          started = true
          let task = session.dataTask(with: request) { [self] data, response, error in
            let subscriber: S? = lock.withLock {
              defer { downstream = nil; self.task = nil }
              return downstream
            }
            guard let subscriber else { return }
            if let error {
              subscriber.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
            } else if let response {
              _ = subscriber.receive((data ?? Data(), response))
              subscriber.receive(completion: .finished)
            } else {
              subscriber.receive(completion: .failure(URLError(.badServerResponse)))
            }
          }
          self.task = task
          return task
        }
        task?.resume()
      }

      func cancel() {
        let task: URLSessionDataTask? = lock.withLock {
          downstream = nil
          defer { self.task = nil }
          return self.task
        }
        task?.cancel()
      }
    }
  }
}
