import Foundation
import NewsServer
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// The `news` binary built next to the test bundle.
func newsBinary() throws -> URL {
  let candidates = [
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("news"),
    Bundle.main.bundleURL.appendingPathComponent("news"),
    Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("news"),
  ]
  for url in candidates where FileManager.default.isExecutableFile(atPath: url.path) { return url }
  throw XCTSkip("the news binary was not found next to the tests (\(candidates.map(\.path)))")
}

/// What a finished process wrote and how it ended.
struct Run {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// A running `news` process.
final class NewsProcess: @unchecked Sendable {
  let process = Process()
  private let out = Pipe()
  private let err = Pipe()
  private let lock = NSLock()
  private var outData = Data()
  private var errData = Data()
  private var dataFolder: URL?

  init(_ arguments: [String], environment: [String: String] = [:]) throws {
    process.executableURL = try newsBinary()
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = nil
    // Each run keeps its database in a folder of its own (removed when it ends) unless the
    // test names one, so that tests never read or write the database of the person running them.
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("news-cli-data-\(UUID().uuidString)")
    dataFolder = data
    env["XDG_DATA_HOME"] = data.path
    for (key, value) in environment { env[key] = value }
    process.environment = env
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    out.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      self?.lock.withLock { self?.outData.append(data) }
    }
    err.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      self?.lock.withLock { self?.errData.append(data) }
    }
    try process.run()
  }

  var stdoutSoFar: String { lock.withLock { String(decoding: outData, as: UTF8.self) } }

  /// Waits until standard output contains `text`, at most `timeout` seconds.
  @discardableResult
  func waitForOutput(containing text: String, timeout: TimeInterval = 20) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if stdoutSoFar.contains(text) { return true }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return false
  }

  func interrupt() { kill(process.processIdentifier, SIGINT) }

  /// Waits for the process to end (killing it after `timeout` seconds).
  func finish(timeout: TimeInterval = 60) -> Run {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    if process.isRunning {
      process.terminate()
      XCTFail("news \(process.arguments ?? []) did not end within \(timeout) s")
    }
    process.waitUntilExit()
    if let dataFolder { try? FileManager.default.removeItem(at: dataFolder) }
    out.fileHandleForReading.readabilityHandler = nil
    err.fileHandleForReading.readabilityHandler = nil
    let restOut = out.fileHandleForReading.readDataToEndOfFile()
    let restErr = err.fileHandleForReading.readDataToEndOfFile()
    return lock.withLock {
      outData.append(restOut)
      errData.append(restErr)
      return Run(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
    }
  }
}

/// Runs `news` with `arguments` to the end.
func news(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60) throws -> Run {
  try NewsProcess(arguments, environment: environment).finish(timeout: timeout)
}

/// A small snapshot folder written for a test.
func makeSnapshot(feeds: [String: [Any]], items: [[String: Any]] = []) throws -> Snapshot {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("news-cli-test-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  for (name, list) in feeds {
    try JSONSerialization.data(withJSONObject: list).write(to: folder.appendingPathComponent("\(name)stories.json"))
  }
  try JSONSerialization.data(withJSONObject: items).write(to: folder.appendingPathComponent("items.json"))
  return try Snapshot(folders: [folder])
}
