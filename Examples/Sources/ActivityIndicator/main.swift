// "Using Combine", handleEvents: an activity indicator that spins while a request is in
// flight, started when the subscription arrives and stopped when the request completes or
// is cancelled ("Cascading UI updates including a network request" drives its
// UIActivityIndicatorView this way).
//
// The request is simulated: a value after one second on a VirtualTimeScheduler, so the
// output is the same on every run. In an app, the closures hop to the main queue before
// touching the indicator.
import Combine
import ExampleSupport

let scheduler = VirtualTimeScheduler()

/// Stands in for UIActivityIndicatorView: prints when it starts and stops.
final class ActivityIndicator {
  private(set) var isAnimating = false

  func startAnimating() {
    isAnimating = true
    print("  indicator: spinning")
  }

  func stopAnimating() {
    isAnimating = false
    print("  indicator: stopped")
  }
}

let activityIndicator = ActivityIndicator()

@MainActor func request(_ name: String) -> AnyPublisher<String, Never> {
  Just("\(name): 3 results")
    .delay(for: .seconds(1), scheduler: scheduler)
    .handleEvents(
      receiveSubscription: { _ in
        activityIndicator.startAnimating()
      },
      receiveCompletion: { _ in
        activityIndicator.stopAnimating()
      },
      receiveCancel: {
        activityIndicator.stopAnimating()
      }
    )
    .eraseToAnyPublisher()
}

print("a request that completes")
let first = request("first").sink(
  receiveCompletion: { print("  completion: \($0)") },
  receiveValue: { print("  received \"\($0)\"") })
scheduler.advance(by: .seconds(2))

print("a request cancelled before its answer")
let second = request("second").sink { print("  received \"\($0)\"") }
scheduler.advance(by: .milliseconds(500))
second.cancel()
scheduler.advance(by: .seconds(2))
print("indicator spinning at the end: \(activityIndicator.isAnimating)")
