import Confluence
import XCTest

/// `autoconnect()` with subscribers arriving on several threads: it connects once however
/// many subscribe at once, and no subscriber skips or repeats a value.
final class AutoconnectRaceTests: XCTestCase {
  func test_makeConnectableAutoconnect_subscribeFromThreeThreadsWhileAFourthSends_connectsOnce() {
    race("makeConnectable().autoconnect(): 3 threads subscribe while a fourth sends upstream", threads: 4) {
      iteration in
      let upstream = PassthroughSubject<RaceTag, Never>()
      let subscriptions = RaceCell()
      let shared = RaceShared(
        upstream.handleEvents(receiveSubscription: { _ in subscriptions.increment() }).makeConnectable()
          .autoconnect())
      ShareRaceTests.concurrentSubscribers(iteration, upstream: upstream, subscriptions: subscriptions) {
        shared.value.eraseToAnyPublisher()
      }
    }
  }

  func test_multicastAutoconnect_subscribeFromThreeThreadsWhileAFourthSends_connectsOnce() {
    race("multicast { PassthroughSubject() }.autoconnect(): 3 threads subscribe while a fourth sends", threads: 4) {
      iteration in
      let upstream = PassthroughSubject<RaceTag, Never>()
      let subscriptions = RaceCell()
      let shared = RaceShared(
        upstream.handleEvents(receiveSubscription: { _ in subscriptions.increment() })
          .multicast { PassthroughSubject<RaceTag, Never>() }.autoconnect())
      ShareRaceTests.concurrentSubscribers(iteration, upstream: upstream, subscriptions: subscriptions) {
        shared.value.eraseToAnyPublisher()
      }
    }
  }

  /// One subscriber cancels (the last one, so autoconnect disconnects) while another
  /// subscribes: at most one connection is live afterwards, and the subscriber that stayed
  /// is connected (a value sent afterwards reaches it).
  func test_lastSubscriberCancels_whileAnotherSubscribes_oneLiveConnection() {
    race("makeConnectable().autoconnect(): the last subscriber cancels while another subscribes", threads: 2) {
      iteration in
      let upstream = PassthroughSubject<RaceTag, Never>()
      let live = RaceCell()
      let shared = RaceShared(
        upstream.handleEvents(
          receiveSubscription: { _ in live.increment() }, receiveCancel: { live.decrement() }
        ).makeConnectable().autoconnect())
      let a = iteration.sink("A", on: shared.value)
      let b = iteration.recorder("B")
      let keeper = RaceKeeper()
      iteration.thread { actor in
        actor.pauses(4)
        a.cancel()
      }
      iteration.thread { actor in
        actor.pauses(4)
        keeper.keep(RaceSink(shared.value, into: b))
      }
      iteration.then { actor in actor.send(3) { upstream.send($0) } }
      iteration.check {
        withExtendedLifetime(keeper) {}
        var found = RaceCheck.exactlyOnce(b, raceTags(threads: 0..<1, count: 3))
        if live.value != 1 {
          found.append(
            RaceViolation(.subscriptions, "\(live.value) upstream subscriptions live after the threads, not one"))
        }
        return found + RaceCheck.noDuplicates(a.recorder)
      }
    }
  }
}
