import Confluence
import ConfluenceTesting
import XCTest

final class PublishedTests: XCTestCase {
  final class Weather {
    @Published var temperature: Double
    init(temperature: Double) {
      self.temperature = temperature
    }
  }

  func test_appleWeatherExample_currentValueThenEachChange() {
    var printed: [String] = []
    let weather = Weather(temperature: 20)
    let cancellable = weather.$temperature
      .sink { printed.append("Temperature now: \($0)") }
    weather.temperature = 25
    XCTAssertEqual(printed, ["Temperature now: 20.0", "Temperature now: 25.0"])
    withExtendedLifetime(cancellable) {}
  }

  // Apple's Combine (macOS 11 / iOS 14 on, as the conformance suite records) shows a
  // `$property` subscription as `PublishedSubject`; iOS 13 showed `CurrentValueSubject`.
  func test_wholeHistory_subscriptionShownAsPublishedSubject() {
    let weather = Weather(temperature: 1)
    let subscriber = TestSubscriber<Double, Never>()
    weather.$temperature.subscribe(subscriber)
    weather.temperature = 2
    weather.temperature = 3
    XCTAssertEqual(subscriber.events, [.subscription("PublishedSubject"), .value(1), .value(2), .value(3)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_publishesInWillSet_propertyStillOldInsideSubscriber() {
    let weather = Weather(temperature: 20)
    var seen: [String] = []
    let cancellable = weather.$temperature.sink { seen.append("received \($0), property \(weather.temperature)") }
    weather.temperature = 25
    XCTAssertEqual(seen, ["received 20.0, property 20.0", "received 25.0, property 20.0"])
    XCTAssertEqual(weather.temperature, 25)
    withExtendedLifetime(cancellable) {}
  }

  func test_demand_noneThenMaxOneThenMore() {
    let weather = Weather(temperature: 0)
    let subscriber = TestSubscriber<Double, Never>(initialDemand: .none)
    weather.$temperature.subscribe(subscriber)
    weather.temperature = 1
    XCTAssertEqual(subscriber.values, [])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [1], "the first demand delivers the current value")
    weather.temperature = 2
    weather.temperature = 3
    subscriber.request(.max(2))
    XCTAssertEqual(subscriber.values, [1, 3], "then the value current when demand arrives")
    weather.temperature = 4
    XCTAssertEqual(subscriber.values, [1, 3, 4])
  }

  func test_cancelInsideReceive_stopsValues() {
    let weather = Weather(temperature: 0)
    let subscriber = TestSubscriber<Double, Never>()
    subscriber.onValue = { value in
      if value == 1 { subscriber.cancel() }
      return .none
    }
    weather.$temperature.subscribe(subscriber)
    weather.temperature = 1
    weather.temperature = 2
    XCTAssertEqual(subscriber.values, [0, 1])
  }

  func test_objectIsFreed_withLiveSubscriber_andSubscriberIsKept() {
    var weather: Weather? = Weather(temperature: 0)
    weak let weakWeather = weather
    var received: [Double] = []
    let cancellable = weather!.$temperature.sink { received.append($0) }
    weather = nil
    XCTAssertNil(weakWeather, "a $property subscription does not keep the object alive")
    XCTAssertEqual(received, [0])
    withExtendedLifetime(cancellable) {}
  }

  func test_cancelReleasesSubscriber() {
    let tracker = LifetimeTracker()
    let weather = Weather(temperature: 0)
    let cancellable = weather.$temperature.sink { [probe = tracker.make()] _ in _ = probe }
    cancellable.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_initialValueInitializer() {
    var published = Published(initialValue: 5)
    var received: [Int] = []
    let cancellable = published.projectedValue.sink { received.append($0) }
    XCTAssertEqual(received, [5])
    withExtendedLifetime(cancellable) {}
  }

  // MARK: assign(to:)

  final class Model: ObservableObject {
    @Published var lastUpdated = 0
    @Published var label = ""

    init(ticks: PassthroughSubject<Int, Never>) {
      ticks.assign(to: &$lastUpdated)
      $lastUpdated.map { "updated \($0)" }.assign(to: &$label)
    }
  }

  func test_assignToPublished_republishesAndSignalsObjectWillChange() {
    let ticks = PassthroughSubject<Int, Never>()
    let model = Model(ticks: ticks)
    var log: [String] = []
    let changes = model.objectWillChange.sink { log.append("will change") }
    let labels = model.$label.sink { log.append("label: \($0)") }
    ticks.send(7)
    XCTAssertEqual(model.lastUpdated, 7)
    XCTAssertEqual(model.label, "updated 7")
    XCTAssertEqual(log, ["label: updated 0", "will change", "will change", "label: updated 7"])
    withExtendedLifetime((changes, labels)) {}
  }

  func test_assignToPublished_isCancelledWhenTheObjectGoesAway() {
    final class Holder {
      @Published var value = 0
    }
    var holder: Holder? = Holder()
    weak let weakHolder = holder
    let ticks = PassthroughSubject<Int, Never>()
    ticks.assign(to: &holder!.$value)
    ticks.send(3)
    XCTAssertEqual(holder?.value, 3)
    holder = nil
    XCTAssertNil(weakHolder, "the assignment does not keep the object alive")
    ticks.send(4)  // goes nowhere, and must not crash
  }

  func test_assignToPublished_cancelsUpstreamOnDeinit() {
    final class Holder {
      @Published var value = 0
    }
    let upstream = SubjectTestsUpstream<Int, Never>()
    var holder: Holder? = Holder()
    upstream.assign(to: &holder!.$value)
    XCTAssertEqual(upstream.subscription.requests, [.unlimited])
    _ = upstream.send?(9)
    XCTAssertEqual(holder?.value, 9)
    XCTAssertEqual(upstream.subscription.cancels, 0)
    holder = nil
    XCTAssertEqual(upstream.subscription.cancels, 1)
  }

  func test_assignToOn_publishedProperty() {
    let weather = Weather(temperature: 0)
    var received: [Double] = []
    let observer = weather.$temperature.sink { received.append($0) }
    let assignment = [1.5, 2.5].publisher.assign(to: \.temperature, on: weather)
    XCTAssertEqual(received, [0, 1.5, 2.5])
    XCTAssertEqual(weather.temperature, 2.5)
    withExtendedLifetime((observer, assignment)) {}
  }

  // MARK: The print pipeline of "Debugging pipelines with the print operator" ("Using Combine")

  struct GithubAPIUser: CustomStringConvertible {
    let login: String
    let publicRepos: Int
    var description: String { "GithubAPIUser(login: \"\(login)\", public_repos: \(publicRepos))" }
  }

  final class GithubViewController {
    @Published var githubUserData: [GithubAPIUser] = []
    final class Label { var text = "" }
    let repositoryCountLabel = Label()
    var repositoryCountSubscriber: AnyCancellable?

    init(log: LineCollector) {
      repositoryCountSubscriber =
        $githubUserData
        .print("github user data: ", to: log)
        .map { userData -> String in
          if let firstUser = userData.first {
            return String(firstUser.publicRepos)
          }
          return "unknown"
        }
        .assign(to: \.text, on: repositoryCountLabel)
    }
  }

  // "Using Combine" printed `(CurrentValueSubject)` here: it was recorded on iOS 13, whose
  // `@Published` was built on a CurrentValueSubject. Today's Apple Combine (and the
  // conformance suite) shows `PublishedSubject`; the rest of the printed lines are the seed's.
  func test_seedPrintPipeline_showsPublishedSubject() {
    let log = LineCollector()
    let controller = GithubViewController(log: log)
    controller.githubUserData = []
    controller.githubUserData = [GithubAPIUser(login: "heckj", publicRepos: 69)]
    XCTAssertEqual(
      log.lines,
      [
        "github user data: : receive subscription: (PublishedSubject)",
        "github user data: : request unlimited",
        "github user data: : receive value: ([])",
        "github user data: : receive value: ([])",
        "github user data: : receive value: ([GithubAPIUser(login: \"heckj\", public_repos: 69)])",
      ])
    XCTAssertEqual(controller.repositoryCountLabel.text, "69")
  }

  // MARK: The view model of "Combine networking with a hint of SwiftUI", on a local publisher.

  struct Movie: Identifiable, Equatable {
    var id: Int { movieId }
    let movieId: Int
    let originalTitle: String
    let title: String
  }

  struct MovieResponse {
    let movies: [Movie]
  }

  final class MovieViewModel: ObservableObject {
    @Published var movies: [Movie] = []
    var cancellationToken: AnyCancellable?
    let source: PassthroughSubject<MovieResponse, Error>
    let log: (String) -> Void

    init(source: PassthroughSubject<MovieResponse, Error>, log: @escaping (String) -> Void) {
      self.source = source
      self.log = log
      getMovies()
    }

    func getMovies() {
      cancellationToken =
        source
        .map { $0 }
        .sink(
          receiveCompletion: { [log] completion in log("completion: \(completion)") },
          receiveValue: { self.movies = $0.movies })
    }
  }

  func test_seedViewModel_bindsTheListThroughPublished() {
    var printed: [String] = []
    let source = PassthroughSubject<MovieResponse, Error>()
    let viewModel = MovieViewModel(source: source) { printed.append($0) }
    let redraws = viewModel.objectWillChange.sink { printed.append("view will redraw") }
    let titles = viewModel.$movies
      .map { $0.map(\.title).joined(separator: ", ") }
      .sink { printed.append("list: [\($0)]") }

    final class Label { var text = "" }
    let countLabel = Label()
    let count = viewModel.$movies.map { "\($0.count) movies" }.assign(to: \.text, on: countLabel)

    source.send(
      MovieResponse(movies: [
        Movie(movieId: 1, originalTitle: "Le Mans '66", title: "Ford v Ferrari"),
        Movie(movieId: 2, originalTitle: "Parasite", title: "Parasite"),
      ]))
    source.send(completion: .finished)

    XCTAssertEqual(
      printed,
      [
        "list: []",
        "view will redraw",
        "list: [Ford v Ferrari, Parasite]",
        "completion: finished",
      ])
    XCTAssertEqual(viewModel.movies.map(\.movieId), [1, 2])
    XCTAssertEqual(countLabel.text, "2 movies")
    withExtendedLifetime((redraws, titles, count)) {}
    // The seed's sink captures `self` strongly (a cycle through the stored token, in Apple's
    // Combine too, whose Sink keeps its closures): the view model's owner breaks it.
    viewModel.cancellationToken = nil
  }
}
