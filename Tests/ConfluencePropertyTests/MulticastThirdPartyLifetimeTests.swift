import Confluence
import ConfluenceExtras
import ConfluenceTesting
import XCTest

/// Apple's rule for the multicast relay (what `multicast` subscribes to its subject for each
/// subscriber): once its subscription ends — the subject completed it, or the subscriber
/// cancelled — it lets go of the subject's subscription. With a subject written outside
/// Confluence, whose subscription keeps its subscriber until cancelled (also after
/// completion), a relay that kept that subscription would keep itself, its downstream, the
/// subject and the source alive for good.
final class MulticastThirdPartyLifetimeTests: XCTestCase {
  /// Builds `source.multicast { ThirdPartySubject() }.autoconnect().sink { … }`, ends the
  /// source with `completion`, lets go of everything, and checks that nothing survived.
  private func assertAutoconnectedMulticastIsFreed(
    endingWith completion: Subscribers.Completion<TestError>, file: StaticString = #filePath, line: UInt = #line
  ) {
    let tracker = LifetimeTracker()
    weak var weakSource: PassthroughSubject<Int, TestError>?
    weak var weakSubject: ThirdPartySubject<Int, TestError>?
    typealias Shared = Publishers.Autoconnect<
      Publishers.Multicast<PassthroughSubject<Int, TestError>, ThirdPartySubject<Int, TestError>>
    >
    weak var weakShared: Shared?
    var received: [Int] = []
    var completions: [Subscribers.Completion<TestError>] = []
    do {
      let source = PassthroughSubject<Int, TestError>()
      weakSource = source
      let shared = source.multicast { () -> ThirdPartySubject<Int, TestError> in
        let subject = ThirdPartySubject<Int, TestError>()
        weakSubject = subject
        return subject
      }.autoconnect()
      weakShared = shared
      let cancellable = shared.sink(
        receiveCompletion: { [probe = tracker.make()] in
          withExtendedLifetime(probe) {}
          completions.append($0)
        },
        receiveValue: { [probe = tracker.make()] in received.append($0 + probe.id - probe.id) })
      source.send(1)
      source.send(2)
      source.send(completion: completion)
      withExtendedLifetime(cancellable) {}
    }
    XCTAssertEqual(received, [1, 2], file: file, line: line)
    XCTAssertEqual(completions, [completion], file: file, line: line)
    XCTAssertNil(weakSubject, "the subject", file: file, line: line)
    XCTAssertNil(weakShared, "the autoconnected multicast", file: file, line: line)
    XCTAssertNil(weakSource, "the source", file: file, line: line)
    XCTAssertEqual(tracker.liveCount, 0, "the sink's closures", file: file, line: line)
  }

  func test_autoconnectedMulticastOverAThirdPartySubject_isFreed_whenTheSourceFinishes() {
    assertAutoconnectedMulticastIsFreed(endingWith: .finished)
  }

  func test_autoconnectedMulticastOverAThirdPartySubject_isFreed_whenTheSourceFails() {
    assertAutoconnectedMulticastIsFreed(endingWith: .failure(TestError()))
  }

  /// A subscriber that keeps whatever subscription it is given (as recording and debugging
  /// subscribers do), so that the relay stays alive and what it still holds shows.
  private final class KeepingSubscriber: Subscriber {
    var subscription: Subscription?
    func receive(subscription: Subscription) {
      self.subscription = subscription
      subscription.request(.unlimited)
    }
    func receive(_ input: Int) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<TestError>) {}
  }

  private enum Ending: CaseIterable {
    case cancel, finished, failure
  }

  func test_multicastRelay_letsGoOfTheSubjectsSubscription_atCancelAndCompletion() {
    for ending in Ending.allCases {
      let subject = ThirdPartySubject<Int, TestError>()
      let subscriber = KeepingSubscriber()
      PassthroughSubject<Int, TestError>().multicast(subject: subject).subscribe(subscriber)
      weak let subjectsSubscription = subject.latestSubscription
      XCTAssertNotNil(subjectsSubscription, "\(ending)")
      XCTAssertNotNil(subscriber.subscription, "\(ending)")
      switch ending {
      case .cancel: subscriber.subscription?.cancel()
      case .finished: subject.send(completion: .finished)
      case .failure: subject.send(completion: .failure(TestError()))
      }
      // The subject forgot the subscription; the relay, kept alive by the subscriber, must
      // not hold it either.
      XCTAssertNil(subjectsSubscription, "\(ending)")
      withExtendedLifetime(subscriber) {}
    }
  }

  func test_multicastRelay_letsGoOfItsDownstream_atCancelAndCompletion() {
    for ending in Ending.allCases {
      let subject = ThirdPartySubject<Int, TestError>()
      weak var weakSubscriber: KeepingSubscriber?
      do {
        let subscriber = KeepingSubscriber()
        weakSubscriber = subscriber
        PassthroughSubject<Int, TestError>().multicast(subject: subject).subscribe(subscriber)
        switch ending {
        case .cancel: subscriber.subscription?.cancel()
        case .finished: subject.send(completion: .finished)
        case .failure: subject.send(completion: .failure(TestError()))
        }
      }
      // The subscriber keeps the relay (its subscription); the relay must not keep it.
      XCTAssertNil(weakSubscriber, "\(ending)")
    }
  }
}

extension MulticastThirdPartyLifetimeTests {
  /// A `share(replay:)` as libraries build it: multicast through their own subject, then
  /// autoconnect, kept weakly so that it resets once nobody subscribes.
  private final class ReferenceCountedShare {
    typealias Shared = Publishers.Autoconnect<
      Publishers.Multicast<ThirdPartyPublisher<Int, TestError>, ThirdPartySubject<Int, TestError>>
    >
    let source: ThirdPartyPublisher<Int, TestError>
    weak var current: Shared?
    private(set) var built = 0

    init(source: ThirdPartyPublisher<Int, TestError>) {
      self.source = source
    }

    func publisher() -> Shared {
      if let current { return current }
      built += 1
      let made = source.multicast { ThirdPartySubject() }.autoconnect()
      current = made
      return made
    }
  }

  func test_referenceCountedShareOverAThirdPartySubject_resets_whenItsLastSubscriberCancels() {
    let share = ReferenceCountedShare(source: ThirdPartyPublisher())
    var first: [Int] = []
    var second: [Int] = []
    var a: AnyCancellable? = share.publisher().sink(receiveCompletion: { _ in }, receiveValue: { first.append($0) })
    var b: AnyCancellable? = share.publisher().sink(receiveCompletion: { _ in }, receiveValue: { second.append($0) })
    share.source.send(1)
    XCTAssertEqual(share.built, 1)
    a?.cancel()
    a = nil
    XCTAssertNotNil(share.current, "one subscriber is left")
    share.source.send(2)
    b?.cancel()
    b = nil
    XCTAssertNil(share.current, "the last subscriber left")
    XCTAssertEqual(first, [1])
    XCTAssertEqual(second, [1, 2])
    withExtendedLifetime(share.publisher()) {}
    XCTAssertEqual(share.built, 2)
  }
}
