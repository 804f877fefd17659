@testable import DocumentStore
import Foundation
import XCTest

/// Shelf's data, state and cache folders are found as the XDG Base Directory specification
/// says, the same way for the demo copy, drafts and snapshot files.
final class UserFolderTests: XCTestCase {
    func testAnAbsoluteXDGVariableNamesTheFolder() {
        let environment = ["XDG_DATA_HOME": "/x/data", "XDG_STATE_HOME": "/x/state", "XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]
        XCTAssertEqual(UserFolder.data.url(environment: environment).path, "/x/data")
        XCTAssertEqual(UserFolder.state.url(environment: environment).path, "/x/state")
        XCTAssertEqual(UserFolder.cache.url(environment: environment).path, "/x/cache")
    }

    func testWithoutOneTheFolderIsTheDefaultUnderHOME() {
        let environment = ["HOME": "/home/u"]
        XCTAssertEqual(UserFolder.data.url(environment: environment).path, "/home/u/.local/share")
        XCTAssertEqual(UserFolder.state.url(environment: environment).path, "/home/u/.local/state")
        XCTAssertEqual(UserFolder.cache.url(environment: environment).path, "/home/u/.cache")
    }

    func testARelativeOrEmptyXDGVariableIsIgnored() {
        XCTAssertEqual(UserFolder.data.url(environment: ["XDG_DATA_HOME": "share", "HOME": "/home/u"]).path, "/home/u/.local/share")
        XCTAssertEqual(UserFolder.cache.url(environment: ["XDG_CACHE_HOME": "", "HOME": "/home/u"]).path, "/home/u/.cache")
    }

    func testWithoutAnAbsoluteHOMETheAccountsHomeIsUsed() {
        let account = FileManager.default.homeDirectoryForCurrentUser.path
        XCTAssertEqual(UserFolder.data.url(environment: [:]).path, account + "/.local/share")
        XCTAssertEqual(UserFolder.state.url(environment: ["HOME": "relative"]).path, account + "/.local/state")
    }
}
