@testable import DocumentStore
import Foundation
import XCTest

/// A read of many files the page cache does not hold asks the kernel for them ahead, on threads
/// of their own (`ColdFilePrefetch`); a read of files in memory does not, since it gains nothing.
/// The files are pushed out of the cache as a boot would leave them (`POSIX_FADV_DONTNEED` on
/// clean pages), and counted by the storage layer.
final class ColdFilePrefetchTests: StoreTestCase {
    private var prefetched: Int { db.files.filesPrefetched.withLock { $0 } }
    private let count = 600

    private func writeBooks() async throws {
        for first in stride(from: 0, to: count, by: 300) {
            let batch = db.batch()
            for index in first..<first + 300 { batch.setData(["n": index], forDocument: db.document("books/b\(1000 + index)")) }
            try await batch.commit()  // durable: the pages are clean, so the kernel may drop them
        }
    }

    /// Drops every book's file from the page cache; false if the file system kept any.
    private func pushBooksOutOfMemory() throws -> Bool {
        var kept = 0
        for index in 0..<count {
            let fd = open(store.path("books/b\(1000 + index).json"), O_RDONLY)
            guard fd >= 0 else { throw POSIXFailure(call: "open", path: "books/b\(1000 + index).json", code: errno) }
            defer { close(fd) }
            XCTAssertEqual(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0)
            // mincore, not a read: a read that would wait still starts the kernel reading.
            var st = stat()
            XCTAssertEqual(fstat(fd, &st), 0)
            guard let mapped = mmap(nil, Int(st.st_size), PROT_READ, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
                throw POSIXFailure(call: "mmap", path: "books/b\(1000 + index).json", code: errno)
            }
            defer { munmap(mapped, Int(st.st_size)) }
            var resident: UInt8 = 0
            XCTAssertEqual(mincore(mapped, Int(st.st_size), &resident), 0)
            if resident & 1 != 0 { kept += 1 }
        }
        return kept == 0
    }

    func testACollectionOutOfMemoryIsAskedForAheadAndReadWhole() async throws {
        try await writeBooks()
        XCTAssertTrue(try pushBooksOutOfMemory(), "the files are out of the page cache (mincore)")
        let before = prefetched
        let documents = try await db.collection("books").getDocuments().documents
        XCTAssertGreaterThan(prefetched - before, 0, "files were asked for ahead")
        XCTAssertLessThanOrEqual(prefetched - before, count, "each at most once")
        XCTAssertEqual(documents.count, count)
        XCTAssertEqual(documents.map { $0.data()["n"] as? Int }, (0..<count).map { $0 }, "every document read whole, in id order")
    }

    func testACollectionInMemoryIsReadAsItIs() async throws {
        try await writeBooks()
        _ = try await db.collection("books").getDocuments()  // now in the page cache, if it was not
        let before = prefetched
        let documents = try await db.collection("books").getDocuments().documents
        XCTAssertEqual(prefetched - before, 0, "nothing asked for ahead")
        XCTAssertEqual(documents.count, count)
    }

    func testAListenerOnACollectionOutOfMemoryHasItsFilesAskedForAhead() async throws {
        try await writeBooks()
        XCTAssertTrue(try pushBooksOutOfMemory())
        let before = prefetched
        let first = expectation(description: "first snapshot")
        let registration = db.collection("books").addSnapshotListener { snapshot, _ in
            if snapshot?.count == self.count { first.fulfill() }
        }
        defer { registration.remove() }
        await fulfillment(of: [first], timeout: 30)
        XCTAssertGreaterThan(prefetched - before, 0)
    }
}
