import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation
import GRPCCore

/// Commits through `Commit`. The store's writes are transforms of what is stored (a merge, an
/// update, an increment), so a commit whose writes read the documents, or that must check a
/// transaction's reads (`expected`), reads them in a server transaction (`BatchGetDocuments`
/// with `new_transaction`), checks the reads against what the store's transaction saw, applies
/// the writes to what was read (`CommitPlan`, with the store's own checks and limits) and
/// commits the resulting documents in that transaction: the server refuses the commit
/// (`ABORTED`) if one of them changed meanwhile. A read that no longer holds is
/// `changedSinceRead`, which the store's transaction runs again; a commit aborted only for the
/// documents its own writes read is tried again here. Writes that read nothing (a set, a
/// delete) commit without a transaction. The fields a `serverTimestamp()` stamps are stamped
/// again by the server (`REQUEST_TIME`), so they hold its time, not this machine's.
extension RemoteBackend {
    /// Times a commit that read only for its own writes is tried when the server aborts it.
    static let commitAttempts = 5

    func commit(_ writes: [DocumentWrite], expecting expected: [ResourcePath: StoredDocument], store: Firestore) throws -> [WrittenDocument] {
        var toRead = Set(expected.keys)
        for write in writes where write.readsCurrent { toRead.insert(write.path) }
        if toRead.isEmpty { return try commitWithoutReading(writes, store: store) }
        var attempt = 1
        while true {
            do {
                return try commitReading(Array(toRead), writes, expecting: expected, store: store)
            } catch let error as NSError where error.domain == FirestoreErrorDomain && error.code == FirestoreErrorCode.Code.aborted.rawValue {
                if !expected.isEmpty, let path = expected.keys.first { throw DocumentStoreError.changedSinceRead(path: path.description) }
                guard attempt < Self.commitAttempts else { throw error }
                attempt += 1
            }
        }
    }

    /// Writes that read nothing have no precondition either (`readsCurrent`), so `updated` is
    /// never asked here.
    private func commitWithoutReading(_ writes: [DocumentWrite], store: Firestore) throws -> [WrittenDocument] {
        let staged = try CommitPlan.apply(writes, at: Timestamp(), store: store, current: { path in try self.document(at: path, store: store) },
                                          updated: { path in try self.documentTimes([path]).first??.updated })
        return try send(staged, of: writes, transaction: nil, store: store)
    }

    private func commitReading(_ paths: [ResourcePath], _ writes: [DocumentWrite], expecting expected: [ResourcePath: StoredDocument],
                               store: Firestore) throws -> [WrittenDocument] {
        let read = try self.read(paths, store: store, transaction: .new)
        guard let transaction = read.transaction else {
            throw RemoteError.badResponse("no transaction for a read that began one", server: address.server)
        }
        do {
            let staged = try CommitPlan.apply(writes, expecting: expected, at: Timestamp(), store: store, current: { read.documents[$0] ?? .missing },
                                              updated: { read.times[$0]?.updated })
            return try send(staged, of: writes, transaction: transaction, store: store)
        } catch let error as NSError where error.domain == FirestoreErrorDomain {
            throw error  // the server's answer to the commit: the transaction is over
        } catch {
            rollback(transaction)
            throw error
        }
    }

    /// Each document `writes` made as a whole (`update` without a mask) or a delete, with its
    /// stamped fields that still hold a timestamp (a later write may have put another value
    /// there) given the server's time, and, where the commit's first write of it was an
    /// update, Firestore's `exists: true` precondition, as Firebase's SDKs send it: the server
    /// refuses it (`NOT_FOUND`) if the document is gone, rather than making it again. One the
    /// commit deleted and made again is sent deleted first, so the server counts it changed
    /// (`CommitPlan.Planned.isMadeAgain`). Each comes back as the server stored it (its stamps the server's), with its update time:
    /// the commit's for a document it changed, an earlier one for a document the server left
    /// as it was (Firestore's `WriteResult.update_time`).
    func send(_ staged: [CommitPlan.Planned], of writes: [DocumentWrite],
              transaction: Data?, store: Firestore) throws -> [WrittenDocument] {
        let documents = RemoteDocuments(address: address, store: store)
        let stamped = DocumentWrite.stampedFields(writes)
        let mustExist = DocumentWrite.documentsThatMustExist(writes)
        let sentStamps = staged.map { planned in
            (stamped[planned.path] ?? []).filter { field in
                if case .timestamp = planned.document.fields?.value(at: field.segments) { true } else { false }
            }
        }
        var request = Google_Firestore_V1_CommitRequest()
        request.database = address.databaseName
        if let transaction { request.transaction = transaction }
        // The response's result of each staged document: that of its last write.
        var results: [Int] = []
        for (staged, stamps) in zip(staged, sentStamps) {
            var write = Google_Firestore_V1_Write()
            if mustExist.contains(staged.path) { write.currentDocument.exists = true }
            if staged.isMadeAgain {
                write.delete = documents.name(of: staged.path)
                request.writes.append(write)
                write = Google_Firestore_V1_Write()
            }
            if let fields = staged.document.fields {
                write.update.name = documents.name(of: staged.path)
                write.update.fields = documents.values.wire(fields)
                write.updateTransforms = stamps.map { field in
                    var transform = Google_Firestore_V1_DocumentTransform.FieldTransform()
                    transform.fieldPath = field.serverFormat
                    transform.setToServerValue = .requestTime
                    return transform
                }
            } else {
                write.delete = documents.name(of: staged.path)
            }
            request.writes.append(write)
            results.append(request.writes.count - 1)
        }
        let what = staged.count == 1 ? "writing \(staged[0].path)" : "committing \(staged.count) writes"
        let response = try connection.wait(what) { [request] client, options in try await client.commit(request, options: options) }
        return staged.enumerated().map { index, written in
            let sent = results[index]
            guard let fields = written.document.fields, sent < response.writeResults.count, response.writeResults[sent].hasUpdateTime else {
                return WrittenDocument(path: written.path, document: written.document, updateTime: nil)
            }
            let result = response.writeResults[sent]
            let stored = Self.stamped(fields, sentStamps[index], with: result.transformResults, documents)
            let updated = Timestamp(seconds: result.updateTime.seconds, nanoseconds: result.updateTime.nanos)
            let committed = Timestamp(seconds: response.commitTime.seconds, nanoseconds: response.commitTime.nanos)
            return WrittenDocument(path: written.path, document: .fields(stored), updateTime: updated, changed: updated >= committed)
        }
    }

    /// `fields` with each of `stamps` holding the server's value for it, as the server stored them.
    private static func stamped(_ fields: Fields, _ stamps: [FieldPath], with results: [Google_Firestore_V1_Value],
                                _ documents: RemoteDocuments) -> Fields {
        guard !stamps.isEmpty, stamps.count == results.count else { return fields }
        var dictionary = fields.dictionary
        for (field, result) in zip(stamps, results) {
            guard let value = try? documents.values.value(result, field: field.serverFormat) else { continue }
            try? FieldConversion.setValue(at: field.segments[...], in: &dictionary) { _ in value }
        }
        return Fields(dictionary)
    }

    /// Ends a transaction the commit will not use; a failure here changes nothing (the server
    /// lets an abandoned transaction expire).
    private func rollback(_ transaction: Data) {
        var request = Google_Firestore_V1_RollbackRequest()
        request.database = address.databaseName
        request.transaction = transaction
        _ = try? connection.wait("rolling back a transaction") { [request] client, options in try await client.rollback(request, options: options) }
    }
}
