import DocumentStore
import FirestoreProtocol
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2

typealias FirestoreClient = Google_Firestore_V1_Firestore.Client<HTTP2ClientTransport.Posix>

/// One HTTP/2 connection to a Firestore server (plaintext, as the emulator and `shelf serve`
/// speak), and the store's synchronous calls made over it: each waits for its whole answer at
/// most its `Deadline`, and fails at once, naming the server, when it cannot be reached.
final class RemoteConnection: Sendable {
    let address: RemoteAddress
    let client: FirestoreClient
    private let grpc: GRPCClient<HTTP2ClientTransport.Posix>

    /// How long one call waits for the server's whole answer: a document, a commit or a page
    /// of a list is quick; a query or an aggregation may have a whole collection to go through.
    enum Deadline: Int {
        case call = 10
        case query = 120

        var seconds: Int { rawValue }
    }

    init(_ address: RemoteAddress) throws {
        self.address = address
        let transport: HTTP2ClientTransport.Posix
        do {
            transport = try HTTP2ClientTransport.Posix(
                target: .dns(host: address.host, port: address.port), transportSecurity: .plaintext,
                config: .defaults { config in
                    config.backoff.initial = .milliseconds(100)
                    config.backoff.max = .seconds(2)
                    // A listen stream has no deadline: without pings, a server whose machine
                    // vanished (no reset ever comes) would leave it waiting for good. Every 5
                    // minutes, while calls are open, is as often as servers allow by default
                    // (grpc-java's, so Google's emulator, sends GOAWAY to clients pinging more).
                    config.connection.keepalive = .init(time: .seconds(300), timeout: .seconds(20), allowWithoutCalls: false)
                })
        } catch {
            throw FirestoreErrorCode(.invalidArgument, "cannot connect to the Firestore server at \(address.server): \(error)")
        }
        grpc = GRPCClient(transport: transport)
        client = FirestoreClient(wrapping: grpc)
        BlockingBridge.start { [grpc] in try? await grpc.runConnections() }
    }

    /// Each call fails rather than waiting for a connection, and waits at most `deadline`
    /// (nil: as long as it is open, as a listen stream).
    static func options(_ deadline: Deadline?) -> CallOptions {
        var options = CallOptions.defaults
        options.timeout = deadline.map { .seconds($0.seconds) }
        options.waitForReady = false
        return options
    }

    /// Runs one call and waits for it; `call` names it in messages ("reading books/dune").
    func wait<T: Sendable>(_ call: String, deadline: Deadline = .call,
                           _ body: @escaping @Sendable (FirestoreClient, CallOptions) async throws -> T) throws -> T {
        let client = client, options = Self.options(deadline)
        do {
            return try BlockingBridge.call { try await body(client, options) }
        } catch {
            throw RemoteError.publicError(error, server: address.server, call: call, deadline: deadline)
        }
    }

    func close() { grpc.beginGracefulShutdown() }
}
