// "Combine in Action", chapter 9, "Networking": URLSession's `dataTaskPublisher(for:)`,
// decoding its data with `decode(type:decoder:)`, and one request shared by two
// subscribers with `multicast`.
//
// The book asks a web site; here a server on 127.0.0.1 (ExampleServer) answers, so the
// program runs offline and prints the same thing every time. Only the URL differs.
import Combine
import Dispatch
import ExampleSupport
import Foundation

struct MyType: Decodable, CustomStringConvertible {
  let name: String
  let stars: Int
  var description: String { "MyType(name: \(name), stars: \(stars))" }
}

let server = try ExampleServer(routes: ["/mydata.json": #"{"name":"Confluence","stars":5}"#])
let url = server.baseURL.appendingPathComponent("mydata.json")

// A playground keeps running after its last line; a command-line program ends there. Each
// step waits for its request to complete before the next starts. URLSession delivers on a
// queue of its own, so blocking the main thread while waiting is fine here.
func waitForCompletion(_ body: (@escaping @Sendable () -> Void) -> AnyCancellable) {
  let done = DispatchSemaphore(value: 0)
  let subscription = body { done.signal() }
  done.wait()
  subscription.cancel()
}

print("-- dataTaskPublisher(for:)")
waitForCompletion { finish in
  URLSession.shared
    .dataTaskPublisher(for: url)
    .sink(
      receiveCompletion: { completion in
        if case .failure(let err) = completion {
          print("Retrieving data failed with error \(err)")
        }
        finish()
      },
      receiveValue: { data, response in
        // The book prints the whole response; its description holds the date and other
        // headers that change from run to run, so this prints the status code.
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        print("Retrieved data of size \(data.count), status = \(status)")
      })
}

print("-- decode(type:decoder:)")
waitForCompletion { finish in
  URLSession.shared
    .dataTaskPublisher(for: url)
    .map(\.data)
    .decode(type: MyType.self, decoder: JSONDecoder())
    .sink(
      receiveCompletion: { completion in
        if case .failure(let err) = completion {
          print("Retrieving data failed with error \(err)")
        }
        finish()
      },
      receiveValue: { object in
        print("Retrieved object \(object)")
      })
}

print("-- multicast: one request, two subscribers")
waitForCompletion { finish in
  let publisher = URLSession.shared
    .dataTaskPublisher(for: url)
    .map(\.data)
    .multicast { PassthroughSubject<Data, URLError>() }

  let subscription1 =
    publisher
    .sink(
      receiveCompletion: { completion in
        if case .failure(let err) = completion {
          print("Sink1 Retrieving data failed with error \(err)")
        }
      },
      receiveValue: { object in
        print("Sink1 Retrieved object \(object)")
      })

  let subscription2 =
    publisher
    .sink(
      receiveCompletion: { completion in
        if case .failure(let err) = completion {
          print("Sink2 Retrieving data failed with error \(err)")
        }
        finish()
      },
      receiveValue: { object in
        print("Sink2 Retrieved object \(object)")
      })

  // Nothing is requested until connect(): both subscribers are in place by then.
  let connection = publisher.connect()
  return AnyCancellable {
    connection.cancel()
    subscription1.cancel()
    subscription2.cancel()
  }
}
