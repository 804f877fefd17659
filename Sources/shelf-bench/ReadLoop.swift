import DocumentStore
import Foundation

/// The reader in another process of the batch crash test:
///
///     shelf-bench read-loop DIR --batch N --until PATH
///
/// Reads `batches` of the store at DIR with `getDocuments()` over and over, and listens to it,
/// checking that every read and every snapshot holds one whole batch of N documents (see
/// `BatchPattern`) and that batch numbers never go back. It stops when PATH exists and prints
/// `reads R snapshots S batches B`; at the first partial batch it says what it saw on standard
/// error and exits with status 1.
enum ReadLoop {
    static func run(_ arguments: [String]) {
        guard let directory = arguments.first, !directory.hasPrefix("--") else { fail("usage: shelf-bench read-loop DIR --batch N --until PATH") }
        var size: Int?
        var until: String?
        var rest = arguments.dropFirst()
        while let option = rest.popFirst() {
            guard let value = rest.popFirst() else { fail("\(option) needs a value") }
            switch option {
            case "--batch": size = Arguments.number(value, for: option)
            case "--until": until = value
            default: fail("unknown option \(option)")
            }
        }
        guard let size, let until else { fail("--batch and --until are required") }
        let settings = FirestoreSettings()
        settings.dispatchQueue = DispatchQueue(label: "read-loop.callbacks")
        settings.pollingInterval = 0.01
        let db: Firestore
        do { db = try Firestore(directory: URL(fileURLWithPath: directory), settings: settings) } catch { fail("cannot open \(directory): \(error)") }

        let snapshots = Counter()
        let registration = db.collection(BatchPattern.collection).addSnapshotListener { snapshot, error in
            guard let snapshot else { fail("the listener failed: \(error.map { "\($0)" } ?? "no error")") }
            do {
                try snapshots.see(try BatchPattern.check(snapshot.documents, documentsPerBatch: size), from: "a snapshot")
            } catch {
                fail("a snapshot holds a partial batch: \(error)")
            }
        }
        let reads = Counter()
        let semaphore = DispatchSemaphore(value: 0)
        Task {
            while !FileManager.default.fileExists(atPath: until) {
                do {
                    let snapshot = try await db.collection(BatchPattern.collection).getDocuments()
                    try reads.see(try BatchPattern.check(snapshot.documents, documentsPerBatch: size), from: "getDocuments()")
                } catch {
                    fail("getDocuments() saw a partial batch: \(error)")
                }
                usleep(2_000)  // leave the writer some of the machine
            }
            semaphore.signal()
        }
        semaphore.wait()
        registration.remove()
        print("reads \(reads.count) snapshots \(snapshots.count) batches \(reads.batches.union(snapshots.batches).count)")
    }

    /// Reads seen, and the batch numbers, which must never go back.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var last = 0
        private(set) var count = 0
        private(set) var batches: Set<Int> = []

        func see(_ batch: Int?, from source: String) throws {
            try lock.withLock {
                count += 1
                guard let batch else { return }
                if batch < last { throw BenchError("\(source) went back from batch \(last) to \(batch)") }
                last = batch
                batches.insert(batch)
            }
        }
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data(("shelf-bench read-loop: " + message + "\n").utf8))
        exit(1)
    }
}
