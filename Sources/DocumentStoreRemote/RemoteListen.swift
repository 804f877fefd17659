import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation
import GRPCCore

/// One `Listen` stream per store, multiplexing the watched keys as targets: a key followed is
/// a target added (a listened query, a whole collection or group, or a document), a key let go
/// a target removed. The documents the server sends for a target are gathered and handed on at
/// its consistent points only (`TargetChange` CURRENT for a target, then NO_CHANGE with a read
/// time for all), as Firebase's SDK raises snapshots; RESET starts a target's documents over.
/// A dropped stream is opened again after a short, growing wait, each target resuming from
/// the last resume token the server gave it; while the server cannot be reached, each
/// follower is told so (and told of the documents again once it is back).
final class RemoteListen: Sendable {
    private let connection: RemoteConnection

    /// One followed key.
    private struct Target {
        let key: Firestore.WatchKey
        let wire: Google_Firestore_V1_Target
        let documents: RemoteDocuments
        let receive: @Sendable (Result<PushedChanges, Error>) -> Void
        var resumeToken = Data()
        /// The server said CURRENT since the target was (re)added or reset.
        var isCurrent = false
        /// The next consistent point hands on everything the target holds.
        var sendsEverything = true
        /// Documents changed since the last consistent point (`.missing`: removed).
        var changes: [ResourcePath: StoredDocument] = [:]
        /// The paths the target holds, for the server's existence filter.
        var paths: Set<ResourcePath> = []
    }

    private struct State {
        var targets: [Int32: Target] = [:]
        var nextTargetID: Int32 = 2
        /// Where requests to the open stream go; nil between streams.
        var outgoing: AsyncStream<Google_Firestore_V1_ListenRequest>.Continuation?
        var isRunning = false
        var isClosed = false
    }

    private let state = Locked(State())

    init(connection: RemoteConnection) {
        self.connection = connection
    }

    private var address: RemoteAddress { connection.address }

    // MARK: Followers

    func follow(_ key: Firestore.WatchKey, store: Firestore,
                receive: @escaping @Sendable (Result<PushedChanges, Error>) -> Void) -> @Sendable () -> Void {
        let documents = RemoteDocuments(address: address, store: store)
        let wire: Google_Firestore_V1_Target
        do { wire = try Self.target(for: key, documents: documents) } catch {
            receive(.failure(error))
            return {}
        }
        let (id, startStream) = state.withLock { state -> (Int32, Bool) in
            let id = state.nextTargetID
            state.nextTargetID += 2
            state.targets[id] = Target(key: key, wire: wire, documents: documents, receive: receive)
            state.outgoing?.yield(Self.add(wire, id: id, resumeToken: Data(), database: address.databaseName))
            let start = !state.isRunning && !state.isClosed
            if start { state.isRunning = true }
            return (id, start)
        }
        if startStream { BlockingBridge.start { await self.run() } }
        return { [weak self] in self?.unfollow(id) }
    }

    private func unfollow(_ id: Int32) {
        state.withLock { state in
            guard state.targets.removeValue(forKey: id) != nil else { return }
            var request = Google_Firestore_V1_ListenRequest()
            request.database = address.databaseName
            request.removeTarget = id
            state.outgoing?.yield(request)
            if state.targets.isEmpty { state.outgoing?.finish() }
        }
    }

    func close() {
        state.withLock { state in
            state.isClosed = true
            state.targets = [:]
            state.outgoing?.finish()
        }
    }

    private static func target(for key: Firestore.WatchKey, documents: RemoteDocuments) throws(FirestoreErrorCode) -> Google_Firestore_V1_Target {
        var target = Google_Firestore_V1_Target()
        switch key {
        case .document(let path):
            target.documents.documents = [documents.name(of: path)]
        case .collection(let path):
            let remote = try RemoteQuery.encoded(QueryDefinition(source: .collection(path)), values: documents.values)
            target.query.parent = remote.parent
            target.query.structuredQuery = remote.query
        case .collectionGroup(let id):
            let remote = try RemoteQuery.encoded(QueryDefinition(source: .group(id)), values: documents.values)
            target.query.parent = remote.parent
            target.query.structuredQuery = remote.query
        case .query(let definition):
            let remote = try RemoteQuery.encoded(definition, values: documents.values)
            target.query.parent = remote.parent
            target.query.structuredQuery = remote.query
        }
        return target
    }

    private static func add(_ wire: Google_Firestore_V1_Target, id: Int32, resumeToken: Data, database: String) -> Google_Firestore_V1_ListenRequest {
        var target = wire
        target.targetID = id
        if !resumeToken.isEmpty { target.resumeToken = resumeToken }
        var request = Google_Firestore_V1_ListenRequest()
        request.database = database
        request.addTarget = target
        return request
    }

    // MARK: The stream

    /// How long to wait before listening again after the stream failed this many times in a row.
    static func retryDelay(afterFailures failures: Int) -> Duration {
        .milliseconds(min(100 << min(failures, 6), 5_000))
    }

    /// Opens the stream, again and again while any key is followed.
    private func run() async {
        var failures = 0
        while true {
            let (requests, outgoing) = AsyncStream<Google_Firestore_V1_ListenRequest>.makeStream()
            let keepGoing = state.withLock { state -> Bool in
                guard !state.targets.isEmpty, !state.isClosed else {
                    state.isRunning = false
                    state.outgoing = nil
                    return false
                }
                state.outgoing = outgoing
                for (id, target) in state.targets.sorted(by: { $0.key < $1.key }) {
                    // Changes not yet consistent are sent again from the resume token.
                    state.targets[id]!.changes = [:]
                    state.targets[id]!.isCurrent = false
                    if target.resumeToken.isEmpty {
                        state.targets[id]!.sendsEverything = true
                        state.targets[id]!.paths = []
                    }
                    outgoing.yield(Self.add(target.wire, id: id, resumeToken: target.resumeToken, database: address.databaseName))
                }
                return true
            }
            guard keepGoing else { return }
            let options = RemoteConnection.options(nil)  // a stream stays open as long as keys are followed
            let heard = Locked(false)
            var failure: Error?
            do {
                try await connection.client.listen(options: options, requestProducer: { writer in
                    for await request in requests { try await writer.write(request) }
                }, onResponse: { response in
                    for try await message in response.messages {
                        heard.withLock { $0 = true }
                        self.handle(message)
                    }
                })
            } catch {
                failure = error
            }
            outgoing.finish()
            state.withLock { $0.outgoing = nil }
            let wasHeard = heard.withLock { $0 }
            failures = wasHeard ? 1 : failures + 1
            if failures >= 2 || !wasHeard {
                let error = failure.map { RemoteError.publicError($0, server: address.server, call: "listening") }
                    ?? FirestoreErrorCode(.unavailable, "the Firestore server at \(address.server) closed the listen stream")
                tellAll(.failure(error))
            }
            try? await Task.sleep(for: Self.retryDelay(afterFailures: failures))
        }
    }

    private func tellAll(_ result: Result<PushedChanges, Error>) {
        let receivers = state.withLock { $0.targets.values.map(\.receive) }
        for receive in receivers { receive(result) }
    }

    // MARK: Messages

    private func handle(_ message: Google_Firestore_V1_ListenResponse) {
        var deliveries: [(@Sendable (Result<PushedChanges, Error>) -> Void, Result<PushedChanges, Error>)] = []
        var refused: [Int32] = []
        state.withLock { state in
            switch message.responseType {
            case nil:
                break
            case .documentChange(let change):
                for id in change.targetIds where state.targets[id] != nil {
                    guard let target = state.targets[id] else { continue }
                    do {
                        let path = try target.documents.path(change.document.name)
                        state.targets[id]!.changes[path] = try target.documents.stored(change.document)
                        state.targets[id]!.paths.insert(path)
                    } catch {
                        deliveries.append((target.receive, .failure(error)))
                    }
                }
                remove(change.document.name, from: change.removedTargetIds, in: &state)
            case .documentDelete(let delete):
                remove(delete.document, from: delete.removedTargetIds, in: &state)
            case .documentRemove(let remove):
                self.remove(remove.document, from: remove.removedTargetIds, in: &state)
            case .filter(let filter):
                // The server holds another number of documents than we do: start the target over.
                if let target = state.targets[filter.targetID], target.paths.count != Int(filter.count) {
                    refused.append(filter.targetID)
                }
            case .targetChange(let change):
                deliveries += targetChanged(change, in: &state)
            }
        }
        for id in refused { restart(id) }
        for (receive, result) in deliveries { receive(result) }
    }

    private func remove(_ name: String, from ids: [Int32], in state: inout State) {
        for id in ids {
            guard let target = state.targets[id], let path = try? target.documents.path(name) else { continue }
            state.targets[id]!.changes[path] = .missing
            state.targets[id]!.paths.remove(path)
        }
    }

    private func targetChanged(_ change: Google_Firestore_V1_TargetChange, in state: inout State)
        -> [(@Sendable (Result<PushedChanges, Error>) -> Void, Result<PushedChanges, Error>)] {
        let ids = change.targetIds
        switch change.targetChangeType {
        case .noChange:
            if !change.resumeToken.isEmpty {
                for id in ids.isEmpty ? Array(state.targets.keys) : ids where state.targets[id] != nil {
                    state.targets[id]!.resumeToken = change.resumeToken
                }
            }
            return ids.isEmpty && change.hasReadTime
                ? consistentPoint(at: Timestamp(seconds: change.readTime.seconds, nanoseconds: change.readTime.nanos), &state) : []
        case .add:
            return []
        case .current:
            for id in ids where state.targets[id] != nil {
                state.targets[id]!.isCurrent = true
                if !change.resumeToken.isEmpty { state.targets[id]!.resumeToken = change.resumeToken }
            }
            return []
        case .reset:
            for id in ids where state.targets[id] != nil {
                state.targets[id]!.changes = [:]
                state.targets[id]!.paths = []
                state.targets[id]!.isCurrent = false
                state.targets[id]!.sendsEverything = true
            }
            return []
        case .remove:
            guard change.hasCause else { return [] }
            let error = WireError.firestoreError(change.cause)
            return ids.compactMap { id in state.targets.removeValue(forKey: id).map { ($0.receive, .failure(error)) } }
        case .UNRECOGNIZED:
            return []
        }
    }

    /// Every current target hands on what changed (everything, the first time and after a reset).
    private func consistentPoint(at readTime: Timestamp, _ state: inout State) -> [(@Sendable (Result<PushedChanges, Error>) -> Void, Result<PushedChanges, Error>)] {
        var deliveries: [(@Sendable (Result<PushedChanges, Error>) -> Void, Result<PushedChanges, Error>)] = []
        for (id, target) in state.targets where target.isCurrent && (target.sendsEverything || !target.changes.isEmpty) {
            var documents: [(path: ResourcePath, stored: StoredDocument)] = []
            if target.sendsEverything {
                for path in target.paths { documents.append((path, target.changes[path] ?? .missing)) }
                documents.removeAll { $0.stored == .missing }
            } else {
                documents = target.changes.map { ($0.key, $0.value) }
            }
            deliveries.append((target.receive, .success(PushedChanges(isEverything: target.sendsEverything, documents: documents, readTime: readTime))))
            state.targets[id]!.changes = [:]
            state.targets[id]!.sendsEverything = false
        }
        return deliveries
    }

    /// Listens to a target again from nothing: removed, then added without a resume token.
    private func restart(_ id: Int32) {
        state.withLock { state in
            guard let target = state.targets[id] else { return }
            state.targets[id]!.resumeToken = Data()
            state.targets[id]!.changes = [:]
            state.targets[id]!.paths = []
            state.targets[id]!.isCurrent = false
            state.targets[id]!.sendsEverything = true
            var remove = Google_Firestore_V1_ListenRequest()
            remove.database = address.databaseName
            remove.removeTarget = id
            state.outgoing?.yield(remove)
            state.outgoing?.yield(Self.add(target.wire, id: id, resumeToken: Data(), database: address.databaseName))
        }
    }
}
