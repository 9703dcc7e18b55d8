// "Using Combine", "Wrapping an asynchronous call with a Future to create a one-shot
// publisher", with `retry`: a Future runs its work once, when it is made, so retrying it
// replays the same result; `Deferred { Future { … } }` makes a new Future for each
// subscription, so each retry runs the work again.
import Combine

enum FetchError: Error {
  case temporarilyUnavailable
}

/// A callback API that fails twice, then succeeds.
final class FlakyService {
  private var calls = 0

  func fetch(completion: (Result<String, FetchError>) -> Void) {
    calls += 1
    print("  service called (call \(calls))")
    if calls < 3 {
      completion(.failure(.temporarilyUnavailable))
    } else {
      completion(.success("the data"))
    }
  }
}

print("Future alone: the work runs once, when the Future is made")
let service = FlakyService()
let future = Future<String, FetchError> { promise in
  service.fetch { promise($0) }
}
print("  subscribing with retry(3)")
let once =
  future
  .retry(3)
  .sink(
    receiveCompletion: { print("  completion: \($0)") },
    receiveValue: { print("  received \"\($0)\"") })

print("Deferred { Future }: the work runs for each subscription, so retry runs it again")
let retriedService = FlakyService()
let deferred = Deferred {
  Future<String, FetchError> { promise in
    retriedService.fetch { promise($0) }
  }
}
print("  subscribing with retry(3)")
let retried =
  deferred
  .retry(3)
  .sink(
    receiveCompletion: { print("  completion: \($0)") },
    receiveValue: { print("  received \"\($0)\"") })
