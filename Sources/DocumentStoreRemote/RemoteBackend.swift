// DocumentStoreRemote: stores on a Firestore server (`firestore://` URLs, `useEmulator`):
// `shelf serve` or Google's emulator, reached with grpc-swift, so the Swift API runs against
// them as Firebase's SDK runs against the emulator.

import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation
import GRPCCore

/// A store whose documents are on a Firestore server (`shelf serve`, Google's emulator),
/// reached over gRPC: documents read with `BatchGetDocuments`, queries and aggregations run
/// by the server (`RunQuery`, `RunAggregationQuery`), lists with `ListDocuments` and
/// `ListCollectionIds`, writes committed as `RemoteCommit` says, listeners fed by one `Listen`
/// stream (`RemoteListen`).
final class RemoteBackend: ChangePushingBackend, QueryingStorage {
    let connection: RemoteConnection
    let listen: RemoteListen
    var address: RemoteAddress { connection.address }

    init(_ address: RemoteAddress) throws {
        connection = try RemoteConnection(address)
        listen = RemoteListen(connection: connection)
    }

    var description: String { address.description }
    var isReadOnly: Bool { false }
    func refusal(of definition: QueryDefinition) -> FirestoreErrorCode? { RemoteQuery.refusal(of: definition) }

    // MARK: Documents

    func documents(at paths: [ResourcePath], store: Firestore) throws -> [StoredDocument] {
        let found = try read(paths, store: store, transaction: nil).documents
        return paths.map { found[$0] ?? .missing }
    }

    func documentTimes(_ paths: [ResourcePath]) throws -> [DocumentTimes?] {
        let names = paths.map(address.name)
        var times: [String: DocumentTimes] = [:]
        for document in try batchGet(names, transaction: nil, fieldsOnly: []).documents { times[document.name] = RemoteDocuments.times(document) }
        return names.map { times[$0] }
    }

    /// What `BatchGetDocuments` found among `paths`, by path, with their times; in the
    /// transaction given (`.new`: one begun by this read, whose id is returned).
    func read(_ paths: [ResourcePath], store: Firestore, transaction: ReadTransaction?) throws
        -> (documents: [ResourcePath: StoredDocument], times: [ResourcePath: DocumentTimes], transaction: Data?) {
        let documents = RemoteDocuments(address: address, store: store)
        let (found, began) = try batchGet(paths.map(documents.name), transaction: transaction)
        var stored: [ResourcePath: StoredDocument] = [:]
        var times: [ResourcePath: DocumentTimes] = [:]
        for document in found {
            let path = try documents.path(document.name)
            stored[path] = try documents.stored(document)
            times[path] = RemoteDocuments.times(document)
        }
        return (stored, times, began)
    }

    enum ReadTransaction {
        case new
        case existing(Data)
    }

    /// `fieldsOnly`: only these fields of each document (none: its name and times alone).
    private func batchGet(_ names: [String], transaction: ReadTransaction?, fieldsOnly: [String]? = nil) throws
        -> (documents: [Google_Firestore_V1_Document], transaction: Data?) {
        var request = Google_Firestore_V1_BatchGetDocumentsRequest()
        request.database = address.databaseName
        request.documents = names
        if let fieldsOnly { request.mask.fieldPaths = fieldsOnly }
        switch transaction {
        case nil: break
        case .new?: request.newTransaction = Google_Firestore_V1_TransactionOptions()
        case .existing(let id)?: request.transaction = id
        }
        let what = names.count == 1 ? "reading \(names[0].dropFirst(address.documentsName.count + 1))" : "reading \(names.count) documents"
        return try connection.wait(what) { [request] client, options in
            try await client.batchGetDocuments(request, options: options) { response in
                var documents: [Google_Firestore_V1_Document] = []
                var began: Data?
                for try await message in response.messages {
                    if !message.transaction.isEmpty { began = message.transaction }
                    if case .found(let document)? = message.result { documents.append(document) }
                }
                return (documents, began)
            }
        }
    }

    // MARK: Queries

    func results(of query: Query) throws -> [QueryDocumentSnapshot] {
        let documents = RemoteDocuments(address: address, store: query.firestore)
        let remote = try RemoteQuery.encoded(query.definition, values: documents.values)
        var request = Google_Firestore_V1_RunQueryRequest()
        request.parent = remote.parent
        request.structuredQuery = remote.query
        let found = try connection.wait("running a query on \(remote.query.from.first?.collectionID ?? "")", deadline: .query) { [request] client, options in
            try await client.runQuery(request, options: options) { response in
                var found: [Google_Firestore_V1_Document] = []
                for try await message in response.messages where message.hasDocument { found.append(message.document) }
                return found
            }
        }
        let snapshots = try found.map(documents.snapshot)
        return remote.isReversed ? snapshots.reversed() : snapshots
    }

    func count(of query: Query) throws -> Int? {
        var aggregation = Google_Firestore_V1_StructuredAggregationQuery.Aggregation()
        aggregation.count = .init()
        aggregation.alias = "count"
        let result = try aggregate([aggregation], of: query)
        guard case .integerValue(let count)? = result["count"]?.valueType else {
            throw RemoteError.badResponse("no integer count for a count query", server: address.server)
        }
        return Int(count)
    }

    func aggregate(_ operations: [AggregateField.Operation], of query: Query) throws -> [AggregateField.Operation: FirestoreValue]? {
        let aggregations = operations.enumerated().map { index, operation in
            var aggregation = Google_Firestore_V1_StructuredAggregationQuery.Aggregation()
            aggregation.alias = "field_\(index + 1)"
            switch operation {
            case .count: aggregation.count = .init()
            case .sum(let field): aggregation.sum.field.fieldPath = field.serverFormat
            case .average(let field): aggregation.avg.field.fieldPath = field.serverFormat
            }
            return aggregation
        }
        let values = WireValues(databaseName: address.databaseName, store: query.firestore)
        let fields = try aggregate(aggregations, of: query)
        var results: [AggregateField.Operation: FirestoreValue] = [:]
        for (index, operation) in operations.enumerated() {
            guard let wire = fields["field_\(index + 1)"] else {
                throw RemoteError.badResponse("no result for the aggregation \(operation)", server: address.server)
            }
            do { results[operation] = try values.value(wire, field: "field_\(index + 1)") } catch {
                throw RemoteError.badResponse("an aggregation result the store cannot hold: \(error.message)", server: address.server)
            }
        }
        return results
    }

    private func aggregate(_ aggregations: [Google_Firestore_V1_StructuredAggregationQuery.Aggregation], of query: Query) throws -> [String: Google_Firestore_V1_Value] {
        let remote = try RemoteQuery.encoded(query.definition, values: WireValues(databaseName: address.databaseName, store: query.firestore))
        var request = Google_Firestore_V1_RunAggregationQueryRequest()
        request.parent = remote.parent
        request.structuredAggregationQuery.structuredQuery = remote.query
        request.structuredAggregationQuery.aggregations = aggregations
        return try connection.wait("aggregating a query on \(remote.query.from.first?.collectionID ?? "")", deadline: .query) { [request] client, options in
            try await client.runAggregationQuery(request, options: options) { response in
                var fields: [String: Google_Firestore_V1_Value] = [:]
                for try await message in response.messages where message.hasResult {
                    fields.merge(message.result.aggregateFields) { _, new in new }
                }
                return fields
            }
        }
    }

    // MARK: Lists

    func documentIDs(in collection: ResourcePath) throws -> Set<ExactID> {
        var request = Google_Firestore_V1_ListDocumentsRequest()
        request.parent = address.name(of: collection.parent)
        request.collectionID = collection.last
        request.showMissing = true
        request.mask = Google_Firestore_V1_DocumentMask()  // names only
        request.pageSize = 1_000
        var ids = Set<ExactID>()
        while true {
            let page = try connection.wait("listing the documents of \(collection)") { [request] client, options in
                try await client.listDocuments(request, options: options)
            }
            for document in page.documents { ids.insert(ExactID(document.name.split(separator: "/").last.map(String.init) ?? "")) }
            guard !page.nextPageToken.isEmpty else { return ids }
            request.pageToken = page.nextPageToken
        }
    }

    func collectionIDs(under parent: ResourcePath) throws -> [String] {
        var request = Google_Firestore_V1_ListCollectionIdsRequest()
        request.parent = address.name(of: parent)
        request.pageSize = 1_000
        var ids: [String] = []
        while true {
            let page = try connection.wait("listing the collections under \(parent.segments.isEmpty ? "the root" : parent.description)") { [request] client, options in
                try await client.listCollectionIds(request, options: options)
            }
            ids += page.collectionIds
            guard !page.nextPageToken.isEmpty else { break }
            request.pageToken = page.nextPageToken
        }
        return ids.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    // MARK: Listening

    /// Each listened query is a target of its own: the server sends only its documents.
    func watches(_ query: QueryDefinition) -> Bool { true }

    func follow(_ key: Firestore.WatchKey, store: Firestore,
                receive: @escaping @Sendable (Result<PushedChanges, Error>) -> Void) -> @Sendable () -> Void {
        listen.follow(key, store: store, receive: receive)
    }

    func close() {
        listen.close()
        connection.close()
    }
}
