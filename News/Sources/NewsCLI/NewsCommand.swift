import ArgumentParser

/// `news`: a terminal reader for Hacker News.
public struct NewsCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "news",
    abstract: "Read Hacker News in the terminal; stories stream in as they arrive.",
    subcommands: []
  )
  public init() {}
}
