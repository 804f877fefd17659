import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation
import GRPCCore

/// The `Listen` streams: for each client stream, its targets, each followed by a listener of
/// the store, so that a change from anywhere (this server, the Shelf app, another program on
/// the files, another server on the same PostgreSQL) reaches every stream whose target it
/// matches. A stream's messages wait in a bounded queue, a snapshot's messages together: a
/// client that reads slower than changes arrive has its stream closed with `RESOURCE_EXHAUSTED`
/// (its listeners removed), and listens again. A target's first documents, however many, are
/// one entry: counted a message each, a collection past the limit overflowed at every listen.
final class ListenStreams: Sendable {
    /// Snapshots (and other events) a stream may have waiting for a slow client.
    static let queueLimit = 10_000
    /// Changes converted once for every stream that carries them.
    let shared = SharedWireDocuments()
    /// Where a target refused or failed is told: the stream itself goes on.
    let log: ServerLog

    init(log: ServerLog) { self.log = log }

    func serve(_ requests: RPCAsyncSequence<Google_Firestore_V1_ListenRequest, any Error>,
               response: RPCWriter<Google_Firestore_V1_ListenResponse>, databases: ServedDatabases) async throws {
        let (outgoing, continuation) = AsyncStream<[Google_Firestore_V1_ListenResponse]>.makeStream(bufferingPolicy: .bufferingOldest(Self.queueLimit))
        let stream = ListenStream(databases: databases, shared: shared, log: log, continuation: continuation)
        defer { stream.close() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await messages in outgoing {
                    for message in messages { try await response.write(message) }
                }
                if stream.overflowed {
                    throw RPCError(code: .resourceExhausted, message: "the client read changes slower than they came (more than \(Self.queueLimit) snapshots waiting); listen again with the last resume token")
                }
            }
            group.addTask {
                do {
                    for try await request in requests { stream.handle(request) }
                } catch {
                    // The client went away: its listeners go with it.
                }
                stream.close()
            }
            try await group.waitForAll()
        }
    }
}

/// One client's `Listen` stream.
final class ListenStream: Sendable {
    private let databases: ServedDatabases
    private let shared: SharedWireDocuments
    private let log: ServerLog
    private let continuation: AsyncStream<[Google_Firestore_V1_ListenResponse]>.Continuation

    private struct Target {
        var registrations: [ListenerRegistration] = []
        var isCurrent = false
        /// Documents of a documents target not yet read once.
        var pendingDocuments = 0
        var resetSent = false
        /// A query with an offset: the part of the store's results the client sees, and the
        /// paths of those it was last sent.
        var window: ListenWindow?
        var shown: Set<String> = []
    }

    private struct State {
        var targets: [Int32: Target] = [:]
        var nextTargetID: Int32 = 1 << 20
        var overflowed = false
        var closed = false
    }

    private let state = Locked(State())
    /// Listener callbacks of one stream run one at a time, in order.
    private let queue = DispatchQueue(label: "shelf.serve.listen")

    init(databases: ServedDatabases, shared: SharedWireDocuments, log: ServerLog,
         continuation: AsyncStream<[Google_Firestore_V1_ListenResponse]>.Continuation) {
        self.databases = databases
        self.shared = shared
        self.log = log
        self.continuation = continuation
    }

    var overflowed: Bool { state.withLock { $0.overflowed } }

    /// Removes every listener and ends the stream's messages.
    func close() {
        let registrations = state.withLock { state -> [ListenerRegistration] in
            state.closed = true
            defer { state.targets = [:] }
            return state.targets.values.flatMap(\.registrations)
        }
        for registration in registrations { registration.remove() }
        continuation.finish()
    }

    private func send(_ message: Google_Firestore_V1_ListenResponse) { send([message]) }

    /// Queues `messages` as one entry: a snapshot's changes go out together.
    private func send(_ messages: [Google_Firestore_V1_ListenResponse]) {
        guard !messages.isEmpty else { return }
        if case .dropped = continuation.yield(messages) {
            state.withLock { $0.overflowed = true }
            close()
        }
    }

    private func send(_ type: Google_Firestore_V1_TargetChange.TargetChangeType, _ targets: [Int32],
                      readTime: Timestamp? = nil, cause: WireError? = nil, database: String = "") {
        var change = Google_Firestore_V1_TargetChange()
        change.targetChangeType = type
        change.targetIds = targets
        if let readTime {
            change.readTime = WireValues.wire(readTime)
            change.resumeToken = ResumeToken.make(readTime)
        }
        if let cause {
            change.cause = cause.status
            log.call("Listen", resource: "\(database) target \(targets.map(String.init).joined(separator: ","))", took: nil, error: cause.rpcError)
        }
        var message = Google_Firestore_V1_ListenResponse()
        message.targetChange = change
        send(message)
    }

    func handle(_ request: Google_Firestore_V1_ListenRequest) {
        switch request.targetChange {
        case nil:
            break
        case .removeTarget(let id):
            let target = state.withLock { $0.targets.removeValue(forKey: id) }
            target?.registrations.forEach { $0.remove() }
            send(.remove, [id])
        case .addTarget(let wire):
            let id = state.withLock { state -> Int32 in
                if wire.targetID != 0 { return wire.targetID }
                state.nextTargetID += 1
                return state.nextTargetID
            }
            do {
                let database = try databases.database(request.database, field: "database")
                try add(wire, id: id, in: database)
            } catch {
                send(.remove, [id], cause: error as? WireError ?? WireError(code: .internalError, message: "\(error)"), database: request.database)
            }
        }
    }

    private func add(_ wire: Google_Firestore_V1_Target, id: Int32, in database: ServedDatabase) throws {
        let isNew = state.withLock { state -> Bool in
            guard !state.closed, state.targets[id] == nil else { return false }
            state.targets[id] = Target()
            return true
        }
        guard isNew else { throw WireError(code: .alreadyExists, message: "target_id \(id) is already listened to on this stream") }
        send(.add, [id])
        let resumed = !(wire.resumeToken.isEmpty) || { if case .readTime? = wire.resumeType { return true } else { return false } }()
        var registrations: [ListenerRegistration] = []
        switch wire.targetType {
        case nil:
            throw WireError.invalidArgument("add_target: a target is a query or documents")
        case .query(let target):
            guard case .structuredQuery(let structured)? = target.queryType else {
                throw WireError.invalidArgument("add_target.query.structured_query: a query is needed")
            }
            let query = try WireQuery(structured, parent: target.parent, in: database)
            guard query.under == nil else {
                throw WireError.unimplemented("add_target.query: listening to a collection group under a document is not supported by Shelf yet")
            }
            let (listened, window) = try query.listened()
            state.withLock { $0.targets[id]?.window = window }
            registrations.append(listened.addSnapshotListener { [weak self] snapshot, error in
                guard let self else { return }
                self.queue.async { self.queryChanged(id, snapshot, error, query: listened, resumed: resumed, database: database) }
            })
        case .documents(let target):
            let paths = try target.documents.enumerated().map { index, name throws(WireError) in
                try database.documentPath(name, field: "add_target.documents.documents[\(index)]")
            }
            state.withLock { $0.targets[id]?.pendingDocuments = paths.count }
            if paths.isEmpty { queue.async { self.documentChanged(id, nil, nil, resumed: resumed, database: database) } }
            for path in paths {
                registrations.append(database.store.document(path).addSnapshotListener { [weak self] snapshot, error in
                    guard let self else { return }
                    self.queue.async { self.documentChanged(id, snapshot, error, resumed: resumed, database: database) }
                })
            }
        }
        let kept = state.withLock { state -> Bool in
            guard state.targets[id] != nil else { return false }
            state.targets[id]!.registrations = registrations
            return true
        }
        if !kept { registrations.forEach { $0.remove() } }
    }

    private func failed(_ id: Int32, _ error: Error, database: ServedDatabase) {
        let target = state.withLock { $0.targets.removeValue(forKey: id) }
        target?.registrations.forEach { $0.remove() }
        send(.remove, [id], cause: WireError(error, database: database), database: database.name)
    }

    private func queryChanged(_ id: Int32, _ snapshot: QuerySnapshot?, _ error: Error?, query: Query, resumed: Bool, database: ServedDatabase) {
        guard let snapshot else { return failed(id, error ?? WireError(code: .internalError, message: "the listener stopped"), database: database) }
        do {
            guard let wasCurrent = state.withLock({ $0.targets[id]?.isCurrent }) else { return }
            if !wasCurrent && resumed { send(.reset, [id]) }
            let (changed, removed) = changes(of: id, snapshot, wasCurrent: wasCurrent)
            // A target's first documents are its own; its changes are every listener's.
            let documents = wasCurrent ? try shared.documents(changed, in: database, query: query)
                : try database.wireDocuments(changed, query: query)
            var messages = documents.compactMap { $0.map { Self.change($0, target: id) } }
            for path in removed {
                var remove = Google_Firestore_V1_DocumentRemove()
                remove.document = database.name(of: path)
                remove.removedTargetIds = [id]
                var message = Google_Firestore_V1_ListenResponse()
                message.documentRemove = remove
                messages.append(message)
            }
            send(messages)
            markConsistent(id, wasCurrent: wasCurrent)
        } catch {
            failed(id, error, database: database)
        }
    }

    /// The documents a query target's client is sent for `snapshot` (all at first, then those
    /// added or changed) and the paths of those it drops. With an offset the snapshot holds
    /// the skipped documents too: the window's entries and exits are worked out here.
    private func changes(of id: Int32, _ snapshot: QuerySnapshot, wasCurrent: Bool) -> (changed: [DocumentSnapshot], removed: [String]) {
        guard let window = state.withLock({ $0.targets[id]?.window }) else {
            guard wasCurrent else { return (snapshot.documents, []) }
            return (snapshot.documentChanges.filter { $0.type != .removed }.map(\.document),
                    snapshot.documentChanges.filter { $0.type == .removed }.map(\.document.reference.path))
        }
        let visible = window.apply(snapshot.documents)
        let paths = Set(visible.map(\.reference.path))
        let before = state.withLock { state -> Set<String> in
            defer { state.targets[id]?.shown = paths }
            return state.targets[id]?.shown ?? []
        }
        guard wasCurrent else { return (Array(visible), []) }
        let modified = Set(snapshot.documentChanges.filter { $0.type == .modified }.map(\.document.reference.path))
        let changed = visible.filter { !before.contains($0.reference.path) || modified.contains($0.reference.path) }
        return (changed, before.subtracting(paths).sorted())
    }

    private static func change(_ document: Google_Firestore_V1_Document, target id: Int32) -> Google_Firestore_V1_ListenResponse {
        var change = Google_Firestore_V1_DocumentChange()
        change.document = document
        change.targetIds = [id]
        var message = Google_Firestore_V1_ListenResponse()
        message.documentChange = change
        return message
    }

    /// A document of a documents target: a change or a delete; the target is current once
    /// each of its documents was read once.
    private func documentChanged(_ id: Int32, _ snapshot: DocumentSnapshot?, _ error: Error?, resumed: Bool, database: ServedDatabase) {
        if let error { return failed(id, error, database: database) }
        do {
            let (wasCurrent, sendReset) = state.withLock { state -> (Bool?, Bool) in
                guard let target = state.targets[id] else { return (nil, false) }
                let reset = resumed && !target.isCurrent && !target.resetSent
                if reset { state.targets[id]!.resetSent = true }
                return (target.isCurrent, reset)
            }
            guard let wasCurrent else { return }
            if sendReset { send(.reset, [id]) }
            if let snapshot {
                if let document = try shared.documents([snapshot], in: database).first!, snapshot.exists {
                    send(Self.change(document, target: id))
                } else if wasCurrent {
                    var delete = Google_Firestore_V1_DocumentDelete()
                    delete.document = database.name(of: snapshot.reference.path)
                    delete.removedTargetIds = [id]
                    delete.readTime = WireValues.wire(Timestamp())
                    var message = Google_Firestore_V1_ListenResponse()
                    message.documentDelete = delete
                    send(message)
                }
            }
            let ready = state.withLock { state -> Bool in
                guard state.targets[id] != nil else { return false }
                if state.targets[id]!.isCurrent { return true }
                state.targets[id]!.pendingDocuments -= 1
                return state.targets[id]!.pendingDocuments <= 0
            }
            if ready { markConsistent(id, wasCurrent: wasCurrent) }
        } catch {
            failed(id, error, database: database)
        }
    }

    /// CURRENT for a target's first consistent state, then a NO_CHANGE for every target with
    /// the time it holds at: the point where a client shows a snapshot.
    private func markConsistent(_ id: Int32, wasCurrent: Bool) {
        if !wasCurrent {
            state.withLock { $0.targets[id]?.isCurrent = true }
            send(.current, [id])
        }
        send(.noChange, [], readTime: Timestamp())
    }
}

/// Resume tokens are the read time they were given at; a stream resumed with one starts with
/// RESET and sends the target's whole state again, so nothing missed in between is lost.
enum ResumeToken {
    static func make(_ time: Timestamp) -> Data {
        var data = Data()
        withUnsafeBytes(of: time.seconds.bigEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: time.nanoseconds.bigEndian) { data.append(contentsOf: $0) }
        return data
    }
}
