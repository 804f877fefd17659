@testable import DocumentStore
import Foundation
import XCTest

/// A snapshot read with its collection keeps the collection, not a reference: the reference
/// it makes when asked, its id and the order of paths are those of a snapshot that keeps one.
final class SnapshotPlaceTests: StoreTestCase {
    private func kept(_ path: String) throws -> QueryDocumentSnapshot {
        QueryDocumentSnapshot(reference: DocumentReference(firestore: db, path: try ResourcePath.parse(path, expectDocument: true)), stored: .fields([:]))
    }

    private func shared(_ path: String) throws -> QueryDocumentSnapshot {
        let path = try ResourcePath.parse(path, expectDocument: true)
        return QueryDocumentSnapshot(in: CollectionPlace(firestore: db, path: path.parent), key: ExactID(path.last), stored: .fields([:]))
    }

    func testTheReferenceMadeWhenAskedIsTheDocuments() throws {
        let snapshot = try shared("shelves/s/books/caf\u{E9}")
        XCTAssertEqual(snapshot.reference, db.document("shelves/s/books/caf\u{E9}"))
        XCTAssertNotEqual(snapshot.reference, db.document("shelves/s/books/cafe\u{301}"))
        XCTAssertEqual(snapshot.documentID, "caf\u{E9}")
        XCTAssertTrue(snapshot.reference.firestore === db)
    }

    func testPathsCompareSegmentBySegmentWhicheverTheSnapshotKeeps() throws {
        let paths = ["books/1", "books/zz", "books/zz/books/a", "books/zz\u{1}", "shelves/s/books/1", "shelves/s/books/1/books/0",
                     "shelves/t/books/0", "caf\u{E9}/x/books/1", "cafe\u{301}/x/books/1"]
        for a in paths {
            for b in paths {
                let x = try ResourcePath.parse(a, expectDocument: true).segments, y = try ResourcePath.parse(b, expectDocument: true).segments
                let firstDifference = zip(x, y).lazy.map { UTF8Bytes.compare($0, $1) }.first { $0 != 0 }
                let expected = firstDifference ?? (x.count == y.count ? 0 : (x.count < y.count ? -1 : 1))
                for (u, v) in [(try shared(a), try shared(b)), (try kept(a), try shared(b)), (try shared(a), try kept(b)), (try kept(a), try kept(b))] {
                    XCTAssertEqual(u.comparePath(to: v), expected, "\(a) vs \(b)")
                }
            }
        }
    }

    /// A snapshot of a collection's document is one 64-byte block of malloc (56 usable), not
    /// an 80-byte one: a million of them are 16 MB fewer (glibc adds 8 bytes to each request
    /// and rounds to 16, so one byte more than 56 costs 16).
    func testASnapshotReadWithItsCollectionFitsMallocsSixtyFourByteBlock() throws {
        let books = CollectionPlace(firestore: db, path: try ResourcePath.parse("books", expectDocument: false))
        for stored: StoredDocument in [.fields(["title": .string("The Silent River 1")]), .missing, .unreadable("not JSON")] {
            // The least of many, free blocks merged first: glibc may hand a request a free block
            // a little larger than asked, left by what ran before (seen in the whole suite).
            mallocTrim()
            let snapshots = (0..<1_000).map { _ in QueryDocumentSnapshot(in: books, key: ExactID("generated-0000001"), stored: stored) }
            XCTAssertLessThanOrEqual(snapshots.map { mallocUsableSize(of: $0) }.min()!, 56)
        }
        XCTAssertEqual(MemoryLayout<StoredDocument>.size, 16)
    }
}
