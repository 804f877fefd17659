import DocumentStore
import Foundation

/// The child process of DocumentStore's crash and concurrency tests:
///
///     shelf-bench write-loop DIR [--prefix NAME] [--documents N] [--writes N] [--counter ID]
///     shelf-bench write-loop DIR --batch N [--writes N] [--report] [--stop-in-apply K]
///
/// Rewrites the documents `crash/<prefix>-0` ... `crash/<prefix>-(N-1)` of the store at DIR in
/// turn (4 documents, forever, by default) with payloads of 64-200 KB, so that a SIGKILL is likely
/// to land in the middle of a write. Each document checks itself: its `payload` is the text
/// `"<sequence>:"` repeated to `length` bytes, and `checksum` is the FNV-1a hash of `payload`.
/// With `--writes N` it stops after N writes; with `--counter ID` it also increments the field
/// `count` of `crash/ID` after each write, to test read-modify-write across processes.
///
/// With `--batch N` it commits batches of N documents instead, forever or `--writes` batches
/// (see `BatchPattern`), numbering them on from the batch the store holds; `--report` prints
/// `committed <number>` after each commit, so a test knows the loop is under way;
/// `--stop-in-apply K` stops the process (SIGSTOP) once a committed batch has applied K of its
/// documents, so a test can kill it exactly there (0: just after the commit point; N: all
/// applied, before the barrier).
enum WriteLoop {
    static let collection = "crash"

    static func run(_ arguments: [String]) {
        guard let directory = arguments.first, !directory.hasPrefix("--") else {
            fail("usage: shelf-bench write-loop DIR [--prefix NAME] [--documents N] [--writes N] [--counter ID]")
        }
        var prefix = "doc"
        var documents = 4
        var writes: Int?
        var counter: String?
        var batchSize: Int?
        var report = false
        var rest = arguments.dropFirst()
        while let option = rest.popFirst() {
            if option == "--report" { report = true; continue }
            guard let value = rest.popFirst() else { fail("\(option) needs a value") }
            switch option {
            case "--prefix": prefix = value
            case "--documents": documents = positive(value, option)
            case "--writes": writes = positive(value, option)
            case "--counter": counter = value
            case "--batch": batchSize = positive(value, option)
            case "--stop-in-apply":
                guard let applied = Int(value), applied >= 0 else { fail("\(option) needs a number of documents, got \(value)") }
                BatchFailpoint.beforeApplyingEntry = { index in if index == applied { raise(SIGSTOP) } }
            default: fail("unknown option \(option)")
            }
        }
        let db: Firestore
        do {
            db = try Firestore(directory: URL(fileURLWithPath: directory))
        } catch {
            fail("cannot open the store at \(directory): \(error)")
        }
        if let batchSize { return runBatches(db, size: batchSize, count: writes, report: report) }
        let collection = db.collection(collection)
        var random = SystemRandomNumberGenerator()
        var sequence = 0
        while writes.map({ sequence < $0 }) ?? true {
            let length = Int.random(in: 64_000...200_000, using: &random)
            let payload = Self.payload(sequence: sequence, length: length)
            let data: [String: Any] = [
                "sequence": sequence,
                "length": length,
                "payload": payload,
                "checksum": Self.checksum(payload),
            ]
            do {
                try collection.document("\(prefix)-\(sequence % documents)").write(data)
                if let counter {
                    try collection.document(counter).write(["count": FieldValue.increment(Int64(1))], merge: true)
                }
            } catch {
                fail("write \(sequence) failed: \(error)")
            }
            sequence += 1
        }
    }

    private static func runBatches(_ db: Firestore, size: Int, count: Int?, report: Bool) {
        let semaphore = DispatchSemaphore(value: 0)
        Task {
            do {
                let snapshot = try await db.collection(BatchPattern.collection).getDocuments()
                let start = (try BatchPattern.check(snapshot.documents, documentsPerBatch: size) ?? 0) + 1
                var number = start
                while count.map({ number < start + $0 }) ?? true {
                    let batch = db.batch()
                    BatchPattern.add(number, documents: size, to: batch, in: db)
                    try await batch.commit()
                    if report {
                        FileHandle.standardOutput.write(Data("committed \(number)\n".utf8))
                    }
                    number += 1
                }
            } catch {
                fail("\(error)")
            }
            semaphore.signal()
        }
        semaphore.wait()
    }

    /// `"<sequence>:"` repeated, cut to `length` bytes.
    static func payload(sequence: Int, length: Int) -> String {
        let unit = Array("\(sequence):".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        while bytes.count < length { bytes.append(unit[bytes.count % unit.count]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// FNV-1a, 64 bits, as 16 lowercase hex digits.
    static func checksum(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func positive(_ text: String, _ option: String) -> Int {
        guard let number = Int(text), number > 0 else { fail("\(option) needs a positive number, got \(text)") }
        return number
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data(("shelf-bench write-loop: " + message + "\n").utf8))
        exit(2)
    }
}
