import DocumentStore
import DocumentStorePostgres
import FirestoreProtocol
import FirestoreServer
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import XCTest

/// Where a served store keeps its documents in a test.
enum Backend: String, CaseIterable, Sendable {
    case folder, postgres
}

typealias FirestoreClient = Google_Firestore_V1_Firestore.Client<HTTP2ClientTransport.Posix>

/// A `shelf serve` on a fresh, empty store of one backend, on a free port of 127.0.0.1, and a
/// gRPC client of it made from the generated stubs: the server as any client meets it.
struct ServedStore: Sendable {
    let backend: Backend
    let store: Firestore
    /// The store's folder, or its PostgreSQL URL with the password.
    let location: URL
    let client: FirestoreClient
    let server: ShelfServer
    /// `127.0.0.1:<port>`: where HTTP/1.1 clients reach the same server.
    let address: String
    static let database = "projects/test/databases/(default)"

    /// `books/dune` as requests name it.
    func name(_ path: String) -> String { Self.database + "/documents/" + path }

    /// Runs `body` against a served store of each backend in turn; the server and the client
    /// are stopped after, whatever `body` did.
    static func eachBackend(_ body: @Sendable (ServedStore) async throws -> Void) async throws {
        for backend in Backend.allCases {
            try await with(backend, body)
        }
    }

    /// `log` gets the server's log lines (by default none are written: the tests' own
    /// refusals would fill their output).
    static func with(_ backend: Backend, log: ServerLog = ServerLog { _ in }, _ body: @Sendable (ServedStore) async throws -> Void) async throws {
        let settings = FirestoreSettings()
        settings.dispatchQueue = DispatchQueue(label: "ServedStore.callbacks")
        let store: Firestore
        let location: URL
        var folder: URL?
        var database: String?
        switch backend {
        case .folder:
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("served-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder!, withIntermediateDirectories: true)
            location = folder!
            store = try Firestore(directory: location, settings: settings)
        case .postgres:
            Firestore.enablePostgreSQL()
            let cluster = try PostgresCluster.shared()
            database = try cluster.makeDatabase()
            location = cluster.url(database: database!)
            store = try Firestore(url: location, settings: settings)
        }
        defer {
            if let folder { try? FileManager.default.removeItem(at: folder) }
            if let database { try? PostgresCluster.shared().dropDatabase(database) }
        }
        // The emulator's wait for a transaction's lock: long beside any commit here, short for the tests that wait it out.
        let server = try ShelfServer(store: store, at: location, settings: settings, host: "127.0.0.1", port: 0, lockWait: .seconds(2), log: log)
        let (addresses, listening) = AsyncStream<String>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run { listening.yield($0); listening.finish() } }
            var iterator = addresses.makeAsyncIterator()
            guard let address = await iterator.next(), let port = Int(address.split(separator: ":").last ?? "") else {
                server.stop()
                throw ServerDidNotStart()
            }
            let transport = try HTTP2ClientTransport.Posix(target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext)
            do {
                try await withGRPCClient(transport: transport) { grpc in
                    try await body(ServedStore(backend: backend, store: store, location: location, client: FirestoreClient(wrapping: grpc), server: server, address: address))
                }
            } catch {
                server.stop()
                throw error
            }
            server.stop()
            try await group.waitForAll()
        }
    }
}

/// A served store's server stopped before it listened: the test fails.
struct ServerDidNotStart: Error, CustomStringConvertible {
    var description: String { "the server did not start" }
}

/// Building requests' values and documents briefly.
extension Google_Firestore_V1_Value {
    static func integer(_ i: Int64) -> Self { var v = Self(); v.integerValue = i; return v }
    static func double(_ d: Double) -> Self { var v = Self(); v.doubleValue = d; return v }
    static func string(_ s: String) -> Self { var v = Self(); v.stringValue = s; return v }
    static func bytes(_ b: Data) -> Self { var v = Self(); v.bytesValue = b; return v }
    static func boolean(_ b: Bool) -> Self { var v = Self(); v.booleanValue = b; return v }
    static var null: Self { var v = Self(); v.nullValue = .nullValue; return v }
    static func array(_ items: [Self]) -> Self { var v = Self(); v.arrayValue.values = items; return v }
    static func map(_ fields: [String: Self]) -> Self { var v = Self(); v.mapValue.fields = fields; return v }
    static func reference(_ name: String) -> Self { var v = Self(); v.referenceValue = name; return v }
}

extension ServedStore {
    func document(_ path: String, _ fields: [String: Google_Firestore_V1_Value]) -> Google_Firestore_V1_Document {
        var document = Google_Firestore_V1_Document()
        document.name = name(path)
        document.fields = fields
        return document
    }

    /// A write that sets the whole document.
    func set(_ path: String, _ fields: [String: Google_Firestore_V1_Value]) -> Google_Firestore_V1_Write {
        var write = Google_Firestore_V1_Write()
        write.update = document(path, fields)
        return write
    }

    @discardableResult
    func commit(_ writes: [Google_Firestore_V1_Write], transaction: Data? = nil) async throws -> Google_Firestore_V1_CommitResponse {
        var request = Google_Firestore_V1_CommitRequest()
        request.database = Self.database
        request.writes = writes
        if let transaction { request.transaction = transaction }
        return try await client.commit(request)
    }

    func get(_ path: String) async throws -> Google_Firestore_V1_Document {
        var request = Google_Firestore_V1_GetDocumentRequest()
        request.name = name(path)
        return try await client.getDocument(request)
    }

    /// The ids of a query's documents, in order.
    func run(_ query: Google_Firestore_V1_StructuredQuery, parent: String = "") async throws -> [String] {
        var request = Google_Firestore_V1_RunQueryRequest()
        request.parent = parent.isEmpty ? Self.database + "/documents" : name(parent)
        request.structuredQuery = query
        return try await client.runQuery(request) { response in
            var ids: [String] = []
            for try await message in response.messages where message.hasDocument {
                ids.append(String(message.document.name.split(separator: "/").last!))
            }
            return ids
        }
    }
}

/// The status an RPC failed with.
func status<T>(of call: () async throws -> T) async -> (RPCError.Code, String)? {
    do {
        _ = try await call()
        return nil
    } catch let error as RPCError {
        return (error.code, error.message)
    } catch {
        return (.unknown, "\(error)")
    }
}

extension Google_Firestore_V1_StructuredQuery {
    static func collection(_ id: String, allDescendants: Bool = false) -> Self {
        var query = Self()
        var from = CollectionSelector()
        from.collectionID = id
        from.allDescendants = allDescendants
        query.from = [from]
        return query
    }

    func filtered(_ field: String, _ op: FieldFilter.Operator, _ value: Google_Firestore_V1_Value) -> Self {
        var query = self
        query.where = .field(field, op, value)
        return query
    }

    func ordered(_ field: String, descending: Bool = false) -> Self {
        var query = self
        var order = Order()
        order.field.fieldPath = field
        order.direction = descending ? .descending : .ascending
        query.orderBy.append(order)
        return query
    }
}

extension Google_Firestore_V1_StructuredQuery.Filter {
    static func field(_ field: String, _ op: Google_Firestore_V1_StructuredQuery.FieldFilter.Operator, _ value: Google_Firestore_V1_Value) -> Self {
        var filter = Self()
        filter.fieldFilter.field.fieldPath = field
        filter.fieldFilter.op = op
        filter.fieldFilter.value = value
        return filter
    }

    static func composite(_ op: Google_Firestore_V1_StructuredQuery.CompositeFilter.Operator, _ filters: [Self]) -> Self {
        var filter = Self()
        filter.compositeFilter.op = op
        filter.compositeFilter.filters = filters
        return filter
    }
}

/// `XCTAssertEqual` for a value an `await` gives (XCTest's autoclosures cannot await).
func assertSame<T: Equatable>(_ actual: T, _ expected: T, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(actual, expected, message, file: file, line: line)
}
