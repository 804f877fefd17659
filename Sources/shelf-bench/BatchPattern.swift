import DocumentStore
import Foundation

/// The documents a batch of the crash test writes, and the check that a collection holds one
/// whole batch. Batch `b` of `n` documents sets `batches/doc-0` ... `batches/doc-(n-1)` to
/// `{batch: b, index: i, payload, checksum}` (the payload is `"<b>.<i>:"` repeated to a random
/// length of 200-2,000 bytes, the checksum its FNV-1a hash), and sets `batches/odd` to
/// `{batch: b}` when `b` is odd, deletes it when `b` is even: a partial batch shows as documents
/// of different batches, or an `odd` document that disagrees.
enum BatchPattern {
    static let collection = "batches"
    static let odd = "odd"

    static func documentID(_ index: Int) -> String { "doc-\(index)" }

    static func payload(batch: Int, index: Int, length: Int) -> String {
        let unit = Array("\(batch).\(index):".utf8)
        return String(decoding: (0..<length).map { unit[$0 % unit.count] }, as: UTF8.self)
    }

    /// Adds batch `number` to `batch`.
    static func add(_ number: Int, documents: Int, to batch: WriteBatch, in db: Firestore) {
        var random = SystemRandomNumberGenerator()
        let collection = db.collection(collection)
        for index in 0..<documents {
            let payload = payload(batch: number, index: index, length: Int.random(in: 200...2_000, using: &random))
            batch.setData(["batch": number, "index": index, "payload": payload, "checksum": WriteLoop.checksum(payload)],
                          forDocument: collection.document(documentID(index)))
        }
        if number % 2 == 1 {
            batch.setData(["batch": number], forDocument: collection.document(odd))
        } else {
            batch.deleteDocument(collection.document(odd))
        }
    }

    /// The batch number the documents hold, nil when there are none yet; throws a
    /// description of what is partial.
    static func check(_ documents: [QueryDocumentSnapshot], documentsPerBatch: Int) throws -> Int? {
        let byID = Dictionary(documents.map { ($0.documentID, $0) }, uniquingKeysWith: { first, _ in first })
        guard !byID.isEmpty else { return nil }
        var batches: Set<Int> = []
        for index in 0..<documentsPerBatch {
            let id = documentID(index)
            guard let document = byID[id] else { throw BenchError("\(id) is missing while others exist") }
            if let error = document.readError { throw BenchError("\(id) cannot be read: \(error)") }
            guard let batch = (document.get("batch") as? NSNumber)?.intValue, (document.get("index") as? NSNumber)?.intValue == index,
                  let payload = document.get("payload") as? String, let checksum = document.get("checksum") as? String else {
                throw BenchError("\(id) lacks its fields: \(document.data().keys.sorted())")
            }
            guard payload == Self.payload(batch: batch, index: index, length: payload.utf8.count), checksum == WriteLoop.checksum(payload) else {
                throw BenchError("\(id) of batch \(batch) does not check")
            }
            batches.insert(batch)
        }
        guard batches.count == 1, let batch = batches.first else {
            throw BenchError("documents of batches \(batches.sorted()) side by side")
        }
        let oddBatch = (byID[odd]?.get("batch") as? NSNumber)?.intValue
        if batch % 2 == 1 && oddBatch != batch {
            throw BenchError("batch \(batch) is odd but \(odd) holds \(oddBatch.map(String.init) ?? "nothing")")
        }
        if batch % 2 == 0 && byID[odd] != nil {
            throw BenchError("batch \(batch) is even but \(odd) exists (batch \(oddBatch.map(String.init) ?? "?"))")
        }
        guard byID.count == documentsPerBatch + (batch % 2) else {
            throw BenchError("unexpected documents: \(byID.keys.sorted())")
        }
        return batch
    }
}
