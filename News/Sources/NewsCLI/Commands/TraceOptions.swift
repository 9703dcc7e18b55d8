import ArgumentParser
import Foundation

#if canImport(ConfluenceTracing)
  import ConfluenceTracing
#endif

/// `--trace FILE` and `--trace-timeline`: a trace of the pipelines of the run, shared by the
/// reading commands (the feeds, `item`, `browse`).
///
/// The trace records every subscription of every pipeline the command makes — each in a
/// lane named after its publisher's type, with its subscription, requests, values,
/// completion and cancel, and the time and thread of each — with ConfluenceTracing's
/// ``TraceRecorder`` (through Combine's `_Introspection` hook, so the commands' code is
/// unchanged). `--trace` writes it as Chrome trace-event JSON (open it at
/// https://ui.perfetto.dev); `--trace-timeline` prints it, one line per event, on standard
/// error once the command has ended.
struct TraceOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Write a trace of the run's pipelines to this file, as trace-event JSON (open it in the Perfetto UI, ui.perfetto.dev).",
      valueName: "file"))
  var trace: String?

  @Flag(help: "Print the trace of the run's pipelines on standard error, one line per event, when the command ends.")
  var traceTimeline = false

  /// Starts recording when a trace was asked for: the session to finish when the command
  /// ends, `nil` otherwise.
  func start() throws -> TraceSession? {
    guard trace != nil || traceTimeline else { return nil }
    #if canImport(ConfluenceTracing)
      return TraceSession(file: trace, timeline: traceTimeline)
    #else
      throw ValidationError("--trace needs ConfluenceTracing, which traces Confluence's Combine (not Apple's).")
    #endif
  }

  /// `body`, recorded when a trace was asked for; the trace is written (or printed) when
  /// `body` returns or throws.
  func recording<T>(_ body: () throws -> T) throws -> T {
    let session = try start()
    defer { session?.finish() }
    return try body()
  }
}

/// One recording of `--trace` / `--trace-timeline`, from the start of a command to its end.
// Safe: `lock` guards `finished`; the recorder is Sendable.
final class TraceSession: @unchecked Sendable {
  let file: String?
  let timeline: Bool
  private let lock = NSLock()
  private var finished = false
  #if canImport(ConfluenceTracing)
    private let recorder = TraceRecorder()
  #endif

  fileprivate init(file: String?, timeline: Bool) {
    self.file = file
    self.timeline = timeline
    #if canImport(ConfluenceTracing)
      recorder.start(everySubscription: true)
    #endif
  }

  /// Stops recording and writes the trace to the file, prints the timeline; once (later
  /// calls do nothing). A file that cannot be written is a warning: the command's own
  /// outcome stands.
  func finish() {
    let first = lock.withLock {
      defer { finished = true }
      return !finished
    }
    guard first else { return }
    #if canImport(ConfluenceTracing)
      recorder.stop()
      if let file {
        do {
          try recorder.writeChromeTrace(toFile: file)
        } catch {
          warn("cannot write the trace to \(file): \(error.localizedDescription)")
        }
      }
      if timeline { FileOutput.standardError.write(recorder.timeline()) }
      if recorder.droppedEventCount > 0 {
        warn(
          "the trace keeps the last \(recorder.capacity) events; \(recorder.droppedEventCount) earlier ones were dropped"
        )
      }
    #endif
  }
}
