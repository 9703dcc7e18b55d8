import ArgumentParser
import NewsStore

/// `news filter add|list|remove`: the keyword filters of the News chapter's settings screen.
struct FilterCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "filter",
    abstract: "Hide stories whose title contains a keyword (ignoring case), in every list.",
    discussion: "The filters are kept in the database, with the read marks and the stories.",
    subcommands: [Add.self, List.self, Remove.self],
    defaultSubcommand: List.self)

  /// The database options of the filter commands.
  struct Location: ParsableArguments {
    @Option(
      help: ArgumentHelp(
        "The folder of the database (default: $XDG_DATA_HOME/news, or ~/.local/share/news).", valueName: "folder"))
    var dataDir: String?

    /// The store; the filters need the database, so one that cannot be opened is an error.
    func open() throws -> SQLiteStore {
      do {
        return try SQLiteStore.open(at: DataDirectory.resolve(override: dataDir))
      } catch {
        throw fail("\(error)")
      }
    }
  }

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Hide the stories with KEYWORD in their title.")
    @Argument(help: "The keyword or phrase.") var keyword: String
    @OptionGroup var location: Location

    func validate() throws {
      guard !KeywordFilter.normalized(keyword).isEmpty else { throw ValidationError("the keyword is empty.") }
    }

    func run() throws {
      let store = try location.open()
      do {
        let added = try store.addFilter(keyword)
        let word = KeywordFilter.normalized(keyword)
        FileOutput.standardOutput.write(
          added ? "Hiding stories with “\(word)” in their title.\n" : "“\(word)” is already a filter.\n")
      } catch {
        throw fail("\(error)")
      }
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The filters, one a line.")
    @OptionGroup var location: Location

    func run() throws {
      let store = try location.open()
      do {
        let filters = try store.filters()
        FileOutput.standardOutput.write(filters.map { TerminalText.line($0) + "\n" }.joined())
        if filters.isEmpty, Terminal.isTerminal(1) {
          FileOutput.standardOutput.write("No filters; add one with: news filter add WORD\n")
        }
      } catch {
        throw fail("\(error)")
      }
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show the stories with KEYWORD again.")
    @Argument(help: "The keyword, as listed.") var keyword: String
    @OptionGroup var location: Location

    func run() throws {
      let store = try location.open()
      let removed: Bool
      do { removed = try store.removeFilter(keyword) } catch { throw fail("\(error)") }
      guard removed else { throw fail("“\(KeywordFilter.normalized(keyword))” is not a filter (news filter list).") }
      FileOutput.standardOutput.write("Showing stories with “\(KeywordFilter.normalized(keyword))” again.\n")
    }
  }
}
