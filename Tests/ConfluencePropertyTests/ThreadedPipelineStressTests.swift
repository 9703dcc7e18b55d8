import Foundation
import XCTest

/// Generated pipelines under threads: each hot source is sent to from its own thread while
/// another thread requests and cancels. The contract must hold, deliveries must never
/// overlap, no run may hang, everything must be freed, and where the outcome cannot depend
/// on the schedule the values must be the model's. CI also runs this class under the thread
/// sanitizer (`.ci/run` runs every `*StressTests` class with `--sanitize=thread`).
///
/// `CONFLUENCE_THREADED_PIPELINES=N` runs N instead of the default;
/// `CONFLUENCE_PIPELINE_SEED=S` starts from seed S; `CONFLUENCE_PIPELINE_REPEAT=R` runs each
/// pipeline R times (a schedule that fails once in thousands of runs shows up again).
final class ThreadedPipelineStressTests: XCTestCase {
  private var count: Int {
    ProcessInfo.processInfo.environment["CONFLUENCE_THREADED_PIPELINES"].flatMap(Int.init) ?? 300
  }

  private var firstSeed: UInt64 {
    ProcessInfo.processInfo.environment["CONFLUENCE_PIPELINE_SEED"].flatMap(UInt64.init) ?? 0xBEEF
  }

  private var repeats: Int {
    ProcessInfo.processInfo.environment["CONFLUENCE_PIPELINE_REPEAT"].flatMap(Int.init) ?? 1
  }

  func test_threadedPipelines_keepTheContractNeverOverlapNeverHangAndFreeEverything() {
    var failures = 0
    var modelled = 0
    for index in 0..<count where failures < 10 {
      let seed = firstSeed &+ UInt64(index)
      let pipeline = ThreadedPipelineRunner.randomPipeline(seed: seed)
      if ThreadedPipelineRunner.model(for: pipeline) != nil { modelled += 1 }
      for run in 0..<repeats {
        let problems = ThreadedPipelineRunner.problems(in: pipeline)
        guard !problems.isEmpty else { continue }
        failures += 1
        XCTFail(
          """
          seed \(seed), run \(run + 1) of \(repeats) (rerun: CONFLUENCE_PIPELINE_SEED=\(seed) \
          CONFLUENCE_THREADED_PIPELINES=1 CONFLUENCE_PIPELINE_REPEAT=\(repeats))
            pipeline: \(pipeline)
            problems: \(problems)
          """)
        break
      }
    }
    // A rerun of one seed need not have a model; a whole run must have enough of them.
    if count >= 20 {
      XCTAssertGreaterThan(modelled, count / 20, "only \(modelled) of \(count) threaded pipelines had a model")
    }
  }
}
