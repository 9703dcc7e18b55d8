// "Combine in Action", chapter 13, "Resource Management": `share()`, a subscriber that
// comes after the shared request completed, `multicast(subject:)` and `Future`.
//
// The requests go to a server on 127.0.0.1 (ExampleServer) that answers after 0.1 s, as a
// real server would answer after some time; the body is 303,425 bytes like the book's page.
import Combine
import ExampleSupport
import Foundation

let server = try ExampleServer(routes: ["/": String(repeating: "x", count: 303_425)], delay: 0.1)
let url = server.baseURL.appendingPathComponent("/")

var subscriptions: [AnyCancellable] = []

// MARK: share()

@MainActor func shareExample(then next: @escaping @Sendable () -> Void) {
  print("-- share()")
  let shared = URLSession.shared
    .dataTaskPublisher(for: url)
    .map(\.data)
    .print("shared")
    .share()

  print("subscribing first")

  let subscription1 = shared.sink(
    receiveCompletion: { _ in },
    receiveValue: { print("subscription1 received: '\($0)'") }
  )

  print("subscribing second")

  let subscription2 = shared.sink(
    receiveCompletion: { _ in next() },
    receiveValue: { print("subscription2 received: '\($0)'") }
  )
  subscriptions += [subscription1, subscription2]
}

// MARK: share(), the second subscriber after the request completed

@MainActor func lateSubscriberExample(then next: @escaping @Sendable () -> Void) {
  print("-- share(), subscribing second after completion")
  let shared = URLSession.shared
    .dataTaskPublisher(for: url)
    .map(\.data)
    .print("shared")
    .share()

  print("subscribing first")

  let subscription1 = shared.sink(
    receiveCompletion: { _ in },
    receiveValue: { print("subscription1 received: '\($0)'") }
  )
  subscriptions.append(subscription1)

  // The book waits 5 s; the request takes 0.1 s here, so 1 s is as long after it.
  DispatchQueue.main.asyncAfter(deadline: .now() + 1) {
    MainActor.assumeIsolated {
      print("subscribing second")

      let subscription2 = shared.sink(
        receiveCompletion: { print("subscription2 completion \($0)") },
        receiveValue: { print("subscription2 received: '\($0)'") }
      )
      subscriptions.append(subscription2)
    }
    next()
  }
}

// MARK: multicast(subject:)

@MainActor func multicastExample(then next: @escaping @Sendable () -> Void) {
  print("-- multicast(subject:)")
  let subject = PassthroughSubject<Data, URLError>()

  let multicasted = URLSession.shared
    .dataTaskPublisher(for: url)
    .map(\.data)
    .print("multicast")
    .multicast(subject: subject)

  let subscription1 =
    multicasted
    .sink(
      receiveCompletion: { _ in },
      receiveValue: { print("subscription1 received: '\($0)'") }
    )

  let subscription2 =
    multicasted
    .sink(
      receiveCompletion: { _ in next() },
      receiveValue: { print("subscription2 received: '\($0)'") }
    )

  let cancellable = multicasted.connect()
  subscriptions += [subscription1, subscription2, AnyCancellable(cancellable)]
}

// MARK: Future

@MainActor func futureExample() {
  print("-- Future")
  func performSomeWork() throws -> Int {
    print("Performing some work and returning a result")
    return 5
  }

  let future = Future<Int, Error> { fulfill in
    do {
      let result = try performSomeWork()
      fulfill(.success(result))
    } catch {
      fulfill(.failure(error))
    }
  }

  print("Subscribing to future...")

  let subscription1 =
    future
    .sink(
      receiveCompletion: { _ in print("subscription1 completed") },
      receiveValue: { print("subscription1 received: '\($0)'") }
    )

  let subscription2 =
    future
    .sink(
      receiveCompletion: { _ in print("subscription2 completed") },
      receiveValue: { print("subscription2 received: '\($0)'") }
    )
  subscriptions += [subscription1, subscription2]
}

// Each example starts the next one on the main queue once its request has completed.
func onMain(_ work: @escaping @MainActor () -> Void) -> @Sendable () -> Void {
  { DispatchQueue.main.async { MainActor.assumeIsolated { work() } } }
}

shareExample(
  then: onMain {
    lateSubscriberExample(
      then: onMain {
        multicastExample(
          then: onMain {
            futureExample()
            exit(0)
          })
      })
  })

// `DispatchQueue.main.asyncAfter` (the late subscriber) and the chaining above run only
// while the main thread serves the main queue. An app's main thread does so all its life,
// and so does a playground; a command-line program parks its main thread in dispatchMain()
// (which never returns), or it ends here before any request completes. The last example
// ends the program with exit(0).
dispatchMain()
