import Foundation
import Synchronization

/// How a child process ended, and what it printed.
struct ChildProcessResult {
  /// Whether it exited or died of a signal.
  let reason: Process.TerminationReason
  /// The exit status, or the signal's number.
  let status: Int32
  /// Standard output and standard error, interleaved as written.
  let output: String
  /// Whether it was still running at the deadline (it was then terminated).
  let timedOut: Bool
}

/// Runs `executable` with `arguments`, this process's environment plus `environment`, and
/// returns when it ends, or after `timeout` (it is then terminated). Its output is read
/// while it runs, so a chatty child cannot block on a full pipe.
func runChildProcess(
  _ executable: URL, arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 120
) throws -> ChildProcessResult {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.environment = ProcessInfo.processInfo.environment.merging(environment, uniquingKeysWith: { $1 })
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  let collected = Mutex(Data())
  let finishedReading = DispatchSemaphore(value: 0)
  try process.run()
  Thread {
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    collected.withLock { $0 = data }
    finishedReading.signal()
  }.start()
  let deadline = Date().addingTimeInterval(timeout)
  while process.isRunning && Date() < deadline { usleep(10_000) }
  let timedOut = process.isRunning
  if timedOut { process.terminate() }
  process.waitUntilExit()
  finishedReading.wait()
  let output = collected.withLock { String(decoding: $0, as: UTF8.self) }
  return ChildProcessResult(
    reason: process.terminationReason, status: process.terminationStatus, output: output, timedOut: timedOut)
}
