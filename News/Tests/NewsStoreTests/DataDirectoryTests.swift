import Foundation
import NewsStore
import XCTest

final class DataDirectoryTests: XCTestCase {
  func test_resolve_prefersTheOverride_thenXDG_DATA_HOME_thenHome() {
    let environment = ["XDG_DATA_HOME": "/data", "HOME": "/home/ada"]
    XCTAssertEqual(DataDirectory.resolve(override: "/tmp/n", environment: environment).path, "/tmp/n")
    XCTAssertEqual(DataDirectory.resolve(override: nil, environment: environment).path, "/data/news")
    XCTAssertEqual(
      DataDirectory.resolve(override: nil, environment: ["HOME": "/home/ada"]).path, "/home/ada/.local/share/news")
  }

  func test_resolve_ignoresARelativeXDG_DATA_HOME_asTheSpecSays() {
    // "All paths set in these environment variables must be absolute."
    XCTAssertEqual(
      DataDirectory.resolve(override: nil, environment: ["XDG_DATA_HOME": "data", "HOME": "/home/ada"]).path,
      "/home/ada/.local/share/news")
  }
}
