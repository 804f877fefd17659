import DocumentStore
import Foundation
@testable import TerminalUI
import XCTest

/// A test of the app on a folder of its own: `folder` is new for each test (its documents
/// written by the test's `setUp` after this one's) and removed after it.
@MainActor
class FolderAppTestCase: XCTestCase {
    var folder: URL!

    override func setUp() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-\(Self.self)-\(UUID().uuidString)")
    }

    override func tearDown() async throws { try? FileManager.default.removeItem(at: folder) }

    /// The app on the folder, once the shown tab has its first snapshot.
    func makeApp() async throws -> AppModel {
        let app = AppModel(store: try Firestore(directory: folder), colorMode: .none, effects: SynchronousEffects())
        try await app.deliver()
        return app
    }

    /// Types `keys` one by one, as characters.
    func press(_ app: AppModel, _ keys: String) {
        for key in keys { _ = app.apply(.key(.character(key))) }
    }
}
