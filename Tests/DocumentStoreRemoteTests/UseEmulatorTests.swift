@testable import DocumentStore
import Foundation
import XCTest

/// Firebase's way to a server: `FirebaseApp.configure()`, then `useEmulator(withHost:port:)` or
/// `settings.host` before the store's first use; or `FIRESTORE_EMULATOR_HOST`. The store is then
/// a client of that server, found without a call to `enableFirestoreServers()` in code that
/// links DocumentStoreRemote (the guide-sample program proves that part in a binary of its own).
final class UseEmulatorTests: XCTestCase {
    private var folders: [URL] = []
    private var served: [ServedFolder] = []

    override func tearDown() {
        for server in served { server.stop() }
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
        unsetenv("FIRESTORE_EMULATOR_HOST")
        super.tearDown()
    }

    private func serve() throws -> ServedFolder {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("UseEmulatorTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        folders.append(folder)
        let server = try ServedFolder(root: folder)
        served.append(server)
        return server
    }

    private func port(of server: ServedFolder) throws -> Int {
        try XCTUnwrap(Int(server.address.split(separator: ":").last ?? ""))
    }

    /// A fresh default app as the guide's app makes it, with its default store's callbacks off the main queue.
    private func configuredStore() -> Firestore {
        FirebaseApp.configure()
        let db = Firestore.firestore()
        let settings = db.settings
        settings.dispatchQueue = DispatchQueue(label: "UseEmulatorTests")
        db.settings = settings
        return db
    }

    func testUseEmulatorBeforeFirstUseMakesTheDefaultStoreAClientOfThatServer() throws {
        let server = try serve()
        let db = configuredStore()
        db.useEmulator(withHost: "127.0.0.1", port: try port(of: server))
        try db.document("books/dune").write(["title": "Dune"])
        XCTAssertEqual(try server.store.document("books/dune").readDocument().data()?["title"] as? String, "Dune",
                       "the write is in the served folder")
        XCTAssertEqual(db.directory.absoluteString, "firestore://\(server.address)/demo-shelf")
        XCTAssertEqual(db.settings.host, server.address)
        XCTAssertFalse(db.settings.isSSLEnabled, "useEmulator turns SSL off, as emulators speak plaintext")
    }

    func testSettingsHostWithSSLOffBeforeFirstUseDoesTheSame() throws {
        let server = try serve()
        try server.store.document("books/emma").write(["pages": 474])
        let db = configuredStore()
        let settings = db.settings
        settings.host = server.address
        settings.isSSLEnabled = false
        db.settings = settings
        XCTAssertEqual(try db.document("books/emma").readDocument().data()?["pages"] as? Int, 474)
    }

    func testUseEmulatorAfterFirstUseIsRefusedAndTheStoreStaysOnItsServer() throws {
        let first = try serve(), second = try serve()
        let db = configuredStore()
        db.useEmulator(withHost: "127.0.0.1", port: try port(of: first))
        try db.document("books/a").write(["n": 1])
        db.useEmulator(withHost: "127.0.0.1", port: try port(of: second))
        try db.document("books/b").write(["n": 2])
        XCTAssertTrue(try first.store.document("books/b").readDocument().exists, "the store stayed on the server it started on")
        XCTAssertFalse(try second.store.document("books/b").readDocument().exists)
        XCTAssertEqual(db.settings.host, first.address, "the refused settings were not taken")
    }

    func testUseEmulatorOnAStoreOpenedOnAFolderIsRefused() throws {
        let server = try serve()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("UseEmulatorTests-folder-\(UUID().uuidString)")
        folders.append(folder)
        let db = try Firestore(directory: folder)
        db.useEmulator(withHost: "127.0.0.1", port: try port(of: server))
        try db.document("books/c").write(["n": 3])
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("books/c.json").path))
        XCTAssertFalse(try server.store.document("books/c").readDocument().exists)
    }

    func testWithoutAHostEveryCallSaysWhatToCall() throws {
        unsetenv("FIRESTORE_EMULATOR_HOST")
        let db = configuredStore()
        XCTAssertThrowsError(try db.document("books/dune").readDocument()) { error in
            let error = error as? FirestoreErrorCode
            XCTAssertEqual(error?.code, FirestoreErrorCode.failedPrecondition.rawValue)
            XCTAssertTrue(error?.description.contains("useEmulator(withHost:port:)") ?? false, String(describing: error))
            XCTAssertTrue(error?.description.contains("Firestore.configure(directory:)") ?? false, String(describing: error))
        }
        XCTAssertThrowsError(try db.document("books/dune").write(["n": 1]))
    }

    func testTheEmulatorHostVariableIsFollowedWhenNoHostIsSet() throws {
        let server = try serve()
        try server.store.document("books/emma").write(["pages": 474])
        setenv("FIRESTORE_EMULATOR_HOST", server.address, 1)
        let db = configuredStore()
        XCTAssertEqual(try db.document("books/emma").readDocument().data()?["pages"] as? Int, 474)
    }

    func testSSLWithACustomHostIsRefusedSayingHowToTurnItOff() throws {
        let server = try serve()
        let db = configuredStore()
        let settings = db.settings
        settings.host = server.address
        db.settings = settings
        XCTAssertThrowsError(try db.document("books/dune").readDocument()) { error in
            let error = error as? FirestoreErrorCode
            XCTAssertEqual(error?.code, FirestoreErrorCode.unimplemented.rawValue)
            XCTAssertTrue(error?.description.contains("isSSLEnabled = false") ?? false, String(describing: error))
        }
    }

    func testANamedDatabaseOfTheAppIsThatDatabaseOnItsServer() throws {
        let server = try serve()
        let other = Firestore.firestore(app: configuredStore().app, database: "other")
        other.useEmulator(withHost: "127.0.0.1", port: try port(of: server))
        try other.document("books/dune").write(["title": "Dune"])
        let named = try Firestore(directory: NeighbourStores.location(ofDatabase: "other", besides: server.store.directory))
        XCTAssertTrue(try named.document("books/dune").readDocument().exists, "written to the named database")
        XCTAssertFalse(try server.store.document("books/dune").readDocument().exists, "not to (default)")
        XCTAssertTrue(Firestore.firestore(database: "other") === other, "the app keeps its database")
    }

    func testAHostThatIsNotHostAndPortIsRefusedNamingIt() throws {
        let db = configuredStore()
        let settings = db.settings
        settings.host = "not a host"
        settings.isSSLEnabled = false
        db.settings = settings
        XCTAssertThrowsError(try db.document("books/dune").readDocument()) { error in
            XCTAssertTrue(String(describing: error).contains("\"not a host\""), String(describing: error))
        }
        XCTAssertFalse(db.directory.isFileURL, "a store meant for a server is never taken for a folder: \(db.directory)")
    }

    func testTheCoreFindsTheClientModuleByTheClassNameItLooksFor() throws {
        let name = try XCTUnwrap(ServerSchemes.known["firestore"]?.moduleClass)
        XCTAssertNotNil(NSClassFromString(name) as? ServerSchemeModule.Type, "\(name) is the module's entry point")
    }
}
