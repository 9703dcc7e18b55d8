import Confluence
import ConfluenceTesting
import Foundation
import XCTest

/// The lifetime matrix: every public publisher, operator, subject and subscriber type
/// (``LifetimeMatrix/all``) × {finished, failure, cancel, cancel before the subscription
/// arrived} × {Confluence's own upstream, a third-party-style upstream whose subscription
/// keeps its subscriber until cancelled}.
///
/// Apple's rule: once nothing more can happen, a publisher, operator, subject or subscriber
/// lets go of its upstream subscription, its downstream and the closures it was given.
/// Each cell builds the row, ends it, lets go of everything the caller holds but the
/// upstreams, and expects every tracked object (the downstream, each closure's capture,
/// the third-party upstream's subscription) to be gone. Rows known to fail are listed with
/// their reason and not run (so that the leak checker stays clean).
final class LifetimeMatrixTests: XCTestCase {
  /// Runs every cell of `rows` for `event`; returns how many ran.
  @discardableResult
  private func runMatrix(_ event: LifetimeEvent, rows: [LifetimeRow] = LifetimeMatrix.all) -> Int {
    var ran = 0
    for row in rows where row.events.contains(event) {
      for upstream in row.upstreams {
        let key = LifetimeRow.key(upstream, event)
        if let reason = row.knownFailures[key] ?? row.knownFailures["*"] {
          print("LifetimeMatrix: skipped \(row.type) [\(key)]: \(reason)")
          continue
        }
        guard let survivors = row.run(upstream, event) else { continue }
        ran += 1
        if let kept = row.kept[key] {
          XCTAssertEqual(survivors, kept.survivors, "\(row.type) [\(key)]: kept on purpose: \(kept.reason)")
        } else {
          XCTAssertEqual(survivors, [], "\(row.type) [\(key)]: still alive after the end")
        }
      }
    }
    return ran
  }

  func test_matrix_finished() { XCTAssertGreaterThan(runMatrix(.finished), 0) }

  func test_matrix_failure() { XCTAssertGreaterThan(runMatrix(.failure), 0) }

  func test_matrix_cancel() { XCTAssertGreaterThan(runMatrix(.cancel), 0) }

  func test_matrix_cancelBeforeSubscription() { XCTAssertGreaterThan(runMatrix(.cancelBeforeSubscription), 0) }

  /// A row per public type: fails when a publisher, subject or subscriber type is added to
  /// the sources without a row here.
  func test_everyPublicPublisherSubjectAndSubscriberType_hasARow() throws {
    let declared = try LifetimeCatalogue.declaredTypes()
    XCTAssertGreaterThan(declared.count, 100, "the scan found the catalogue")
    let rows = Set(LifetimeMatrix.all.map(\.type))
    let missing = declared.subtracting(rows).sorted()
    XCTAssertEqual(missing, [], "public types with no lifetime-matrix row")
  }

  /// Every row names a declared type, or one of the compositions listed here (a subject
  /// used as a subscriber, the extras' operators built from Apple's).
  func test_everyRow_namesADeclaredTypeOrAListedComposition() throws {
    let declared = try LifetimeCatalogue.declaredTypes()
    let compositions: Set = [
      // AnyPublisher conforms to Publisher in an extension, which the scan does not read.
      "AnyPublisher",
      "Publisher.subscribe(Subject)", "Publisher.subscribe(ThirdPartySubject)", "Publisher.concatMap",
      "Publisher.flatMapLatest",
    ]
    let unknown = Set(LifetimeMatrix.all.map(\.type)).subtracting(declared).subtracting(compositions).sorted()
    XCTAssertEqual(unknown, [])
  }

  /// The matrix's cells, counted: rows, cells run, cells known to fail or not applicable.
  func test_matrixSize() {
    let rows = LifetimeMatrix.all
    let cells = rows.reduce(0) { $0 + $1.events.count * $1.upstreams.count }
    let known = rows.reduce(0) { $0 + $1.knownFailures.count }
    print("LifetimeMatrix: \(rows.count) rows, \(cells) cells, \(known) known failures")
    XCTAssertGreaterThanOrEqual(rows.count, 110)
  }
}

/// The public publisher, subject and subscriber types the source tree declares, scanned
/// from the files (found from this file's path).
enum LifetimeCatalogue {
  static let modules = ["Sources/Confluence", "Sources/ConfluenceFoundation", "Sources/ConfluenceExtras"]

  static func declaredTypes(filePath: String = #filePath) throws -> Set<String> {
    var root = URL(fileURLWithPath: filePath)
    while root.lastPathComponent != "Tests" { root.deleteLastPathComponent() }
    root.deleteLastPathComponent()
    var names: Set<String> = []
    for module in modules {
      let directory = root.appendingPathComponent(module)
      guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
        throw CocoaError(.fileNoSuchFile)
      }
      for case let file as URL in files where file.pathExtension == "swift" {
        names.formUnion(scan(try String(contentsOf: file, encoding: .utf8)))
      }
    }
    return names
  }

  /// Finds `public (final) struct|class Name<…>: …Publisher|Subject|Subscriber…` and
  /// qualifies a name declared inside `extension X {` as `X.Name`.
  static func scan(_ text: String) -> Set<String> {
    var names: Set<String> = []
    var enclosing: String?
    let lines = text.components(separatedBy: "\n")
    for (index, line) in lines.enumerated() {
      if line.hasPrefix("extension ") || line.hasPrefix("public extension ") {
        let words = line.split(separator: " ")
        let name = words[words.firstIndex(of: "extension")! + 1]
        enclosing = String(name.prefix { $0 != "{" && $0 != ":" && $0 != "<" })
      } else if line.hasPrefix("}") {
        enclosing = nil
      }
      let trimmed = line.drop { $0 == " " }
      guard
        trimmed.hasPrefix("public struct ") || trimmed.hasPrefix("public final class ")
          || trimmed.hasPrefix("public class ")
      else { continue }
      let afterKeyword = trimmed.split(separator: " ", maxSplits: 3)
      let rest: String =
        trimmed.hasPrefix("public final class ") ? String(afterKeyword[3]) : afterKeyword[2...].joined(separator: " ")
      let name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
      // The declaration up to its body: the conformances follow the generic clause.
      var declaration = String(rest.dropFirst(name.count))
      var next = index + 1
      while !declaration.contains("{"), next < lines.count {
        declaration += " " + lines[next]
        next += 1
      }
      var depth = 0
      var conformances = ""
      var started = false
      for character in declaration {
        if character == "<" { depth += 1 } else if character == ">" { depth -= 1 }
        if depth == 0, character == ":" { started = true; continue }
        if started {
          if character == "{" { break }
          conformances.append(character)
        }
      }
      if let whereRange = conformances.range(of: " where ") {
        conformances = String(conformances[..<whereRange.lowerBound])
      }
      let conforms = conformances.split(separator: ",").contains { item in
        let word = item.trimmingCharacters(in: .whitespaces).split(separator: ".").last.map { String($0) } ?? ""
        return ["Publisher", "ConnectablePublisher", "Subject", "Subscriber"].contains(word)
      }
      guard conforms else { continue }
      let indented = line.hasPrefix(" ")
      names.insert(indented && enclosing != nil ? "\(enclosing!).\(name)" : name)
    }
    return names
  }
}
