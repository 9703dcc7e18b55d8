import Foundation
import HackerNews
import XCTest

@testable import NewsCLI

/// Frames fit the terminal whatever the text: every size, every screen.
final class ReaderRendererTests: XCTestCase {
  /// A story whose title is wide (CJK, emoji), long, and carries escape sequences.
  let hostile = Item(
    id: 7, kind: .story, by: "m\u{1B}[31mallory", time: 1_573_500_000,
    title: "日本語のタイトル 🎉 \u{1B}]0;pwned\u{07}" + String(repeating: "very long title ", count: 12),
    url: "https://example.org/x", score: 3, descendants: 1, kids: [8])
  let reply = Item(
    id: 8, kind: .comment, by: "eve", time: 1_573_500_100,
    text: "<pre><code>" + String(repeating: "x", count: 300) + "</code></pre><p>"
      + String(repeating: "word ", count: 80),
    parent: 7)

  func states(size: TerminalSize) -> [ReaderState] {
    var list = ReaderState(limit: 30, size: size)
    list.feeds[.top] = FeedList(ids: [7, 9], items: [7: hostile], failures: [9: "the server answered HTTP 500"])
    var story = list
    story.story = StoryView(story: hostile, comments: [8: reply], loading: false, cursor: 8)
    var help = list
    help.showHelp = true
    var filtering = list
    filtering.filterInput = String(repeating: "日", count: 100)
    return [list, story, help, filtering]
  }

  func test_everyFrame_hasOneLinePerRow_andNoLineWiderThanTheTerminal() {
    for style in [Style.plain, Style(enabled: true)] {
      for rows in [3, 5, 12, 40] {
        for columns in [10, 11, 33, 80, 200] {
          let size = TerminalSize(rows: rows, columns: columns)
          for (index, state) in states(size: size).enumerated() {
            let frame = ReaderRenderer(style: style, now: Date(timeIntervalSince1970: 1_573_560_000)).render(state)
            let label = "state \(index) at \(rows)×\(columns), colours \(style.enabled)"
            XCTAssertEqual(frame.count, rows, label)
            for line in frame {
              let visible = line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
              XCTAssertLessThanOrEqual(TerminalText.width(visible), columns, "\(label): \(visible)")
              XCTAssertFalse(visible.contains("\u{1B}"), "\(label): an escape sequence from the text reached the frame")
            }
          }
        }
      }
    }
  }

  func test_aCutColouredLine_endsWithAReset() {
    let line = Style(enabled: true).bold("abcdef")
    XCTAssertEqual(ReaderRenderer.clip(line, to: 3), "\u{1B}[1mabc\u{1B}[0m")
    XCTAssertEqual(ReaderRenderer.clip("日本語", to: 5), "日本")
  }
}
