import ArgumentParser
import Combine
import Foundation
import HackerNews

struct ItemCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "item",
    abstract: "One story, poll, job or comment, with its comment tree.",
    discussion: "Comments are fetched breadth-first, --concurrency at a time, and printed as a tree, indented.")

  @Argument(help: "The item's id.") var id: Int
  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var display: DisplayOptions

  func run() throws {
    let (api, server) = try connection.connect()
    defer { server?.stop() }
    let options = OutputOptions.detect(json: display.json)
    let printer = CommentPrinter(options: options, retries: connection.retries)
    let output = FileOutput.standardOutput
    let queue = DispatchQueue(label: "news.output")

    // The item and, for a poll, its options.
    var fetched: Result<(Item, [Ranked<Item?>]), API.Error>?
    let root = api.item(id: id)
      .flatMap { item -> AnyPublisher<(Item?, [Ranked<Item?>]), API.Error> in
        guard let item, !item.parts.isEmpty else {
          return Just((item, [])).setFailureType(to: API.Error.self).eraseToAnyPublisher()
        }
        return api.items(ids: item.parts, maxConcurrent: connection.concurrency)
          .collect()
          .map { (item, $0) }
          .setFailureType(to: API.Error.self)
          .eraseToAnyPublisher()
      }
    var missing = false
    runUntilComplete(
      root, on: queue,
      receiveValue: { item, parts in
        if let item { fetched = .success((item, parts)) } else { missing = true }
      },
      receiveCompletion: { completion in
        if case .failure(let error) = completion { fetched = .failure(error) }
      })
    if missing { throw fail("item \(id) is not on the server.") }
    guard case .success(let (item, parts)) = fetched else {
      if case .failure(let error) = fetched {
        throw fail("cannot load item \(id): \(ErrorText.describe(error, retries: connection.retries)) (\(api.request(.item(id)).url!.absoluteString))\(connection.hint(for: error))")
      }
      return
    }
    output.write(printer.header(item, pollOptions: parts))

    // The comment tree, breadth-first; a progress line on a terminal.
    var comments: [Ranked<Item?>] = []
    let expected = max(item.descendants ?? 0, item.kids.count)
    var progressShown = false
    runUntilComplete(
      api.comments(of: item, maxConcurrent: connection.concurrency), on: queue,
      receiveValue: { ranked in
        comments.append(ranked)
        if options.interactive {
          output.write("\r\u{1B}[2K" + options.style.dim("Loading comments: \(comments.count) of \(max(expected, comments.count)) …"))
          progressShown = true
        }
      },
      receiveCompletion: { _ in
        if progressShown { output.write("\r\u{1B}[2K") }
      })
    output.write(printer.tree(of: item, comments: comments))
    let failed = comments.filter { if case .failure = $0.result { return true } else { return false } }.count
    if failed > 0 {
      throw fail("\(failed) comment\(failed == 1 ? "" : "s") could not be loaded.")
    }
  }
}
