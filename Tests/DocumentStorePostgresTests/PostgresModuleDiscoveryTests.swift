@testable import DocumentStore
import Foundation
import XCTest

/// A program that links DocumentStorePostgres opens postgresql:// URLs without calling
/// `enablePostgreSQL()`: the core finds the module by the class name it looks for.
final class PostgresModuleDiscoveryTests: XCTestCase {
    func testTheCoreFindsTheModuleByTheClassNameItLooksFor() throws {
        for scheme in ["postgresql", "postgres"] {
            let name = try XCTUnwrap(ServerSchemes.known[scheme]?.moduleClass)
            XCTAssertNotNil(NSClassFromString(name) as? ServerSchemeModule.Type, "\(name) is the module's entry point")
        }
    }
}
