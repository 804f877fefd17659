// FirestoreServer: `shelf serve`, Firestore's own protocol (google.firestore.v1) on a store, so
// every client library uses Shelf as it uses Google's emulator. Each request becomes calls of
// the store's Swift API; the server keeps no storage of its own.

import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import NIOPosix

/// `shelf serve`: Firestore's service on a store, on one port as Google's emulator serves it:
/// gRPC over plaintext HTTP/2, and HTTP/1.1 for REST and the emulator's endpoints
/// (`OnePortListener`), so a client set up for the emulator (`FIRESTORE_EMULATOR_HOST=host:port`)
/// works against it unchanged.
public final class ShelfServer: Sendable {
    private let service: FirestoreService
    private let transport: HTTP2ServerTransport.Custom<OnePortListener>
    private let server: GRPCServer<HTTP2ServerTransport.Custom<OnePortListener>>
    /// Yields once connections are taken.
    private let bound: AsyncStream<Void>
    /// Where clients reach it, as `FIRESTORE_EMULATOR_HOST` takes it.
    public let address: String
    /// Streams one client connection may have open at once.
    static let maxConcurrentStreams = 10_000
    /// The largest request read whole, to be refused with Firestore's message when past 10 MiB.
    static let maxReadRequestBytes = 64 << 20

    /// `store` serves `(default)` of `project` (nil: the project it was first served for,
    /// recorded with it; see `claim(_:for:)`); `location` is where it is (a folder, or a
    /// PostgreSQL URL with its password), for the named databases and other projects beside
    /// it, which `settings` open. The server takes `socket` over (`ListeningSocket.bind`, made
    /// before the store). `lockWait`: how long a transaction waits for another's lock before
    /// it is aborted.
    public init(store: Firestore, at location: URL, project: String? = nil, settings: FirestoreSettings, socket: ListeningSocket,
                lockWait: Duration = .seconds(5), log: ServerLog = ServerLog()) {
        let databases = ServedDatabases(store, at: location, owner: project, settings: settings)
        service = FirestoreService(databases: databases, lockWait: lockWait, log: log)
        address = socket.address
        let routes = RESTRoutes(service: service)
        let (bound, isBound) = AsyncStream.makeStream(of: Void.self)
        self.bound = bound
        let listener = OnePortListener(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, descriptor: socket.descriptor, http1: { channel in
            try channel.pipeline.syncOperations.addHandler(HTTPExchange(answer: routes.answer))
        }, listening: {
            isBound.yield()
            isBound.finish()
        })
        var config = HTTP2ServerTransport.Custom<OnePortListener>.Config.defaults
        // Past Firestore's own limit on a request (10 MiB), which the service answers as
        // Firestore does (`FirestoreService.checkRequestSize`); the transport resets the stream
        // of a request past this, without a status.
        config.rpc.maxRequestPayloadSize = Self.maxReadRequestBytes
        // Each listener of a client is a stream of its own (Python's on_snapshot opens one per
        // call): room for many, where HTTP/2's usual 100 would be a wall.
        config.http2.maxConcurrentStreams = Self.maxConcurrentStreams
        transport = HTTP2ServerTransport.Custom(listenerFactory: listener, config: config)
        server = GRPCServer(transport: transport, services: [service], interceptors: [CallLogInterceptor(log: log)])
    }

    /// Binds `host` and `port` (0: any free port), then as above.
    public convenience init(store: Firestore, at location: URL, project: String? = nil, settings: FirestoreSettings, host: String, port: Int,
                            lockWait: Duration = .seconds(5), log: ServerLog = ServerLog()) throws {
        self.init(store: store, at: location, project: project, settings: settings, socket: try ListeningSocket.bind(host: host, port: port),
                  lockWait: lockWait, log: log)
    }

    /// Records the store at `location` as `project`'s data unless it is recorded as another
    /// project's, and fails naming that project then, before a server is started on it.
    public static func claim(_ location: URL, for project: String) throws {
        try ServedDatabases.claimOwner(of: location, for: project)
    }

    /// Serves until `stop()`; `listening` gets `address` once connections are taken.
    public func run(listening: @escaping @Sendable (String) -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in self.bound { listening(self.address) } }
            // Serving ends (or fails to start): the wait for the port ends with it.
            defer { group.cancelAll() }
            try await server.serve()
        }
    }

    /// Stops taking connections and lets the running calls finish; Listen and Write streams,
    /// which would run as long as their clients stay, are ended with `UNAVAILABLE`.
    public func stop() {
        service.shutdown.begin()
        server.beginGracefulShutdown()
    }

    /// How many times `Listen` streams converted changed documents (each read their times).
    package var listenConversions: Int { service.listens.shared.conversions }
}
