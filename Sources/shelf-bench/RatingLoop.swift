import DocumentStore
import Foundation

/// The rating transaction of Firebase's quickstart (FriendlyEats), run from several threads:
///
///     shelf-bench rate DIR --restaurant PATH --count N --threads T [--first K]
///
/// Each transaction reads the restaurant, adds a rating document to its `ratings` and updates
/// `numRatings` and `avgRating`, as the quickstart does. Rating number j of this process
/// (K ≤ j < K + N) gives `(j % 5) + 1` stars, so a test knows the sum. Each rating document
/// also keeps `position`, the `numRatings` it made, so the order of commits can be replayed.
/// A transaction that lost to other writers `maxAttempts` times (it ends `.failedPrecondition`, a
/// document changed since read, or `.aborted` from PostgreSQL) is counted and run again, as an app would. Prints `ratings N aborted A seconds S`.
enum RatingLoop {
    static func run(_ arguments: [String]) {
        guard let directory = arguments.first, !directory.hasPrefix("--") else { fail("usage: shelf-bench rate DIR-or-URL --restaurant PATH --count N --threads T [--first K]") }
        var restaurant: String?
        var count = 100
        var threads = 4
        var first = 0
        var rest = arguments.dropFirst()
        while let option = rest.popFirst() {
            guard let value = rest.popFirst() else { fail("\(option) needs a value") }
            switch option {
            case "--restaurant": restaurant = value
            case "--count": count = number(value, option)
            case "--threads": threads = number(value, option)
            case "--first": first = number(value, option, allowZero: true)
            default: fail("unknown option \(option)")
            }
        }
        guard let restaurant else { fail("--restaurant is required") }
        let db: Firestore
        // Completions on a queue of their own: the main thread waits for the threads below.
        let settings = FirestoreSettings()
        settings.dispatchQueue = DispatchQueue(label: "rate.callbacks")
        // A folder, a postgresql:// or a firestore:// URL: the same transactions on each backend.
        let url = directory.contains("://") ? URL(string: directory) : URL(fileURLWithPath: directory)
        do { db = try Firestore(url: url ?? URL(fileURLWithPath: directory), settings: settings) } catch { fail("cannot open \(directory): \(error)") }
        let started = ContinuousClock.now
        let result = rate(db: db, restaurant: db.document(restaurant), ratings: Array(first..<first + count), threads: threads)
        if let failure = result.failure { fail("a rating failed: \(failure)") }
        print("ratings \(count) aborted \(result.aborted) seconds \((ContinuousClock.now - started).components.seconds)")
    }

    struct Result {
        var aborted = 0
        var failure: Error?
    }

    /// Runs one rating transaction per element of `ratings`, spread over `threads` threads.
    static func rate(db: Firestore, restaurant: DocumentReference, ratings: [Int], threads: Int) -> Result {
        let result = Locked(Result())
        let group = DispatchGroup()
        for thread in 0..<threads {
            let mine = ratings.enumerated().filter { $0.offset % threads == thread }.map(\.element)
            group.enter()
            Thread.detachNewThread {
                for number in mine {
                    while true {
                        let error = rateOnce(db: db, restaurant: restaurant, stars: number % 5 + 1)
                        guard let error else { break }
                        if [FirestoreErrorCode.failedPrecondition.rawValue, FirestoreErrorCode.aborted.rawValue].contains((error as NSError).code) {
                            result.withLock { $0.aborted += 1 }
                            continue
                        }
                        result.withLock { $0.failure = error }
                        group.leave()
                        return
                    }
                }
                group.leave()
            }
        }
        group.wait()
        return result.withLock { $0 }
    }

    /// The quickstart's transaction, with the completion handler; waits for it.
    static func rateOnce(db: Firestore, restaurant: DocumentReference, stars: Int) -> Error? {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Error?>(nil)
        let ratingReference = restaurant.collection("ratings").document()
        db.runTransaction({ transaction, errorPointer -> Any? in
            let snapshot: DocumentSnapshot
            do {
                snapshot = try transaction.getDocument(restaurant)
            } catch let fetchError as NSError {
                errorPointer?.pointee = fetchError
                return nil
            }
            guard let data = snapshot.data(), let numRatings = data["numRatings"] as? Int,
                  let averageRating = data["avgRating"] as? Double else {
                errorPointer?.pointee = NSError(domain: "FriendlyEats", code: 1,
                                                userInfo: [NSLocalizedDescriptionKey: "\(restaurant.path) lacks numRatings or avgRating"])
                return nil
            }
            let newNumRatings = numRatings + 1
            let newAverage = (Double(numRatings) * averageRating + Double(stars)) / Double(newNumRatings)
            transaction.setData(["rating": stars, "userId": "bench", "text": "Rating \(newNumRatings)", "position": newNumRatings],
                                forDocument: ratingReference)
            transaction.updateData(["numRatings": newNumRatings, "avgRating": newAverage], forDocument: restaurant)
            return nil
        }) { _, error in
            outcome.withLock { $0 = error }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0 }
    }

    private static func number(_ text: String, _ option: String, allowZero: Bool = false) -> Int {
        guard let number = Int(text), number > 0 || (allowZero && number == 0) else { fail("\(option) needs a positive number, got \(text)") }
        return number
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data(("shelf-bench rate: " + message + "\n").utf8))
        exit(1)
    }
}

/// A value behind a lock, for the benchmark's threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&value) }
    }
}
