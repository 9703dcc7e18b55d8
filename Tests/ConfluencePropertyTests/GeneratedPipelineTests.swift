import Foundation
import XCTest

/// Random pipelines of 1–8 stages from the whole catalogue (mapping, filtering, reducing,
/// errors, buffering, flattening, sharing, combining, time on the virtual clock, the
/// extras) over random sources, driven with random demand schedules, subject sends, clock
/// advances and cancel points. Each must keep the contract on every event, deliver what
/// the same steps give on a Swift sequence where that is defined, and free everything.
///
/// `CONFLUENCE_PIPELINES=N` runs N pipelines instead of the default (a longer soak);
/// `CONFLUENCE_PIPELINE_SEED=S` starts from seed S (a failure prints the seed to rerun);
/// `CONFLUENCE_PIPELINE_TRACE=1` prints each pipeline before it runs (for a crash, which
/// prints no seed).
final class GeneratedPipelineTests: XCTestCase {
  private var count: Int {
    ProcessInfo.processInfo.environment["CONFLUENCE_PIPELINES"].flatMap(Int.init) ?? 3000
  }

  private var firstSeed: UInt64 {
    ProcessInfo.processInfo.environment["CONFLUENCE_PIPELINE_SEED"].flatMap(UInt64.init) ?? 0xC0FFEE
  }

  private var trace: Bool { ProcessInfo.processInfo.environment["CONFLUENCE_PIPELINE_TRACE"] == "1" }

  func test_generatedPipelines_keepTheContractDeliverTheModelAndFreeEverything() {
    var failures = 0
    var modelled = 0
    for index in 0..<count {
      let seed = firstSeed &+ UInt64(index)
      let pipeline = Pipeline.random(seed: seed)
      if trace { FileHandle.standardError.write(Data("seed \(seed): \(pipeline)\n".utf8)) }
      if PipelineModel.expected(for: pipeline) != nil { modelled += 1 }
      let problems = PipelineRunner.problems(in: pipeline)
      guard !problems.isEmpty else { continue }
      failures += 1
      let (shrunk, shrunkProblems) = PipelineRunner.shrink(pipeline)
      XCTFail(
        """
        seed \(seed) (rerun: CONFLUENCE_PIPELINE_SEED=\(seed) CONFLUENCE_PIPELINES=1)
          pipeline: \(pipeline)
          problems: \(problems)
          shrunk:   \(shrunk)
          problems: \(shrunkProblems)
        """)
      if failures >= 10 { break }
    }
    // The generator must keep producing pipelines the model can check, or the value
    // comparison silently stops covering anything.
    XCTAssertGreaterThan(modelled, count / 10, "only \(modelled) of \(count) pipelines had a model")
  }

  /// The generator itself: the same seed gives the same pipeline, and different seeds
  /// reach every kind of stage.
  func test_generator_isDeterministicAndCoversTheCatalogue() {
    XCTAssertEqual(Pipeline.random(seed: 42), Pipeline.random(seed: 42))
    var kinds = Set<String>()
    for seed in 0..<2000 as Range<UInt64> {
      for stage in Pipeline.random(seed: seed).stages {
        kinds.insert(Mirror(reflecting: stage).children.first?.label ?? stage.description)
      }
    }
    XCTAssertGreaterThanOrEqual(kinds.count, 50, "stage kinds reached: \(kinds.sorted())")
  }

  /// Third-party-style publishers and subjects (whose subscriptions keep their subscribers
  /// until cancelled) appear as sources and as the subjects of `multicast`/`subscribe(_:)`.
  func test_generator_reachesTheThirdPartySourcesAndSubjects() {
    var sources = Set<String>()
    var stages = Set<String>()
    for seed in 0..<3000 as Range<UInt64> {
      let pipeline = Pipeline.random(seed: seed)
      switch pipeline.source {
      case .thirdPartyPublisher: sources.insert("publisher")
      case .thirdPartySubject: sources.insert("subject")
      default: break
      }
      for stage in pipeline.stages {
        switch stage {
        case .multicastThirdPartyAutoconnect: stages.insert("multicast")
        case .subscribeThirdPartySubject: stages.insert("subscribe")
        default: break
        }
      }
    }
    XCTAssertEqual(sources, ["publisher", "subject"])
    XCTAssertEqual(stages, ["multicast", "subscribe"])
  }

  /// The model is a real reference, not a mirror of the implementation: a few pipelines
  /// whose outcome is worked out by hand.
  func test_model_matchesHandWorkedExamples() {
    func model(_ source: Source, _ stages: [Stage]) -> PipelineModel? {
      PipelineModel.expected(for: Pipeline(source: source, stages: stages, plan: .unlimited))
    }
    XCTAssertEqual(model(.sequence([1, 2, 3, 4]), [.map(2), .filter(3)])?.values, [5, 7])
    XCTAssertEqual(model(.sequence([1, 2, 3]), [.scan, .prefix(2)]), PipelineModel(values: [1, 3], end: .finished))
    XCTAssertEqual(
      model(.sequenceThenFail([1, 2]), [.retry(1)]), PipelineModel(values: [1, 2, 1, 2], end: .failure("source")))
    XCTAssertEqual(model(.fail, [.replaceError(7)]), PipelineModel(values: [7], end: .finished))
    XCTAssertEqual(model(.sequence([1, 2, 3, 4, 5]), [.collectCount(2)])?.values, [3, 7, 5])
    XCTAssertEqual(model(.sequence([1, 2]), [.zip(.sequence([3, 4, 5]))])?.values, [103, 204])
    XCTAssertNil(model(.sequence([1]), [.debounce(2)]))
    XCTAssertNil(model(.passthrough([1], fails: false), [.map(1)]))
  }

  /// The checks can fail: a pipeline that breaks the contract on purpose is caught.
  func test_testSubscriber_reportsAPublisherThatIgnoresDemand() {
    let problems = PipelineRunnerSelfCheck.problemsOfAPublisherThatIgnoresDemand()
    XCTAssertTrue(problems.contains { $0.contains("beyond the demand") }, "\(problems)")
  }
}
