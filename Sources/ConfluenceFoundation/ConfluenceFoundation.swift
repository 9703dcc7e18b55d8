// Foundation glue for Confluence: schedulers, timers, notifications, networking and
// coders. The Combine API itself lives in `Confluence`, which does not import Foundation.
@_exported import Confluence
