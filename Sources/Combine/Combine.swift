// `import Combine` on platforms without Apple's Combine: the whole Confluence API under
// Apple's module name, so code written for Apple's Combine compiles unchanged.
@_exported import Confluence
@_exported import ConfluenceFoundation

// On Linux, URLSession lives in FoundationNetworking; Apple's code reaches it with
// `import Foundation` and `import Combine` only (`URLSession.shared.dataTaskPublisher(for:)`),
// so this module brings it along.
#if canImport(FoundationNetworking)
  @_exported import FoundationNetworking
#endif
