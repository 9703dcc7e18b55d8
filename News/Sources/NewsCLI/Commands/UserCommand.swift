import ArgumentParser
import Combine
import Foundation
import HackerNews

struct UserCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "user",
    abstract: "A user's profile: karma, age of the account, about, and how much they submitted.",
    discussion: "With --demo, the bundled data has one user: tukajo (from the API's documentation).")

  @Argument(help: "The user name (case-sensitive).") var name: String
  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var display: DisplayOptions

  func validate() throws {
    guard !name.isEmpty, !name.contains("/") else { throw ValidationError("'\(name)' is not a user name.") }
  }

  func run() throws {
    let (api, server) = try connection.connect()
    defer { server?.stop() }
    var fetched: Result<User?, API.Error>?
    runUntilComplete(
      api.user(id: name), on: DispatchQueue(label: "news.output"),
      receiveValue: { fetched = .success($0) },
      receiveCompletion: { completion in
        if case .failure(let error) = completion { fetched = .failure(error) }
      })
    switch fetched {
    case .success(let user?):
      let options = OutputOptions.detect(json: display.json)
      FileOutput.standardOutput.write(Self.render(user, options: options))
    case .success(nil), nil:
      throw fail("user \(name) is not on the server.")
    case .failure(let error):
      throw fail(
        "cannot load user \(name): \(ErrorText.describe(error, retries: connection.retries)) (\(api.request(.user(name)).url!.absoluteString))\(connection.hint(for: error))"
      )
    }
  }

  /// The profile as text (or one JSON line):
  ///
  /// ```text
  /// tukajo
  /// 1 karma | joined 4 years ago (2022-04-24) | 0 submissions
  /// ```
  static func render(_ user: User, options: OutputOptions) -> String {
    if options.json {
      let data = (try? JSONEncoder.sorted.encode(user)) ?? Data("{}".utf8)
      return TerminalText.line(String(decoding: data, as: UTF8.self)) + "\n"
    }
    let style = options.style
    var meta: [String] = []
    let karma = user.karma ?? 0
    meta.append(style.orange("\(karma) karma"))
    if let created = user.created {
      let date = Date(timeIntervalSince1970: TimeInterval(created))
      meta.append("joined " + Age.describe(date, now: options.now()) + style.dim(" (\(Self.day.string(from: date)))"))
    }
    let submitted = user.submitted?.count ?? 0
    meta.append("\(submitted) submission\(submitted == 1 ? "" : "s")")
    var lines = [style.cyan(style.bold(TerminalText.line(user.id))), meta.joined(separator: style.dim(" | "))]
    if let about = user.about, !about.isEmpty {
      lines.append("")
      lines.append(contentsOf: HTMLText(about).lines(width: min(options.width, 100), style: style))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static let day: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter
  }()
}

extension JSONEncoder {
  /// An encoder with sorted keys, for output that reads the same every run.
  fileprivate static var sorted: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }
}
