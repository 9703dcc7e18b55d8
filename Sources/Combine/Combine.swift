// `import Combine` on platforms without Apple's Combine: the whole Confluence API under
// Apple's module name, so code written for Apple's Combine compiles unchanged.
@_exported import Confluence
@_exported import ConfluenceFoundation
