import Confluence
import XCTest

/// `multicast(_:)` connected by one thread while others subscribe and one sends: the
/// upstream is subscribed once; each subscriber gets every value sent after both its
/// subscribe and the connect returned, none twice, without a gap.
final class MulticastRaceTests: XCTestCase {
  func test_connect_racingTwoSubscribersAndASender_connectsOnceNoValueTwice() {
    race("multicast(subject:): connect while 2 threads subscribe and one sends", threads: 4) { iteration in
      let upstream = PassthroughSubject<RaceTag, Never>()
      let subscriptions = RaceCell()
      let multicast = RaceShared(
        upstream.handleEvents(receiveSubscription: { _ in subscriptions.increment() })
          .multicast(subject: PassthroughSubject<RaceTag, Never>()))
      let progress = RaceProgress()
      let connectedAt = RaceCell()
      let subscribedAt = [RaceCell(), RaceCell()]
      let recorders = [iteration.recorder("A"), iteration.recorder("B")]
      let keeper = RaceKeeper()
      iteration.thread { actor in
        actor.pauses(4)
        actor.send(12, progress: progress) { upstream.send($0) }
      }
      iteration.thread { actor in
        actor.pauses(6)
        keeper.keep(AnyCancellable(multicast.value.connect()))
        connectedAt.value = progress.begunCount
      }
      for index in 0..<2 {
        iteration.thread { actor in
          actor.pauses(6)
          keeper.keep(RaceSink(multicast.value, into: recorders[index]))
          subscribedAt[index].value = progress.begunCount
        }
      }
      iteration.check {
        withExtendedLifetime(keeper) {}
        var found: [RaceViolation] = []
        if subscriptions.value != 1 {
          found.append(
            RaceViolation(.subscriptions, "the upstream was subscribed \(subscriptions.value) times, not once"))
        }
        for (index, recorder) in recorders.enumerated() {
          found += RaceCheck.noDuplicates(recorder) + RaceCheck.threadOrder(recorder)
          found += RaceCheck.unbrokenRun(
            recorder, thread: 0, sent: 12, mustFrom: max(connectedAt.value, subscribedAt[index].value))
        }
        return found
      }
    }
  }
}
