import DocumentStore
import XCTest

/// Firebase's docs write a query and leave it unused (`citiesRef.whereField("state", isEqualTo:
/// "CA")` alone on a line), which compiles without a warning: Swift imports Objective-C methods
/// as `@discardableResult`, and Firebase's builders are Objective-C's. Here they are too; and as
/// Firebase's queries are immutable, a builder whose result is dropped changes nothing.
final class UnusedQueryBuildersTests: StoreTestCase {
    private func seedCities() async throws {
        for (id, state, population) in [("SF", "CA", 860_000), ("LA", "CA", 3_900_000), ("DC", "DC", 680_000)] {
            try await db.collection("cities").document(id).setData(["state": state, "population": population, "regions": [state]])
        }
    }

    func testADroppedBuilderLeavesItsQueryAsItWas() async throws {
        try await seedCities()
        let citiesRef = db.collection("cities")
        citiesRef.whereField("state", isEqualTo: "CA")
        citiesRef.whereField("state", isNotEqualTo: "CA")
        citiesRef.whereField("population", isLessThan: 1_000_000)
        citiesRef.whereField("population", isLessThanOrEqualTo: 1_000_000)
        citiesRef.whereField("population", isGreaterThan: 1_000_000)
        citiesRef.whereField("population", isGreaterThanOrEqualTo: 1_000_000)
        citiesRef.whereField("regions", arrayContains: "CA")
        citiesRef.whereField("regions", arrayContainsAny: ["CA", "DC"])
        citiesRef.whereField("state", in: ["CA"])
        citiesRef.whereField("state", notIn: ["CA"])
        citiesRef.whereFilter(Filter.orFilter([Filter.whereField("state", isEqualTo: "DC"), Filter.andFilter([])]))
        citiesRef.order(by: "population", descending: true).limit(to: 1)
        citiesRef.order(by: "population").limit(toLast: 1)
        citiesRef.order(by: "population").start(at: [1_000_000]).end(before: [5_000_000])
        citiesRef.order(by: "population").start(after: [1_000_000]).end(at: [5_000_000])
        citiesRef.aggregate([AggregateField.count()])
        db.collectionGroup("landmarks")
        db.collection("cities").document("SF").collection("landmarks").document()

        let ids = try await citiesRef.getDocuments().documents.map(\.documentID)
        XCTAssertEqual(ids, ["DC", "LA", "SF"])
        let landmarks = try await db.collectionGroup("landmarks").getDocuments()
        XCTAssertTrue(landmarks.isEmpty, "a reference made and dropped writes nothing")
    }

    func testCursorsByDocumentAreDiscardableToo() async throws {
        try await seedCities()
        let sf = try await db.document("cities/SF").getDocument()
        let byPopulation = db.collection("cities").order(by: "population")
        byPopulation.start(atDocument: sf)
        byPopulation.start(afterDocument: sf)
        byPopulation.end(atDocument: sf)
        byPopulation.end(beforeDocument: sf)
        let ids = try await byPopulation.getDocuments().documents.map(\.documentID)
        XCTAssertEqual(ids, ["DC", "SF", "LA"])
        let fromSF = try await byPopulation.start(atDocument: sf).getDocuments().documents.map(\.documentID)
        XCTAssertEqual(fromSF, ["SF", "LA"])
    }

    /// Reading a document in a transaction only to hold it (the read's result dropped, no `_ =`)
    /// still makes the commit depend on it: a change by another writer runs the block again.
    func testADroppedTransactionReadStillGuardsTheCommit() async throws {
        let guarded = db.document("counters/guarded")
        let written = db.document("counters/written")
        try await guarded.setData(["count": 1])
        let attempts = Locked(0)
        try await db.runTransaction { transaction, errorPointer -> Any? in
            let attempt = attempts.withLock { $0 += 1; return $0 }
            do {
                try transaction.getDocument(guarded)
                if attempt == 1 { try guarded.write(["count": 2]) }
            } catch let error as NSError {
                errorPointer?.pointee = error
                return nil
            }
            transaction.setData(["seen": attempt], forDocument: written)
            return nil
        }
        XCTAssertEqual(attempts.withLock { $0 }, 2)
        let seen = try await written.getDocument().get("seen") as? Int
        XCTAssertEqual(seen, 2)
    }
}
