import Combine
import ConfluenceTesting
import Foundation
import HackerNews
import XCTest

@testable import NewsCLI

/// The reader driven by scripted keys on virtual time, its frames compared whole.
final class ReaderTests: XCTestCase {
  /// Five stories; the first has a thread of three comments (one a reply).
  static let front: [Item] = [
    story(
      1, "Combine on Linux", by: "alice", hours: 3, url: "https://www.example.org/combine", score: 120, kids: [11, 12],
      descendants: 3),
    story(2, "Ask HN: Is Combine worth learning?", by: "bob", hours: 25, score: 1),
    story(3, "Data structures in Swift", by: "carol", hours: 2, url: "https://swift.org/ds", score: 42, kids: [21]),
    story(4, "The Dropbox thread", by: "dhouston", hours: 5, url: "https://getdropbox.com", score: 111, kids: [31]),
    story(5, "Databases, fifty years on", by: "dave", hours: 6, url: "https://cs.cmu.edu/db", score: 160),
  ]
  static let thread: [Item] = [
    comment(11, parent: 1, by: "erin", hours: 2, "Works well on Linux.", kids: [13]),
    comment(12, parent: 1, by: "gina", hours: 1, "Try <i>debounce</i>."),
    comment(13, parent: 11, by: "frank", hours: 1, "Thanks!"),
  ]

  static let header = "Hacker News  [1 top]  2 new  3 best  4 ask  5 show  6 jobs"
  static let listKeys = "j/k move · Enter open · 1-6 feeds · / filter · r refresh · ? keys · q quit"
  static let storyKeys = "j/k comment · n/p top-level · Enter fold · d/u scroll · h back · ? keys · q quit"

  /// The rows of stories 1 to 4, the first page of a 12-row screen, with `selected` marked.
  static func firstPage(selected: Int, read: Set<Int> = []) -> [String] {
    let rows: [(String, String)] = [
      ("1. Combine on Linux (example.org)", "     120 points by alice 3 hours ago | 3 comments"),
      ("2. Ask HN: Is Combine worth learning?", "     1 point by bob 1 day ago | discuss"),
      ("3. Data structures in Swift (swift.org)", "     42 points by carol 2 hours ago | 1 comment"),
      ("4. The Dropbox thread (getdropbox.com)", "     111 points by dhouston 5 hours ago | 1 comment"),
    ]
    return rows.enumerated().flatMap { index, row in
      [(index + 1 == selected ? "▶ " : "  ") + row.0, row.1 + (read.contains(index + 1) ? " · read" : "")]
    }
  }

  func makeReader(
    rows: Int = 12, columns: Int = 80, refresh: DispatchQueue.SchedulerTimeType.Stride? = nil,
    canOpenLinks: Bool = true, store: any ReaderStore = MemoryReaderStore(), openingItem: Int? = nil,
    offline: Bool = false, warnings: AnyPublisher<String, Never> = Empty().eraseToAnyPublisher()
  ) -> ReaderHarness {
    ReaderHarness(
      rows: rows, columns: columns, refresh: refresh, canOpenLinks: canOpenLinks, store: store,
      openingItem: openingItem, offline: offline, warnings: warnings
    ) { source in
      source.addItem(
        Item(
          id: 77, kind: .story, by: "zed", time: Int(readerNow.timeIntervalSince1970) - 3600,
          title: "Ask HN: A long question", text: (1...12).map { "Line \($0)" }.joined(separator: "<p>"), score: 1))
      source.addItem(
        story(
          8863, "My YC app: Dropbox - Throw away your USB drive", by: "dhouston", hours: 24 * 365,
          url: "http://www.getdropbox.com/u/2/screencast.html", score: 111, kids: [9224, 8917], descendants: 2))
      source.setComments(
        of: 8863,
        [
          comment(9224, parent: 8863, by: "BrandonM", hours: 24 * 365, "It does what it says."),
          comment(8917, parent: 8863, by: "brett", hours: 24 * 365, "Congrats."),
        ])
      source.setFeed(.top, Self.front)
      source.setFeed(.new, Array(Self.front.reversed()))
      source.setFeed(.best, [Self.front[4]])
      source.setComments(of: 1, Self.thread)
      source.setComments(of: 3, [comment(21, parent: 3, by: "hal", hours: 1, "Use a ring buffer.")])
    }
  }

  // MARK: The list

  func test_start_showsLoading_thenTheListWhenTheFeedArrives() {
    let harness = makeReader()
    assertFrame(
      harness.frame,
      [Self.header + "  loading …", "", "Loading the top stories …"] + Array(repeating: "", count: 8) + [Self.listKeys])
    harness.wait(100)
    assertFrame(harness.frame, [Self.header, ""] + Self.firstPage(selected: 1) + ["", Self.listKeys])
    XCTAssertEqual(harness.source.log, ["feed top", "feed top loaded"])
  }

  func test_jk_moveTheSelection_andTurnThePage() {
    let harness = makeReader()
    harness.wait(100)
    harness.press(.character("j"))
    assertFrame(harness.frame, [Self.header, ""] + Self.firstPage(selected: 2) + ["", Self.listKeys])
    harness.press(.down, .down, .character("j"))
    assertFrame(
      harness.frame,
      [Self.header, "", "▶ 5. Databases, fifty years on (cs.cmu.edu)", "     160 points by dave 6 hours ago | discuss"]
        + Array(repeating: "", count: 7) + [Self.listKeys])
    harness.press(.character("j"))  // the last story stays selected
    XCTAssertEqual(harness.reader.currentState.selectedRow, 4)
    harness.press(.character("k"))
    assertFrame(harness.frame, [Self.header, ""] + Self.firstPage(selected: 4) + ["", Self.listKeys])
    harness.press(.up, .up, .up, .up)
    assertFrame(harness.frame, [Self.header, ""] + Self.firstPage(selected: 1) + ["", Self.listKeys])
  }

  // MARK: The filter

  func test_filter_appliesOnlyOnceTypingPauses() {
    let harness = makeReader()
    harness.wait(100)
    harness.press(.character("/"))
    harness.type("da", gap: 100)
    // 100 ms after "a": the prompt shows what was typed, the list is not filtered yet, and
    // "d" alone was never applied (typing did not pause for 250 ms after it).
    assertFrame(harness.frame, [Self.header, ""] + Self.firstPage(selected: 1) + ["", "/da▏  Enter keep · Esc clear"])
    XCTAssertEqual(harness.reader.currentState.filter, "")
    harness.wait(149)
    XCTAssertEqual(harness.reader.currentState.filter, "")
    harness.wait(1)
    // 250 ms after "a": the stories whose title or author contains "da", with their ranks.
    assertFrame(
      harness.frame,
      [
        Self.header, "",
        "▶ 3. Data structures in Swift (swift.org)", "     42 points by carol 2 hours ago | 1 comment",
        "  5. Databases, fifty years on (cs.cmu.edu)", "     160 points by dave 6 hours ago | discuss",
      ] + Array(repeating: "", count: 5) + ["/da▏  Enter keep · Esc clear"])
    // Under the filter "d" the second row would be story 4.
    XCTAssertFalse(
      harness.frames.contains { $0.count > 4 && $0[4] == "  4. The Dropbox thread (getdropbox.com)" },
      "the filter \"d\" (which keeps story 4 and drops story 1) was applied")

    // Enter keeps the filter and closes the prompt; Esc clears it once typing pauses.
    harness.press(.enter)
    XCTAssertEqual(harness.frame.last, "filter “da” · Esc clear · / edit · ? keys · q quit")
    harness.press(.escape, thenWait: 250)
    assertFrame(harness.frame, [Self.header, ""] + Self.firstPage(selected: 1) + ["", Self.listKeys])
  }

  func test_filter_theSameTextAgain_isNotReapplied_soTheSelectionStays() {
    let harness = makeReader()
    harness.wait(100)
    harness.press(.character("/"))
    harness.type("da", gap: 0)
    harness.wait(250)
    harness.press(.enter, .character("j"))
    XCTAssertEqual(harness.reader.currentState.selectedRow, 1)
    // Reopen the prompt, delete and retype the last letter: the settled text is "da" again,
    // which removeDuplicates drops, so the list is not filtered anew (that would select row 0).
    harness.press(.character("/"), .backspace, .character("a"), thenWait: 250)
    XCTAssertEqual(harness.reader.currentState.selectedRow, 1)
    XCTAssertEqual(harness.frame[4], "▶ 5. Databases, fifty years on (cs.cmu.edu)")
    // A different text is applied, and selects the first row.
    harness.press(.backspace, thenWait: 250)
    XCTAssertEqual(harness.reader.currentState.filter, "d")
    XCTAssertEqual(harness.reader.currentState.selectedRow, 0)
  }

  // MARK: Feeds and refresh

  func test_feedSwitch_withDigitsAndTab_loadsTheFeed_andCancelsTheLoadBefore() {
    let harness = makeReader()
    harness.wait(100)
    harness.press(.character("2"))
    XCTAssertEqual(harness.frame[0], "Hacker News  1 top  [2 new]  3 best  4 ask  5 show  6 jobs  loading …")
    harness.press(.tab)  // to best, before new arrived
    harness.wait(100)
    XCTAssertEqual(
      harness.source.log,
      ["feed top", "feed top loaded", "feed new", "feed new cancelled", "feed best", "feed best loaded"])
    assertFrame(
      harness.frame,
      [
        "Hacker News  1 top  2 new  [3 best]  4 ask  5 show  6 jobs", "",
        "▶ 1. Databases, fifty years on (cs.cmu.edu)", "     160 points by dave 6 hours ago | discuss",
      ] + Array(repeating: "", count: 7) + [Self.listKeys])
    // Back to top: the list shows at once, with the selection it had.
    harness.press(.backTab, .backTab)
    XCTAssertEqual(Array(harness.frame[2...9]), Self.firstPage(selected: 1))
  }

  func test_refresh_timerAndR_reloadTheFeed_keepingTheListUntilTheNewOneArrives() {
    let harness = makeReader(refresh: .seconds(60))
    harness.wait(100)
    harness.source.setFeed(
      .top,
      [story(5, "Databases, fifty years on", by: "dave", hours: 6, url: "https://cs.cmu.edu/db", score: 300)]
        + Self.front.prefix(3))
    harness.wait(59_899)
    XCTAssertEqual(harness.source.log, ["feed top", "feed top loaded"])
    harness.wait(1)  // 60 s after the start
    assertFrame(harness.frame, [Self.header + "  loading …", ""] + Self.firstPage(selected: 1) + ["", Self.listKeys])
    harness.wait(100)
    assertFrame(
      harness.frame,
      [
        Self.header, "",
        "▶ 1. Databases, fifty years on (cs.cmu.edu)", "     300 points by dave 6 hours ago | discuss",
        "  2. Combine on Linux (example.org)", "     120 points by alice 3 hours ago | 3 comments",
        "  3. Ask HN: Is Combine worth learning?", "     1 point by bob 1 day ago | discuss",
        "  4. Data structures in Swift (swift.org)", "     42 points by carol 2 hours ago | 1 comment",
        "", Self.listKeys,
      ])
    XCTAssertEqual(harness.source.log, ["feed top", "feed top loaded", "feed top", "feed top loaded"])
    harness.press(.character("r"), thenWait: 100)
    XCTAssertEqual(harness.source.log.count, 6)
  }

  // MARK: A story and its thread

  static let storyTop = [
    "▶ Combine on Linux (example.org)", "  120 points by alice 3 hours ago", "  https://www.example.org/combine", "",
  ]

  func test_enter_opensTheStoryWithItsThread_andBackReturnsToTheList() {
    let harness = makeReader(rows: 20)
    harness.wait(100)
    harness.press(.enter)
    assertFrame(
      harness.frame,
      [Self.header, ""] + Self.storyTop + ["Loading comments: 0 of 3 …"] + Array(repeating: "", count: 12) + [
        Self.storyKeys
      ])
    harness.wait(100)
    assertFrame(
      harness.frame,
      [Self.header, ""] + Self.storyTop + [
        "3 comments",
        "", "  erin 2 hours ago", "  Works well on Linux.",
        "", "    frank 1 hour ago", "    Thanks!",
        "", "  gina 1 hour ago", "  Try debounce.",
      ] + Array(repeating: "", count: 3) + [Self.storyKeys])
    harness.press(.character("h"))
    XCTAssertEqual(
      Array(harness.frame[2...3]),
      ["▶ 1. Combine on Linux (example.org)", "     120 points by alice 3 hours ago | 3 comments · read"])
    XCTAssertEqual(harness.store.readMarks(), [1])
    XCTAssertEqual(harness.source.log, ["feed top", "feed top loaded", "comments 1", "comments 1 loaded"])
  }

  func test_collapse_hidesTheReplies_andExpandShowsThemAgain() {
    let harness = makeReader(rows: 20)
    harness.wait(100)
    harness.press(.enter, thenWait: 100)
    harness.press(.character("j"), .enter)
    assertFrame(
      harness.frame,
      [Self.header, "", "  Combine on Linux (example.org)"] + Self.storyTop.dropFirst() + [
        "3 comments",
        "", "▶ erin 2 hours ago [+1 reply]", "  Works well on Linux.",
        "", "  gina 1 hour ago", "  Try debounce.",
      ] + Array(repeating: "", count: 6) + [Self.storyKeys])
    // j moves past the hidden reply.
    harness.press(.character("j"))
    XCTAssertEqual(harness.reader.currentState.story?.cursor, 12)
    harness.press(.character("k"), .character(" "))
    assertFrame(
      harness.frame,
      [Self.header, "", "  Combine on Linux (example.org)"] + Self.storyTop.dropFirst() + [
        "3 comments",
        "", "▶ erin 2 hours ago", "  Works well on Linux.",
        "", "    frank 1 hour ago", "    Thanks!",
        "", "  gina 1 hour ago", "  Try debounce.",
      ] + Array(repeating: "", count: 3) + [Self.storyKeys])
  }

  func test_nextAndPreviousTopLevel_jumpOverReplies() {
    let harness = makeReader(rows: 20)
    harness.wait(100)
    harness.press(.enter, thenWait: 100)
    var cursors: [Int?] = []
    for key in [
      Key.character("n"), .character("j"), .character("n"), .character("n"), .character("p"), .character("p"),
      .character("k"),
    ] {
      harness.press(key)
      cursors.append(harness.reader.currentState.story?.cursor)
    }
    // n: erin (top-level); j: frank (her reply); n: gina (next top-level); n: stays;
    // p: erin; p: stays at the first; k: the story.
    XCTAssertEqual(cursors, [11, 13, 12, 12, 11, 11, nil])
  }

  func test_openingAnotherStory_cancelsTheCommentLoadsOfTheStoryBefore() {
    let harness = makeReader(rows: 20)
    harness.wait(100)
    harness.press(.enter, thenWait: 50)  // story 1's comments are half way
    harness.press(.backspace, .character("j"), .character("j"), .enter)
    harness.wait(200)
    XCTAssertEqual(
      harness.source.log,
      ["feed top", "feed top loaded", "comments 1", "comments 1 cancelled", "comments 3", "comments 3 loaded"])
    assertFrame(
      harness.frame,
      [
        Self.header, "", "▶ Data structures in Swift (swift.org)", "  42 points by carol 2 hours ago",
        "  https://swift.org/ds", "",
        "1 comment", "", "  hal 1 hour ago", "  Use a ring buffer.",
      ] + Array(repeating: "", count: 9) + [Self.storyKeys])
    XCTAssertFalse(harness.frames.joined().contains { $0.contains("erin") }, "a comment of story 1 was shown")
    XCTAssertEqual(harness.store.readMarks(), [1, 3])
  }

  func test_r_inAStory_reloadsItsComments_supersedingTheLoadInFlight() {
    let harness = makeReader(rows: 20)
    harness.wait(100)
    harness.press(.enter, thenWait: 50)
    harness.press(.character("r"), thenWait: 100)
    XCTAssertEqual(
      harness.source.log,
      ["feed top", "feed top loaded", "comments 1", "comments 1 cancelled", "comments 1", "comments 1 loaded"])
    XCTAssertEqual(harness.frame[6], "3 comments")
  }

  func test_openingItem_atTheStart_opensItWithItsThread_andBackGoesToTheList() {
    let harness = makeReader(rows: 20, openingItem: 8863)
    XCTAssertEqual(harness.frame.last, "Opening item 8863 …")
    harness.wait(200)  // the item, then its comments
    assertFrame(
      harness.frame,
      [
        Self.header, "", "▶ My YC app: Dropbox - Throw away your USB drive (getdropbox.com)",
        "  111 points by dhouston 1 year ago", "  http://www.getdropbox.com/u/2/screencast.html", "",
        "2 comments", "", "  BrandonM 1 year ago", "  It does what it says.", "", "  brett 1 year ago", "  Congrats.",
      ] + Array(repeating: "", count: 6) + [Self.storyKeys])
    harness.press(.character("h"))
    XCTAssertEqual(Array(harness.frame[2...9]), Self.firstPage(selected: 1))
    XCTAssertEqual(harness.store.readMarks(), [8863])
  }

  func test_dAndU_scrollALongStoryByAPage_notPastItsLastPage() {
    let harness = makeReader(openingItem: 77)
    harness.wait(300)
    // 28 lines: title, meta, blank, 12 paragraphs with blanks between (23), blank, summary.
    let page = { (lines: [String]) in [Self.header, ""] + lines + [Self.storyKeys] }
    assertFrame(
      harness.frame,
      page([
        "▶ Ask HN: A long question", "  1 point by zed 1 hour ago", "", "  Line 1", "", "  Line 2", "", "  Line 3", "",
      ]))
    harness.press(.character("d"))  // a page is the rows less five: 7 lines
    assertFrame(harness.frame, page(["  Line 3", "", "  Line 4", "", "  Line 5", "", "  Line 6", "", "  Line 7"]))
    harness.press(.pageDown, .pageDown)  // 21 lines down would pass the last page, which starts at line 19
    assertFrame(
      harness.frame, page(["  Line 9", "", "  Line 10", "", "  Line 11", "", "  Line 12", "", "No comments yet."]))
    harness.press(.character("u"), .character("u"))  // from 21 to 7
    assertFrame(harness.frame, page(["  Line 3", "", "  Line 4", "", "  Line 5", "", "  Line 6", "", "  Line 7"]))
    harness.press(.character("u"), .character("u"))
    XCTAssertEqual(harness.frame[2], "▶ Ask HN: A long question")
  }

  func test_openingItem_thatIsNotOnTheServer_saysSo_andShowsTheList() {
    let harness = makeReader(openingItem: 42)
    harness.wait(100)
    assertFrame(
      harness.frame, [Self.header, ""] + Self.firstPage(selected: 1) + ["", "Item 42 is not on the server."])
  }

  // MARK: Links, keys, quit, resize, the store

  func test_o_opensTheLink_orShowsItWhenNothingCanOpenIt() {
    let harness = makeReader()
    harness.wait(100)
    harness.press(.character("o"))
    XCTAssertEqual(harness.opened, ["https://www.example.org/combine"])
    XCTAssertEqual(harness.frame.last, "Opened https://www.example.org/combine")
    harness.press(.character("j"))
    XCTAssertEqual(harness.frame.last, Self.listKeys)

    let noOpener = makeReader(canOpenLinks: false)
    noOpener.wait(100)
    noOpener.press(.character("j"), .character("o"))  // Ask HN: no link, the discussion's
    XCTAssertEqual(noOpener.frame.last, "https://news.ycombinator.com/item?id=2")
  }

  func test_questionMark_showsTheKeys_andAnyKeyGoesBack() {
    let harness = makeReader(rows: 20)
    harness.wait(100)
    harness.press(.character("?"))
    XCTAssertEqual(
      Array(harness.frame[2...4]), ["Keys", "", "  j k ↓ ↑         move down and up (comments, in a story)"])
    XCTAssertEqual(harness.frame.last, "any key: back")
    harness.press(.character("x"))
    XCTAssertEqual(harness.frame[2], "▶ 1. Combine on Linux (example.org)")
  }

  func test_q_quits_andNoFrameIsDrawnAfter() {
    let harness = makeReader()
    harness.wait(100)
    harness.press(.character("q"))
    XCTAssertEqual(harness.quits, 1)
    let drawn = harness.frames.count
    harness.press(.character("j"), thenWait: 1000)
    XCTAssertEqual(harness.frames.count, drawn)
  }

  func test_controlC_quits() {
    let harness = makeReader()
    harness.press(.control("c"))
    XCTAssertEqual(harness.quits, 1)
  }

  func test_resize_redrawsAtTheNewSize() {
    let harness = makeReader()
    harness.wait(100)
    harness.sizes.send(TerminalSize(rows: 8, columns: 40))
    harness.wait(0)
    assertFrame(
      harness.frame,
      [
        "Hacker News  [1 top]  2 new  3 best  4 a", "",
        "▶ 1. Combine on Linux (example.org)", "     120 points by alice 3 hours ago | 3",
        "  2. Ask HN: Is Combine worth learning?", "     1 point by bob 1 day ago | discuss",
        "", "j/k move · Enter open · 1-6 feeds · / fi",
      ])
  }

  func test_aSecondRun_showsTheStoredListAtOnce_withItsReadMarks() {
    let store = MemoryReaderStore()
    let first = makeReader(store: store)
    first.wait(100)
    first.press(.character("j"), .enter, .backspace, .character("q"))
    let second = makeReader(store: store)
    // Before anything arrives: the stored list, the read mark, and the reload under way.
    assertFrame(
      second.frame, [Self.header + "  loading …", ""] + Self.firstPage(selected: 1, read: [2]) + ["", Self.listKeys])
  }

  func test_offline_aSecondRun_readsTheKeptListAndThread_withItsReadMarks() {
    let store = MemoryReaderStore()
    let online = makeReader(rows: 20, store: store)
    online.wait(100)
    online.press(.enter, thenWait: 100)  // story 1 and its thread, kept as they finish
    online.press(.character("h"), .character("q"))

    let offline = makeReader(rows: 20, store: store, offline: true)
    offline.wait(0)
    XCTAssertEqual(offline.source.log, [], "the offline reader asked the network")
    XCTAssertEqual(
      Array(offline.frame[2...3]),
      ["▶ 1. Combine on Linux (example.org)", "     120 points by alice 3 hours ago | 3 comments · read"])
    XCTAssertEqual(offline.frame[9], "     111 points by dhouston 5 hours ago | 1 comment")
    offline.press(.enter, thenWait: 0)
    assertFrame(
      offline.frame,
      [Self.header, ""] + Self.storyTop + [
        "3 comments",
        "", "  erin 2 hours ago", "  Works well on Linux.",
        "", "    frank 1 hour ago", "    Thanks!",
        "", "  gina 1 hour ago", "  Try debounce.",
      ] + Array(repeating: "", count: 3) + [Self.storyKeys])
    // A story whose thread was never loaded: its comments are not on this "server".
    offline.press(.character("h"), .character("j"), .character("j"), .enter)
    XCTAssertEqual(offline.frame[6], "0 comments, 1 not on the server")
    // A feed that was never loaded says so.
    offline.press(.character("h"), .character("4"))
    XCTAssertEqual(offline.frame[2], "Cannot load the ask stories: cannot reach offline:nothing-kept")
  }
}
