import Confluence
import XCTest

/// `@Published` properties set from several threads: each subscriber of `$property` gets
/// the initial value, then every value set while it is subscribed, exactly once, in each
/// thread's order; the object's `objectWillChange` fires once per set.
final class PublishedRaceTests: XCTestCase {
  final class Model: ObservableObject {
    @Published var x = RaceTag.initial
    @Published var y = RaceTag.initial
  }

  func test_setter_fromTwoThreads_oneSubscriberGetsEachValueOnce() {
    race("@Published: 2 threads set one property, one sink on $x", threads: 2) { iteration in
      let model = RaceShared(Model())
      let a = iteration.sink("A", on: model.value.$x)
      for _ in 0..<2 {
        iteration.thread { $0.send(8) { model.value.x = $0 } }
      }
      iteration.check { CurrentValueSubjectRaceTests.everyValueOnce(a.recorder, threads: 2, count: 8) }
    }
  }

  func test_setter_fromThreeThreads_twoSubscribersGetEachValueOnce() {
    race("@Published: 3 threads set one property, two sinks on $x", threads: 3) { iteration in
      let model = RaceShared(Model())
      let a = iteration.sink("A", on: model.value.$x)
      let b = iteration.sink("B", on: model.value.$x)
      for _ in 0..<3 {
        iteration.thread { $0.send(6) { model.value.x = $0 } }
      }
      iteration.check {
        CurrentValueSubjectRaceTests.everyValueOnce(a.recorder, threads: 3, count: 6)
          + CurrentValueSubjectRaceTests.everyValueOnce(b.recorder, threads: 3, count: 6)
      }
    }
  }

  /// Two threads set two properties of one object: `objectWillChange` fires once for every
  /// set, on the setting thread, and each property's subscriber gets its thread's values.
  func test_setters_ofTwoProperties_objectWillChangeFiresOncePerSet() {
    race("@Published: 2 threads set two properties, objectWillChange and $x, $y", threads: 2) { iteration in
      let model = RaceShared(Model())
      let changes = RaceSink(signals: model.value.objectWillChange, into: iteration.recorder("objectWillChange"))
      let x = iteration.sink("x", on: model.value.$x)
      let y = iteration.sink("y", on: model.value.$y)
      iteration.thread { $0.send(8) { model.value.x = $0 } }
      iteration.thread { $0.send(8) { model.value.y = $0 } }
      iteration.check {
        RaceCheck.exactlyOnce(changes.recorder, raceTags(threads: 0..<2, count: 8))
          + RaceCheck.threadOrder(changes.recorder) + RaceCheck.onSendersThread(changes.recorder)
          + RaceCheck.exactlyOnce(x.recorder, [.initial] + raceTags(threads: 0..<1, count: 8))
          + RaceCheck.exactlyOnce(y.recorder, [.initial] + raceTags(threads: 1..<2, count: 8))
      }
    }
  }

  /// Two threads ask a new object for `objectWillChange` for the first time at once: both
  /// get the same publisher ("every access returns the same publisher"), so both of their
  /// subscribers see every change made afterwards.
  func test_objectWillChange_firstAccessedFromTwoThreads_isOnePublisher() {
    race("@Published: 2 threads first access objectWillChange, then a third sets", threads: 2) { iteration in
      let model = RaceShared(Model())
      let recorders = [iteration.recorder("A"), iteration.recorder("B")]
      let identities = [RaceCell(), RaceCell()]
      let keeper = RaceKeeper()
      for index in 0..<2 {
        iteration.thread { actor in
          actor.pauses(3)
          let publisher = model.value.objectWillChange
          identities[index].value = Int(bitPattern: ObjectIdentifier(publisher))
          keeper.keep(RaceSink(signals: publisher, into: recorders[index]))
        }
      }
      iteration.then { actor in actor.send(4) { model.value.x = $0 } }
      iteration.check {
        withExtendedLifetime(keeper) {}
        var found = recorders.flatMap { RaceCheck.exactlyOnce($0, raceTags(threads: 0..<1, count: 4)) }
        if identities[0].value != identities[1].value {
          found.insert(
            RaceViolation(.lost, "the two threads got different objectWillChange publishers for one object"), at: 0)
        }
        return found
      }
    }
  }
}
