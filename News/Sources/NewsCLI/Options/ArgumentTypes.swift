import ArgumentParser
import HackerNews
import NewsServer

// The library's enums as command-line values: `--help` lists their values, and a wrong one
// is rejected with that list.

extension Feed: ExpressibleByArgument {}

extension DemoServer.Fault: ExpressibleByArgument {}
