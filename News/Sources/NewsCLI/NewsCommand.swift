import ArgumentParser

/// `news`: a terminal reader for Hacker News.
public struct NewsCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "news",
    abstract: "Read Hacker News in the terminal; stories stream in as they arrive.",
    discussion: """
      Add --demo to any reading command to read the bundled front page of 2019-11-12 from \
      a server inside the process, with no network. Colours are used only on a terminal, \
      and never when NO_COLOR is set.
      """,
    subcommands: [BrowseCommand.self, Top.self, New.self, Best.self, Ask.self, Show.self, Jobs.self, ItemCommand.self, WatchCommand.self, ServeCommand.self],
    defaultSubcommand: BrowseCommand.self
  )
  public init() {}
}
