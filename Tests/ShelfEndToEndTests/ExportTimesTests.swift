import Foundation
import XCTest

/// `shelf export` keeps each document's create and update times, from a folder into
/// PostgreSQL and back: the file's modification time and its `user.firestore.create_time`
/// attribute come back as they were (to the microsecond, PostgreSQL's precision).
final class ExportTimesTests: ScratchFolderTestCase {
    private static let attribute = "user.firestore.create_time"
    private typealias SetAttribute = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
    private typealias GetAttribute = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int

    /// `setxattr` and `getxattr`, which Glibc's Swift module leaves out.
    private func symbol<T>(_ name: String) throws -> T {
        unsafeBitCast(try XCTUnwrap(dlsym(dlopen(nil, RTLD_NOW), name), "\(name) in the C library"), to: T.self)
    }

    private func createTime(of file: URL) throws -> String {
        let get: GetAttribute = try symbol("getxattr")
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { get(file.path, Self.attribute, $0.baseAddress, $0.count) }
        XCTAssertGreaterThan(count, 0, "\(file.path) has its create time")
        return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
    }

    private func modificationTime(of file: URL) throws -> timespec {
        var st = stat()
        XCTAssertEqual(stat(file.path, &st), 0, file.path)
        return st.st_mtim
    }

    func testTimesSurviveAFolderToPostgreSQLAndBack() throws {
        let origin = scratch.appendingPathComponent("origin"), back = scratch.appendingPathComponent("back")
        let file = origin.appendingPathComponent("books/dune.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"title": "Dune"}"#.utf8).write(to: file)
        let created = "2001-09-09T01:46:40.123456Z"
        let set: SetAttribute = try symbol("setxattr")
        XCTAssertEqual(set(file.path, Self.attribute, created, created.utf8.count, 0), 0, "setxattr \(file.path)")
        let updated = timespec(tv_sec: 1_700_000_000, tv_nsec: 654_321_000)
        XCTAssertEqual(utimensat(AT_FDCWD, file.path, [updated, updated], 0), 0)

        let cluster = try PostgresCluster.shared()
        let database = try cluster.makeDatabase()
        defer { cluster.dropDatabase(database) }
        let server = cluster.url(database: database).absoluteString
        let there = try run(["export", "--data", origin.path, "--to", server])
        XCTAssertEqual(there.status, 0, there.output)
        let row = try cluster.psql("SELECT create_time AT TIME ZONE 'UTC', update_time AT TIME ZONE 'UTC' FROM shelf_documents WHERE path = 'books/dune'", database: database)
        XCTAssertEqual(row.trimmingCharacters(in: .whitespacesAndNewlines), "2001-09-09 01:46:40.123456|2023-11-14 22:13:20.654321")
        let home = try run(["export", "--data", server, "--to", back.path])
        XCTAssertEqual(home.status, 0, home.output)

        let copy = back.appendingPathComponent("books/dune.json")
        XCTAssertEqual(try createTime(of: copy), created)
        let copied = try modificationTime(of: copy)
        XCTAssertEqual([copied.tv_sec, copied.tv_nsec], [updated.tv_sec, updated.tv_nsec])
    }
}
