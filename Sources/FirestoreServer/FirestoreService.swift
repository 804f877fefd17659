import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation
import GRPCCore
import SwiftProtobuf

/// `google.firestore.v1.Firestore` on DocumentStore: each method reads and writes through the
/// store's own API (queries, listeners, commits), so a client of the server sees what the
/// Shelf app and a Swift program see, with the same checks. Every error becomes the status
/// Firestore gives, with a message naming the field or document.
struct FirestoreService: Google_Firestore_V1_Firestore.SimpleServiceProtocol {
    let databases: ServedDatabases
    let transactions = OpenTransactions()
    /// How long a transaction waits for another's lock (in its store's `TransactionLocks`).
    let lockWait: Duration
    let listens: ListenStreams
    let shutdown = StreamShutdown()

    init(databases: ServedDatabases, lockWait: Duration = .seconds(5), log: ServerLog = ServerLog()) {
        self.databases = databases
        self.lockWait = lockWait
        listens = ListenStreams(log: log)
    }

    /// Runs a method's body; whatever it throws leaves as Firestore's status.
    private func answering<T>(_ name: String, field: String, _ body: (ServedDatabase) async throws -> T) async throws -> T {
        let database: ServedDatabase
        do { database = try databases.database(name, field: field) } catch { throw error.rpcError }
        do { return try await body(database) } catch { throw WireError(error, database: database).rpcError }
    }

    // MARK: Reads

    func getDocument(request: Google_Firestore_V1_GetDocumentRequest, context: ServerContext) async throws -> Google_Firestore_V1_Document {
        try await answering(request.name, field: "name") { current in
            let consistency = request.consistencySelector.map(ReadConsistency.init)
            let database = try view(consistency, of: current).database
            let path = try database.documentPath(request.name, field: "name")
            let snapshot = try await read([path], in: database, consistency: consistency).first!
            guard let document = try database.wireDocuments([snapshot], mask: try mask(request.hasMask ? request.mask : nil)).first! else {
                throw WireError.notFound("Document (\(request.name)) not found.")  // the emulator's words
            }
            return document
        }
    }

    func batchGetDocuments(request: Google_Firestore_V1_BatchGetDocumentsRequest, response: RPCWriter<Google_Firestore_V1_BatchGetDocumentsResponse>,
                           context: ServerContext) async throws {
        try await answering(request.database, field: "database") { current in
            var consistency = request.consistencySelector.map(ReadConsistency.init)
            let (database, readTime) = try view(consistency, of: current)
            // A document named twice is answered once, where first named, as Firestore does.
            var paths: [String] = [], names: [String] = [], named: Set<String> = []
            for (index, name) in request.documents.enumerated() {
                let path = try database.documentPath(name, field: "documents[\(index)]")
                guard named.insert(path).inserted else { continue }
                paths.append(path)
                names.append(name)
            }
            var newTransaction: Data?
            if case .newTransaction(let options) = consistency {
                newTransaction = transactions.begin(database: database.name, readOnly: options.hasReadOnly, retrying: options.retrying,
                                                    readTime: try Self.readTime(of: options, values: database.values))
                consistency = .transaction(newTransaction!)
            }
            let snapshots = try await read(paths, in: database, consistency: consistency)
            let documents = try database.wireDocuments(snapshots, mask: try mask(request.hasMask ? request.mask : nil))
            for (index, (document, name)) in zip(documents, names).enumerated() {
                var message = Google_Firestore_V1_BatchGetDocumentsResponse()
                if let document { message.found = document } else { message.missing = name }
                message.readTime = WireValues.wire(readTime)
                if index == 0, let newTransaction { message.transaction = newTransaction }
                try await response.write(message)
            }
            if request.documents.isEmpty, let newTransaction {
                var message = Google_Firestore_V1_BatchGetDocumentsResponse()
                message.transaction = newTransaction
                message.readTime = WireValues.wire(readTime)
                try await response.write(message)
            }
        }
    }

    func listDocuments(request: Google_Firestore_V1_ListDocumentsRequest, context: ServerContext) async throws -> Google_Firestore_V1_ListDocumentsResponse {
        try await answering(request.parent, field: "parent") { current in
            let database = try view(request.consistencySelector.map(ReadConsistency.init), of: current).database
            let parent = try database.path(of: request.parent, field: "parent")
            guard parent.count % 2 == 0 else { throw WireError.invalidArgument("parent: \"\(request.parent)\" is a collection; the parent is the database's documents or a document") }
            guard !request.collectionID.isEmpty else { throw WireError.invalidArgument("collection_id: a collection id is needed") }
            guard request.pageSize >= 0 else { throw WireError.invalidArgument("page_size: must be 0 or more, got \(request.pageSize)") }
            guard request.orderBy.isEmpty || request.orderBy == "__name__" else {
                throw WireError.unimplemented("order_by: Shelf lists documents by name only (__name__), not by \"\(request.orderBy)\"")
            }
            let collection = database.store.collection((parent + [request.collectionID]).joined(separator: "/"))
            let ids: [String]
            if request.showMissing {
                ids = try collection.listDocuments().map(\.documentID)
            } else {
                ids = try await collection.order(by: FieldPath.documentID()).getDocuments().documents.map(\.documentID)
            }
            let page = try IDPage(of: ids, token: request.pageToken, size: request.pageSize)
            let snapshots = try page.ids.map { try collection.document($0).readDocument() }
            let documents = try database.wireDocuments(snapshots, mask: try mask(request.hasMask ? request.mask : nil))
            var message = Google_Firestore_V1_ListDocumentsResponse()
            message.documents = zip(snapshots, documents).compactMap { snapshot, document in
                if let document { return document }
                guard request.showMissing, (try? snapshot.reference.listCollections().contains(where: database.holdsDocuments)) ?? true else { return nil }
                var missing = Google_Firestore_V1_Document()
                missing.name = database.name(of: snapshot.reference.path)
                return missing
            }
            message.nextPageToken = page.nextPageToken
            return message
        }
    }

    func listCollectionIds(request: Google_Firestore_V1_ListCollectionIdsRequest, context: ServerContext) async throws -> Google_Firestore_V1_ListCollectionIdsResponse {
        try await answering(request.parent, field: "parent") { current in
            let database = try view(request.consistencySelector.map(ReadConsistency.init), of: current).database
            let parent = try database.path(of: request.parent, field: "parent")
            guard parent.count % 2 == 0 else { throw WireError.invalidArgument("parent: \"\(request.parent)\" is a collection; the parent is the database's documents or a document") }
            let collections = parent.isEmpty ? try database.store.listCollections()
                : try database.store.document(parent.joined(separator: "/")).listCollections()
            let page = try IDPage(of: collections.filter(database.holdsDocuments).map(\.collectionID), token: request.pageToken, size: request.pageSize)
            var message = Google_Firestore_V1_ListCollectionIdsResponse()
            message.collectionIds = page.ids
            message.nextPageToken = page.nextPageToken
            return message
        }
    }

    func runQuery(request: Google_Firestore_V1_RunQueryRequest, response: RPCWriter<Google_Firestore_V1_RunQueryResponse>, context: ServerContext) async throws {
        try await answering(request.parent, field: "parent") { current in
            guard case .structuredQuery(let structured)? = request.queryType else {
                throw WireError.invalidArgument("structured_query: a query is needed")
            }
            try WireError.refuseUnknownFields(of: request, in: "request", known: [10: "explain_options"])
            let consistency = request.consistencySelector.map(ReadConsistency.init)
            let (database, time) = try view(consistency, of: current)
            let query = try WireQuery(structured, parent: request.parent, in: database)
            let (documents, newTransaction) = try await runInTransaction(consistency, database: database, locking: [query.lockKey]) {
                try await query.results()
            }
            let readTime = WireValues.wire(time)
            let wire = try database.wireDocuments(documents, mask: query.projection, query: query.storeQuery)
            for (index, document) in wire.enumerated() {
                var message = Google_Firestore_V1_RunQueryResponse()
                if let document { message.document = document }
                message.readTime = readTime
                if index == 0, let newTransaction { message.transaction = newTransaction }
                try await response.write(message)
            }
            var done = Google_Firestore_V1_RunQueryResponse()
            done.readTime = readTime
            done.done = true
            if wire.isEmpty, let newTransaction { done.transaction = newTransaction }
            try await response.write(done)
        }
    }

    func runAggregationQuery(request: Google_Firestore_V1_RunAggregationQueryRequest,
                             response: RPCWriter<Google_Firestore_V1_RunAggregationQueryResponse>, context: ServerContext) async throws {
        try await answering(request.parent, field: "parent") { current in
            guard case .structuredAggregationQuery(let aggregation)? = request.queryType,
                  case .structuredQuery(let structured)? = aggregation.queryType else {
                throw WireError.invalidArgument("structured_aggregation_query: a query with aggregations is needed")
            }
            try WireError.refuseUnknownFields(of: request, in: "request", known: [8: "explain_options"])
            let consistency = request.consistencySelector.map(ReadConsistency.init)
            let (database, readTime) = try view(consistency, of: current)
            let query = try WireQuery(structured, parent: request.parent, in: database)
            let (fields, newTransaction) = try await runInTransaction(consistency, database: database, locking: [query.lockKey]) {
                try await WireAggregation(aggregation.aggregations).results(of: query, values: database.values)
            }
            var message = Google_Firestore_V1_RunAggregationQueryResponse()
            message.result.aggregateFields = fields
            message.readTime = WireValues.wire(readTime)
            if let newTransaction { message.transaction = newTransaction }
            try await response.write(message)
        }
    }

    func partitionQuery(request: Google_Firestore_V1_PartitionQueryRequest, context: ServerContext) async throws -> Google_Firestore_V1_PartitionQueryResponse {
        try await answering(request.parent, field: "parent") { database in
            guard case .structuredQuery(let structured)? = request.queryType else {
                throw WireError.invalidArgument("structured_query: a query is needed")
            }
            _ = try view(request.consistencySelector.map(ReadConsistency.init), of: database)
            _ = try WireQuery(structured, parent: request.parent, in: database)
            guard request.partitionCount > 0 else { throw WireError.invalidArgument("partition_count: must be positive, got \(request.partitionCount)") }
            // One machine, one partition: no cursors means the whole query is one part.
            return Google_Firestore_V1_PartitionQueryResponse()
        }
    }

    // MARK: Transactions

    func beginTransaction(request: Google_Firestore_V1_BeginTransactionRequest, context: ServerContext) async throws -> Google_Firestore_V1_BeginTransactionResponse {
        try await answering(request.database, field: "database") { database in
            let readTime = try Self.readTime(of: request.options, values: database.values)
            var message = Google_Firestore_V1_BeginTransactionResponse()
            message.transaction = transactions.begin(database: database.name, readOnly: request.options.hasReadOnly, retrying: request.options.retrying,
                                                     readTime: readTime)
            return message
        }
    }

    func rollback(request: Google_Firestore_V1_RollbackRequest, context: ServerContext) async throws -> Google_Protobuf_Empty {
        try await answering(request.database, field: "database") { database in
            try transactions.rollBack(request.transaction, database: database.name)
            database.store.transactionLocks.release(request.transaction)
            return Google_Protobuf_Empty()
        }
    }

    // MARK: Writes

    func commit(request: Google_Firestore_V1_CommitRequest, context: ServerContext) async throws -> Google_Firestore_V1_CommitResponse {
        try await answering(request.database, field: "database") { database in
            try Self.checkRequestSize(request)
            let writes = try request.writes.enumerated().map { index, write throws(WireError) in try FirestoreWrite(write, index: index, in: database) }
            return try await commitLocked(writes, in: database, transaction: request.transaction.isEmpty ? nil : request.transaction)
        }
    }

    func batchWrite(request: Google_Firestore_V1_BatchWriteRequest, context: ServerContext) async throws -> Google_Firestore_V1_BatchWriteResponse {
        try await answering(request.database, field: "database") { database in
            try Self.checkRequestSize(request)
            var message = Google_Firestore_V1_BatchWriteResponse()
            message.writeResults = Array(repeating: Google_Firestore_V1_WriteResult(), count: request.writes.count)
            message.status = Array(repeating: Google_Rpc_Status(), count: request.writes.count)
            func fail(_ index: Int, _ error: any Error) {
                message.status[index] = WireError(error, database: database).status
            }
            var writes: [(index: Int, write: FirestoreWrite)] = []
            for (index, wire) in request.writes.enumerated() {
                do { writes.append((index, try FirestoreWrite(wire, index: index, in: database))) } catch { fail(index, error) }
            }
            // All in one commit (one sync to disk); when one fails, or two name one document,
            // each on its own, so the others are still applied, as Firestore applies them.
            let distinct = Set(writes.map(\.write.path)).count == writes.count
            if distinct, let committed = try? await commitLocked(writes.map(\.write), in: database) {
                for (position, write) in writes.enumerated() { message.writeResults[write.index] = committed.writeResults[position] }
                return message
            }
            for write in writes {
                do {
                    let committed = try await commitLocked([write.write], in: database)
                    message.writeResults[write.index] = committed.writeResults.first ?? Google_Firestore_V1_WriteResult()
                } catch {
                    fail(write.index, error)
                }
            }
            return message
        }
    }

    func createDocument(request: Google_Firestore_V1_CreateDocumentRequest, context: ServerContext) async throws -> Google_Firestore_V1_Document {
        try await answering(request.parent, field: "parent") { database in
            let parent = try database.path(of: request.parent, field: "parent")
            guard parent.count % 2 == 0 else { throw WireError.invalidArgument("parent: \"\(request.parent)\" is a collection; the parent is the database's documents or a document") }
            guard !request.collectionID.isEmpty else { throw WireError.invalidArgument("collection_id: a collection id is needed") }
            let collection = database.store.collection((parent + [request.collectionID]).joined(separator: "/"))
            let id = request.documentID.isEmpty ? collection.document().documentID : request.documentID
            var write = Google_Firestore_V1_Write()
            write.update = request.document
            write.update.name = database.name(of: collection.document(id).path)
            write.currentDocument.exists = false
            return try await writeAndRead(write, mask: request.hasMask ? request.mask : nil, in: database)
        }
    }

    func updateDocument(request: Google_Firestore_V1_UpdateDocumentRequest, context: ServerContext) async throws -> Google_Firestore_V1_Document {
        try await answering(request.document.name, field: "document.name") { database in
            var write = Google_Firestore_V1_Write()
            write.update = request.document
            if request.hasUpdateMask { write.updateMask = request.updateMask }
            if request.hasCurrentDocument { write.currentDocument = request.currentDocument }
            return try await writeAndRead(write, mask: request.hasMask ? request.mask : nil, in: database)
        }
    }

    func deleteDocument(request: Google_Firestore_V1_DeleteDocumentRequest, context: ServerContext) async throws -> Google_Protobuf_Empty {
        try await answering(request.name, field: "name") { database in
            var write = Google_Firestore_V1_Write()
            write.delete = request.name
            if request.hasCurrentDocument { write.currentDocument = request.currentDocument }
            _ = try await commitLocked([try FirestoreWrite(write, index: 0, in: database)], in: database)
            return Google_Protobuf_Empty()
        }
    }

    // MARK: Streams

    func listen(request: RPCAsyncSequence<Google_Firestore_V1_ListenRequest, any Error>, response: RPCWriter<Google_Firestore_V1_ListenResponse>,
                context: ServerContext) async throws {
        try await shutdown.serve { [listens, databases] in try await listens.serve(request, response: response, databases: databases) }
    }

    func write(request: RPCAsyncSequence<Google_Firestore_V1_WriteRequest, any Error>, response: RPCWriter<Google_Firestore_V1_WriteResponse>,
               context: ServerContext) async throws {
        try await shutdown.serve { [databases, self] in try await WriteStream(databases: databases, service: self).serve(request, response: response) }
    }

    // MARK: Helpers

    /// Firestore's limit on a request's size, which only writes come near.
    static let maxRequestBytes = 10 << 20

    /// Refuses a request over 10 MiB as Firestore does (Google's emulator refuses one over
    /// 4 MiB, gRPC's default, as RESOURCE_EXHAUSTED, which clients retry for a minute).
    static func checkRequestSize(_ request: some SwiftProtobuf.Message) throws(WireError) {
        let bytes = (try? request.serializedBytes() as [UInt8])?.count ?? 0
        guard bytes > maxRequestBytes else { return }
        throw .invalidArgument("Request payload size exceeds the limit: \(maxRequestBytes) bytes (this request is \(bytes) bytes); commit fewer or smaller writes at a time")
    }

    /// A write of one document, then the document as it is after it.
    private func writeAndRead(_ wire: Google_Firestore_V1_Write, mask: Google_Firestore_V1_DocumentMask?, in database: ServedDatabase) async throws -> Google_Firestore_V1_Document {
        let write = try FirestoreWrite(wire, index: 0, in: database)
        _ = try await commitLocked([write], in: database)
        let snapshot = try database.store.document(write.path).readDocument()
        guard let document = try database.wireDocuments([snapshot], mask: try self.mask(mask)).first! else {
            throw WireError.notFound("Document \"\(database.name(of: write.path))\" not found after writing it (deleted since)")
        }
        return document
    }

    private func mask(_ wire: Google_Firestore_V1_DocumentMask?) throws(WireError) -> [FieldPath]? {
        try wire.map { mask throws(WireError) in
            try mask.fieldPaths.enumerated().map { index, text throws(WireError) in try FieldPath.parse(text, field: "mask.field_paths[\(index)]") }
        }
    }


    /// Reads documents, recording them in the transaction the request names.
    private func read(_ paths: [String], in database: ServedDatabase, consistency: ReadConsistency?) async throws -> [DocumentSnapshot] {
        try await runInTransaction(consistency, database: database, locking: paths.map(TransactionLocks.Key.document)) {
            try paths.map { try database.store.document($0).readDocument() }
        }.0
    }

    /// Runs a read as the request's consistency asks: in a read-write transaction, once it holds
    /// `keys` (what the read covers: documents, a query's collection); the documents it returns
    /// are recorded in its transaction. Returns also the id of a transaction it began.
    private func runInTransaction<T>(_ consistency: ReadConsistency?, database: ServedDatabase, locking keys: [TransactionLocks.Key],
                                     _ body: () async throws -> T) async throws -> (T, Data?) {
        var transaction: Data?, began: Data?
        switch consistency {
        case nil: break
        case .transaction(let id):
            guard transactions.contains(id, database: database.name) else { _ = try transactions.end(id, database: database.name); break }
            transaction = id
        case .newTransaction(let options):
            began = transactions.begin(database: database.name, readOnly: options.hasReadOnly, retrying: options.retrying,
                                       readTime: try Self.readTime(of: options, values: database.values))
            transaction = began
        case .readTime:
            break  // `view` gave the database as it was then
        }
        if let transaction {
            expireTransactions()
            let entry = try transactions.entry(transaction, database: database.name)
            if !entry.readOnly {
                do {
                    try await database.store.transactionLocks.lock(keys.map { ($0, .exclusive) }, for: LockOwner(id: transaction, age: entry.age),
                                                                   waitingAtMost: lockWait)
                } catch {
                    // Aborted (wounded, or waited too long): it ends here, its locks with it,
                    // whether or not its client rolls it back.
                    try? transactions.rollBack(transaction, database: database.name)
                    database.store.transactionLocks.release(transaction)
                    throw error
                }
            }
        }
        let result = try await body()
        if let transaction {
            let snapshots: [DocumentSnapshot]
            switch result {
            case let documents as [DocumentSnapshot]: snapshots = documents
            case let documents as [QueryDocumentSnapshot]: snapshots = documents
            default: snapshots = []
            }
            try transactions.record(snapshots, in: transaction, database: database.name)
        }
        return (result, began)
    }
}

extension Google_Firestore_V1_TransactionOptions {
    var hasReadOnly: Bool {
        if case .readOnly? = mode { return true }
        return false
    }
}
