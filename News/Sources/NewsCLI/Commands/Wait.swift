import Combine
import Foundation

/// Subscribes to `publisher`, hands every event to the closures on `queue` (one at a time),
/// and blocks the calling thread until the publisher completes.
func runUntilComplete<P: Publisher>(
  _ publisher: P, on queue: DispatchQueue,
  receiveValue: @escaping (P.Output) -> Void,
  receiveCompletion: @escaping (Subscribers.Completion<P.Failure>) -> Void
) {
  let done = DispatchSemaphore(value: 0)
  let cancellable =
    publisher
    .receive(on: queue)
    .sink(
      receiveCompletion: { completion in
        receiveCompletion(completion)
        done.signal()
      },
      receiveValue: receiveValue)
  done.wait()
  cancellable.cancel()
}
