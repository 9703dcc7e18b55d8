import Combine
import Foundation
import XCTest

/// Code written the way Apple's documentation and the books write it, compiled against
/// `import Combine` on Linux with no changes.
final class AppleStyleCodeTests: XCTestCase {
  final class SearchModel: ObservableObject {
    @Published var query = ""
    @Published private(set) var results: [String] = []
    private var cancellables = Set<AnyCancellable>()
    private let catalogue = ["swift", "swiftui", "combine", "concurrency"]

    init(scheduler: ImmediateScheduler = .shared) {
      $query
        .removeDuplicates()
        .debounce(for: .milliseconds(0), scheduler: scheduler)
        .map { [catalogue] query in catalogue.filter { !query.isEmpty && $0.hasPrefix(query) } }
        .receive(on: scheduler)
        .assign(to: &$results)
    }
  }

  func test_observableObjectWithPublishedPipeline() {
    let model = SearchModel()
    var changes = 0
    let token = model.objectWillChange.sink { changes += 1 }
    model.query = "sw"
    XCTAssertEqual(model.results, ["swift", "swiftui"])
    model.query = "co"
    XCTAssertEqual(model.results, ["combine", "concurrency"])
    XCTAssertGreaterThanOrEqual(changes, 4, "query and results each announce their changes")
    token.cancel()
  }

  enum APIError: Error, Equatable { case unavailable }

  func fetch(_ id: Int) -> AnyPublisher<String, APIError> {
    Future<String, APIError> { promise in
      promise(id == 3 ? .failure(.unavailable) : .success("story \(id)"))
    }
    .eraseToAnyPublisher()
  }

  func test_flatMapCatchRetryReduce() {
    var output: [String] = []
    var completion: Subscribers.Completion<Never>?
    let cancellable = [1, 2, 3, 4].publisher
      .setFailureType(to: APIError.self)
      .flatMap(maxPublishers: .max(1)) { id in
        self.fetch(id).retry(1).catch { _ in Just("fallback \(id)").setFailureType(to: APIError.self) }
      }
      .collect()
      .map { $0.joined(separator: ", ") }
      .replaceError(with: "error")
      .sink(receiveCompletion: { completion = $0 }, receiveValue: { output.append($0) })
    XCTAssertEqual(output, ["story 1, story 2, fallback 3, story 4"])
    XCTAssertEqual(completion, .finished)
    cancellable.cancel()
  }

  func test_subjectsCombineLatestZipMergeAndShare() {
    let temperature = CurrentValueSubject<Double, Never>(20)
    let humidity = PassthroughSubject<Int, Never>()
    var readings: [String] = []
    var cancellables: [AnyCancellable] = []
    temperature.combineLatest(humidity)
      .map { "\($0)°C \($1)%" }
      .sink { readings.append($0) }
      .store(in: &cancellables)
    humidity.send(40)
    temperature.value = 21.5
    XCTAssertEqual(readings, ["20.0°C 40%", "21.5°C 40%"])

    let shared = Publishers.MergeMany([1, 2].publisher, [3].publisher).share()
    var zipped: [String] = []
    shared.zip(shared.dropFirst()).sink { zipped.append("\($0)-\($1)") }.store(in: &cancellables)
    XCTAssertEqual(zipped, [], "share subscribes upstream once; the synchronous run went to the first subscriber")
  }

  func test_schedulersAndTimersAreTheFoundationOnes() {
    let done = expectation(description: "main queue")
    var received: [Int] = []
    let cancellable = Just(1)
      .subscribe(on: DispatchQueue.global())
      .receive(on: DispatchQueue.main)
      .sink { value in
        XCTAssertTrue(Thread.isMainThread)
        received.append(value)
        done.fulfill()
      }
    wait(for: [done], timeout: 2)
    XCTAssertEqual(received, [1])
    cancellable.cancel()
    let timer: Publishers.Autoconnect<Timer.TimerPublisher> = Timer.publish(every: 60, on: .main, in: .common)
      .autoconnect()
    XCTAssertEqual(timer.upstream.interval, 60)
  }
}
