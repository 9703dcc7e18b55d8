import ArgumentParser

/// `news`: a terminal reader for Hacker News.
public struct NewsCommand: ParsableCommand {
  /// The version `news --version` and `news version` print.
  public static let version = "0.2.0"

  public static let configuration = CommandConfiguration(
    commandName: "news",
    abstract: "Read Hacker News in the terminal; stories stream in as they arrive.",
    discussion: """
      Add --demo to any reading command to read the bundled front page of 2019-11-12 (and \
      four comments of the Dropbox thread, item 8863) from a server inside the process, with \
      no network. What is read is kept in $XDG_DATA_HOME/news (or --data-dir) for --offline. \
      Colours are used only on a terminal, and never when NO_COLOR is set.
      """,
    version: version,
    subcommands: [
      BrowseCommand.self, Top.self, New.self, Best.self, Ask.self, Show.self, Jobs.self, ItemCommand.self,
      UserCommand.self, FilterCommand.self, WatchCommand.self, ServeCommand.self, VersionCommand.self,
    ],
    defaultSubcommand: BrowseCommand.self
  )
  public init() {}

  /// Runs `news` with the process's arguments, as `main.swift` does: a closed pipe ends it
  /// quietly (status 0) instead of with `SIGPIPE`.
  public static func start() {
    Terminal.ignoreBrokenPipe()
    main()
  }
}

/// `news version`, the same as `news --version`.
struct VersionCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "version", abstract: "Print the version of news.")
  func run() throws { FileOutput.standardOutput.write(NewsCommand.version + "\n") }
}
