@testable import DocumentStore
import Foundation
import XCTest

/// `runTransaction` as Firebase's: reads lock (`TransactionLockingTests`) and are checked at commit against
/// writers that take no locks (another program: `writeFile`), reads before writes, all or
/// nothing, run again on a conflict up to `maxAttempts`, then the last error; and the acceptance's
/// rating transaction of the quickstart from two processes at once.
final class TransactionTests: StoreTestCase {
    private func fields(_ path: String) async throws -> [String: Any]? {
        try await db.document(path).getDocument().data()
    }

    func testATransactionReadsAndWritesTogether() async throws {
        let counter = db.document("counters/a")
        try counter.write(["count": 1])
        let result = try await db.runTransaction { transaction, errorPointer -> Any? in
            do {
                let snapshot = try transaction.getDocument(counter)
                let count = snapshot.get("count") as? Int ?? 0
                transaction.updateData(["count": count + 1], forDocument: counter)
                transaction.setData(["seen": count], forDocument: self.db.document("counters/log"))
                return count
            } catch {
                errorPointer?.pointee = error as NSError
                return nil
            }
        }
        XCTAssertEqual(result as? Int, 1, "the block's value is the transaction's result")
        let count = try await fields("counters/a")
        XCTAssertEqual(count?["count"] as? Int, 2)
        let log = try await fields("counters/log")
        XCTAssertEqual(log?["seen"] as? Int, 1)
    }

    func testReadsMustComeBeforeWrites() async throws {
        try db.document("counters/a").write(["count": 1])
        let error = await thrownError {
            _ = try await self.db.runTransaction { transaction, errorPointer -> Any? in
                transaction.setData(["count": 5], forDocument: self.db.document("counters/b"))
                do {
                    _ = try transaction.getDocument(self.db.document("counters/a"))
                } catch {
                    errorPointer?.pointee = error as NSError
                }
                return nil
            }
        }
        XCTAssertEqual(error.map { ($0 as NSError).code }, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual(error.map { ($0 as NSError).domain }, FirestoreErrorDomain)
        XCTAssertEqual(error?.localizedDescription, "a transaction must do all its reads before its writes; counters/a was read after a write")
        XCTAssertEqual(store.fileNames(in: "counters"), ["a.json"], "the failed block wrote nothing")
    }

    func testABlockThatFailsWritesNothing() async throws {
        let attempts = Locked(0)
        let error = await thrownError {
            _ = try await self.db.runTransaction { transaction, errorPointer -> Any? in
                attempts.withLock { $0 += 1 }
                transaction.setData(["title": "A"], forDocument: self.db.document("books/a"))
                transaction.setData(["title": "B"], forDocument: self.db.document("books/b"))
                errorPointer?.pointee = NSError(domain: "App", code: 7, userInfo: [NSLocalizedDescriptionKey: "the app gave up"])
                return nil
            }
        }
        XCTAssertEqual(error.map { ($0 as NSError).domain }, "App")
        XCTAssertEqual(error.map { ($0 as NSError).code }, 7)
        XCTAssertEqual(attempts.withLock { $0 }, 1, "a block that fails is not run again")
        XCTAssertEqual(store.fileNames(in: "books"), [])
    }

    func testAWriteThatFailsWhenCommittedWritesNothing() async throws {
        let error = await thrownError {
            _ = try await self.db.runTransaction { transaction, _ -> Any? in
                transaction.setData(["title": "A"], forDocument: self.db.document("books/a"))
                transaction.updateData(["title": "B"], forDocument: self.db.document("books/missing"))
                return nil
            }
        }
        XCTAssertEqual(error as? FirestoreErrorCode, DocumentStoreError.notFound(path: "books/missing"))
        XCTAssertEqual(store.fileNames(in: "books"), [])
    }

    func testAConflictingWriteMakesTheBlockRunAgain() async throws {
        let counter = db.document("counters/a")
        try counter.write(["count": 1])
        let attempts = Locked(0)
        _ = try await db.runTransaction { transaction, errorPointer -> Any? in
            let attempt = attempts.withLock { $0 += 1; return $0 }
            do {
                let count = try transaction.getDocument(counter).get("count") as? Int ?? 0
                // Another program changes what this attempt read, before it commits.
                if attempt == 1 { try self.store.writeFile("counters/a.json", #"{"count": 100}"#) }
                transaction.updateData(["count": count + 1], forDocument: counter)
                transaction.setData(["attempt": attempt], forDocument: self.db.document("counters/log"))
            } catch {
                errorPointer?.pointee = error as NSError
            }
            return nil
        }
        XCTAssertEqual(attempts.withLock { $0 }, 2)
        let count = try await fields("counters/a")
        XCTAssertEqual(count?["count"] as? Int, 101, "the second attempt saw the other write; nothing was lost")
        let log = try await fields("counters/log")
        XCTAssertEqual(log?["attempt"] as? Int, 2, "the first attempt wrote nothing")
    }

    func testMaxAttemptsThenTheLastErrorAFailedPrecondition() async throws {
        let counter = db.document("counters/a")
        try counter.write(["count": 0])
        let attempts = Locked(0)
        let options = TransactionOptions()
        options.maxAttempts = 3
        let error = await thrownError {
            _ = try await self.db.runTransaction(with: options) { transaction, errorPointer -> Any? in
                let attempt = attempts.withLock { $0 += 1; return $0 }
                do {
                    _ = try transaction.getDocument(counter)
                    try self.store.writeFile("counters/a.json", #"{"count": \#(attempt * 1000)}"#)
                    transaction.setData(["count": -1], forDocument: counter)
                    transaction.setData(["attempt": attempt], forDocument: self.db.document("counters/log"))
                } catch {
                    errorPointer?.pointee = error as NSError
                }
                return nil
            }
        }
        XCTAssertEqual(attempts.withLock { $0 }, 3)
        XCTAssertEqual(error.map { ($0 as NSError).code }, FirestoreErrorCode.failedPrecondition.rawValue, "as the SDK's: a document changed since read")
        XCTAssertEqual(error.map { ($0 as NSError).domain }, FirestoreErrorDomain)
        let count = try await fields("counters/a")
        XCTAssertEqual(count?["count"] as? Int, 3000, "only the other writer's writes happened")
        XCTAssertEqual(store.fileNames(in: "counters"), ["a.json"])

        options.maxAttempts = 0
        let refused = await thrownError { _ = try await self.db.runTransaction(with: options) { _, _ in nil } }
        XCTAssertEqual(refused.map { ($0 as NSError).code }, FirestoreErrorCode.invalidArgument.rawValue)
    }

    func testTheCompletionForm() async throws {
        try db.document("counters/a").write(["count": 1])
        let done = expectation(description: "completion")
        db.runTransaction({ transaction, errorPointer -> Any? in
            do {
                let count = try transaction.getDocument(self.db.document("counters/a")).get("count") as? Int ?? 0
                transaction.updateData(["count": count * 10], forDocument: self.db.document("counters/a"))
                return "done \(count)"
            } catch {
                errorPointer?.pointee = error as NSError
                return nil
            }
        }) { result, error in
            XCTAssertNil(error)
            XCTAssertEqual(result as? String, "done 1")
            dispatchPrecondition(condition: .onQueue(self.store.callbackQueue))
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 10)
        let count = try await fields("counters/a")
        XCTAssertEqual(count?["count"] as? Int, 10)

        let failed = expectation(description: "failed completion")
        db.runTransaction({ _, errorPointer -> Any? in
            errorPointer?.pointee = NSError(domain: "App", code: 3)
            return nil
        }) { result, error in
            XCTAssertNil(result)
            XCTAssertEqual(error.map { ($0 as NSError).code }, 3)
            failed.fulfill()
        }
        await fulfillment(of: [failed], timeout: 10)
    }

    func testAReadOnlyTransactionChecksWhatItRead() async throws {
        try db.document("counters/a").write(["count": 1])
        let attempts = Locked(0)
        let result = try await db.runTransaction { transaction, _ -> Any? in
            let attempt = attempts.withLock { $0 += 1; return $0 }
            let count = (try? transaction.getDocument(self.db.document("counters/a")))?.get("count") as? Int
            if attempt == 1 { try? self.store.writeFile("counters/a.json", #"{"count": 2}"#) }
            return count
        }
        XCTAssertEqual(attempts.withLock { $0 }, 2)
        XCTAssertEqual(result as? Int, 2)
    }

    // MARK: The acceptance: the quickstart's rating transaction, 200 times, two processes × four threads

    /// FriendlyEats' `addRatingTransaction`, as written against Firebase (with `position`, the
    /// `numRatings` each rating made, so the test can replay the commits' order).
    private static func addRating(_ stars: Int, to restaurant: DocumentReference, in db: Firestore) async throws {
        let ratingReference = restaurant.collection("ratings").document()
        _ = try await db.runTransaction { transaction, errorPointer -> Any? in
            let snapshot: DocumentSnapshot
            do {
                snapshot = try transaction.getDocument(restaurant)
            } catch let fetchError as NSError {
                errorPointer?.pointee = fetchError
                return nil
            }
            guard let data = snapshot.data(), let numRatings = data["numRatings"] as? Int,
                  let averageRating = data["avgRating"] as? Double else {
                errorPointer?.pointee = NSError(domain: "FriendlyEats", code: 1)
                return nil
            }
            let newNumRatings = numRatings + 1
            let newAverage = (Double(numRatings) * averageRating + Double(stars)) / Double(newNumRatings)
            transaction.setData(["rating": stars, "userId": "test", "text": "Rating \(newNumRatings)", "position": newNumRatings],
                                forDocument: ratingReference)
            transaction.updateData(["numRatings": newNumRatings, "avgRating": newAverage], forDocument: restaurant)
            return nil
        }
    }

    func testTheQuickstartRatingTransactionFromTwoProcessesWithFourThreadsEach() async throws {
        guard let executable = ShelfBench.executable() else { return XCTFail("the shelf-bench executable was not found; `swift test` builds it") }
        let restaurant = db.document("restaurants/tartine")
        try restaurant.write(["name": "Tartine", "numRatings": 0, "avgRating": 0.0])
        // The other process: ratings 100..<200 over four threads (completion form).
        let other = try ShelfBench.Child(executable: executable, arguments: [
            "rate", store.location, "--restaurant", "restaurants/tartine", "--count", "100", "--threads", "4", "--first", "100",
        ])
        // This process: ratings 0..<100 over four tasks (async form), an app's retry on .aborted.
        let aborted = Locked(0)
        let db = self.db
        try await withThrowingTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    for number in stride(from: thread, to: 100, by: 4) {
                        while true {
                            do {
                                try await Self.addRating(number % 5 + 1, to: restaurant, in: db)
                                break
                            } catch {
                                guard [FirestoreErrorCode.failedPrecondition.rawValue, FirestoreErrorCode.aborted.rawValue].contains((error as NSError).code) else { throw error }
                                aborted.withLock { $0 += 1 }
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let otherSaid = other.finish()
        XCTAssertEqual(other.process.terminationStatus, 0, other.failureOutput)

        let ratings = try await restaurant.collection("ratings").getDocuments()
        XCTAssertEqual(ratings.count, 200, "exactly 200 ratings")
        let final = try await restaurant.getDocument()
        XCTAssertEqual(final.get("numRatings") as? Int, 200)
        // Every commit saw the one before it: positions are 1...200, each once.
        let byPosition = ratings.documents.sorted { ($0.get("position") as? Int ?? 0) < ($1.get("position") as? Int ?? 0) }
        XCTAssertEqual(byPosition.map { $0.get("position") as? Int }, (1...200).map { $0 })
        // The exact average: the quickstart's formula replayed in commit order gives the very
        // double stored, and it is the mean of the 200 ratings (sum 600: 40 of each of 1...5).
        var average = 0.0
        for (count, rating) in byPosition.enumerated() {
            average = (Double(count) * average + Double(rating.get("rating") as? Int ?? 0)) / Double(count + 1)
        }
        XCTAssertEqual(final.get("avgRating") as? Double, average)
        XCTAssertEqual(byPosition.map { $0.get("rating") as? Int ?? 0 }.reduce(0, +), 600)
        XCTAssertEqual(try XCTUnwrap(final.get("avgRating") as? Double), 3.0, accuracy: 1e-12)
        print("rating transactions: this process retried \(aborted.withLock { $0 }) aborted ones; the other said: \(otherSaid)")
    }
}
