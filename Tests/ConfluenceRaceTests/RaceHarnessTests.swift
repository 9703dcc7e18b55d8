import Confluence
import XCTest

/// The race harness checked against subjects with one deliberate flaw each: every kind of
/// broken promise the scenarios look for is reported, with what was seen. (A scenario that
/// passes on the library proves something only because these fail.)
final class RaceHarnessTests: XCTestCase {
  func test_unserialisedDeliveries_areReportedAsTwoEventsAtOnce() {
    expect(.overlapping, from: .unserialised, threads: 2) { subject, iteration in
      let a: RaceSubscriber<Never> = iteration.subscriber("A", pauses: 100)
      subject.subscribe(a)
      return a.recorder
    }
  }

  func test_aDroppedValue_isReportedLost() {
    expect(.lost, from: .dropsValueThree, threads: 2, subscribe: subscriber)
  }

  func test_aValueDeliveredTwice_isReportedDuplicated() {
    expect(.duplicated, from: .duplicatesValueTwo, threads: 2, subscribe: subscriber)
  }

  func test_aThreadsValuesSwapped_areReportedOutOfOrder() {
    expect(.reordered, from: .swapsValuesOneAndTwo, threads: 2, subscribe: subscriber)
  }

  func test_valuesBeyondTheDemand_areReported() {
    expect(.overDemand, from: .ignoresDemand, threads: 2) { subject, iteration in
      let a: RaceSubscriber<Never> = iteration.subscriber("A", demand: .max(3))
      subject.subscribe(a)
      return a.recorder
    }
  }

  func test_aDeliveryOnAnotherThread_isReported() {
    expect(.wrongThread, from: .deliversElsewhere, threads: 2, subscribe: subscriber)
  }

  func test_valuesAfterCancelReturned_andASubscriberKept_areReported() {
    let outcome = runRace("harness: a subject that ignores cancel", threads: 2, iterations: 20) { iteration in
      let subject = FlawedSubject(.ignoresCancel)
      let a: RaceSubscriber<Never> = iteration.subscriber("A")
      subject.subscribe(a)
      let weakA = RaceWeak(a)
      iteration.thread { actor in
        a.cancel()
        actor.send(4) { subject.send($0) }
      }
      let recorder = a.recorder
      iteration.check {
        // The subject lives on (as a subject that is still sent to would), and keeps A.
        withExtendedLifetime(subject) {
          RaceCheck.atMostOneAfterCancel(recorder) + RaceCheck.released(weakA, "subscriber A, after it cancelled")
        }
      }
    }
    XCTAssertEqual(outcome.kinds[.afterCancel], 20, outcome.firstReport ?? "")
    XCTAssertTrue(outcome.firstReport?.contains("subscriber A received 4 events that started after cancel()") == true)
    XCTAssertEqual(outcome.kinds[.notReleased], 20, outcome.firstReport ?? "")
  }

  func test_aSecondCompletion_andAValueAfterIt_areReported() {
    let outcome = runRace("harness: a subject that completes twice", threads: 1, iterations: 20) { iteration in
      let subject = FlawedSubject(.completesTwiceThenSends)
      let b: RaceSubscriber<Never> = iteration.subscriber("B")
      subject.subscribe(b)
      iteration.thread { _ in subject.send(completion: .finished) }
      iteration.check { RaceCheck.oneCompletion(b.recorder) }
    }
    XCTAssertEqual(outcome.kinds[.completion], 20, outcome.firstReport ?? "")
    XCTAssertEqual(outcome.kinds[.afterCompletion], 20, outcome.firstReport ?? "")
  }

  func test_aValueDroppedBeforeAnInterruption_isReportedLost_throughTheInterruptedSendersShape() {
    let outcome = runRace("harness: interrupted senders, a dropped value", threads: 3, iterations: 50) { iteration in
      let subject = FlawedSubject(.dropsValueThree)
      let a = subscriber(subject, iteration)
      let senders = RaceInterruptedSenders.start(in: iteration, send: { subject.send($0) }) {
        subject.send(completion: .finished)
      }
      iteration.check { senders.unbrokenStarts(a) }
    }
    XCTAssertNotNil(outcome.kinds[.lost], "\(outcome.summary)\n\(outcome.firstReport ?? "")")
  }

  func test_aThreadThatNeverReturns_isReportedAsAHang_andTheScenarioStops() {
    let subject = FlawedSubject(.blocksUntilReleased)
    let outcome = runRace("harness: a send that blocks", threads: 2, iterations: 5, deadline: 0.5) { iteration in
      iteration.thread { $0.send(1) { subject.send($0) } }
    }
    subject.release()
    XCTAssertEqual(outcome.ran, 1, "a hang stops the scenario")
    XCTAssertEqual(outcome.kinds[.hang], 1, outcome.firstReport ?? "")
    XCTAssertTrue(
      outcome.firstReport?.contains("thread 0 (after 1 steps) did not return") == true, outcome.firstReport ?? "")
  }

  func test_aFailureReport_namesTheIterationSeedAndEvents() {
    let outcome = runRace("harness: a dropped value", threads: 1, iterations: 3) { iteration in
      let subject = FlawedSubject(.dropsValueThree)
      let a = subscriber(subject, iteration)
      iteration.thread { $0.send(5) { subject.send($0) } }
      iteration.check { RaceCheck.exactlyOnce(a, raceTags(threads: 0..<1, count: 5)) }
    }
    let report = outcome.firstReport ?? ""
    XCTAssertTrue(report.contains("first failure: iteration 0 (iteration seed 0x"), report)
    XCTAssertTrue(report.contains("CONFLUENCE_RACE_SEED=0x"), report)
    XCTAssertTrue(report.contains("thread 0's value 3 was never delivered to subscriber A"), report)
    XCTAssertTrue(report.contains("subscriber A: subscription@main t0#0@t0 t0#1@t0 t0#2@t0 t0#4@t0"), report)
  }

  /// A checking subscriber with unlimited demand, subscribed to `subject` (which keeps it).
  private func subscriber(_ subject: FlawedSubject, _ iteration: RaceIteration) -> RaceRecorder {
    let a: RaceSubscriber<Never> = iteration.subscriber("A")
    subject.subscribe(a)
    return a.recorder
  }

  /// Runs the standard sending scenario (each thread sends 6 values) against a flawed
  /// subject and expects `kind` to be reported in some iteration.
  private func expect(
    _ kind: RaceViolation.Kind, from flaw: FlawedSubject.Flaw, threads: Int, file: StaticString = #filePath,
    line: UInt = #line, subscribe: @escaping (FlawedSubject, RaceIteration) -> RaceRecorder
  ) {
    let outcome = runRace("harness: \(flaw)", threads: threads, iterations: 50) { iteration in
      let subject = FlawedSubject(flaw)
      let recorder = subscribe(subject, iteration)
      for _ in 0..<threads {
        iteration.thread { $0.send(6) { subject.send($0) } }
      }
      iteration.check {
        RaceCheck.exactlyOnce(recorder, raceTags(threads: 0..<threads, count: 6)) + RaceCheck.threadOrder(recorder)
          + RaceCheck.onSendersThread(recorder)
      }
    }
    XCTAssertNotNil(
      outcome.kinds[kind], "\(flaw) was not reported as \(kind): \(outcome.summary)\n\(outcome.firstReport ?? "")",
      file: file,
      line: line)
    XCTAssertNotNil(outcome.firstReport, file: file, line: line)
  }
}
