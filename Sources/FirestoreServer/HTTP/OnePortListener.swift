import Glibc
import GRPCNIOTransportHTTP2
import NIOCore
import NIOHTTP1
import NIOPosix

/// The one port of `shelf serve`, as Google's emulator has one: each connection's first bytes
/// tell HTTP/2 (gRPC, whose connections begin with HTTP/2's preface) from HTTP/1.1 (REST and
/// the emulator's own endpoints, `curl`, browsers). An HTTP/2 connection gets gRPC's own
/// pipeline and goes to the gRPC server as if its transport had accepted it; an HTTP/1.1 one
/// gets NIO's HTTP/1 server pipeline and `http1`'s handlers.
///
/// The gRPC transport reads its connections from an async channel; the listening socket's own
/// pipeline cannot be that channel (every accepted connection must pass through it untyped to
/// be registered), so the HTTP/2 connections travel on a channel of their own, over a pipe that
/// carries no bytes, closed with the listening socket.
struct OnePortListener: HTTP2ServerTransport.ListenerFactory {
    let eventLoopGroup: any EventLoopGroup
    /// The socket bound before the store was opened (`ListeningSocket`).
    let descriptor: CInt
    /// Adds the handlers that answer an HTTP/1.1 connection, after NIO's HTTP/1 ones.
    let http1: @Sendable (any Channel) throws -> Void
    /// Called once connections are taken.
    let listening: @Sendable () -> Void

    typealias Connection = HTTP2ServerTransport.ConnectionConfigurator.ConnectionChannel

    func makeListeningChannel(listenerConfigurator: HTTP2ServerTransport.ListenerConfigurator,
                              connectionConfigurator: HTTP2ServerTransport.ConnectionConfigurator) async throws -> NIOAsyncChannel<Connection, Never> {
        let (carrier, connections, handover) = try await Self.carrier(on: eventLoopGroup)
        let http1 = http1
        let server: any Channel
        do {
            server = try await ServerBootstrap(group: eventLoopGroup)
                .serverChannelInitializer { channel in listenerConfigurator.configure(channel: channel) }
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(FirstBytesSniffer { channel, isHTTP2 in
                            if isHTTP2 {
                                return connectionConfigurator.configure(channel: channel, tls: .none).map { handover.deliver($0) }
                            }
                            return channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                                try http1(channel)
                            }
                        })
                    }
                }
                .withBoundSocket(descriptor)
                .get()
        } catch {
            try? await carrier.close()
            throw error
        }
        // One closes with the other: the transport's shutdown closes the listening socket
        // (its quiescing handler), which ends the connections' sequence.
        server.closeFuture.whenComplete { _ in carrier.close(promise: nil) }
        carrier.closeFuture.whenComplete { _ in server.close(promise: nil) }
        listening()
        return connections
    }

    /// The channel the HTTP/2 connections travel on to the gRPC transport.
    private static func carrier(on group: any EventLoopGroup) async throws -> (any Channel, NIOAsyncChannel<Connection, Never>, HTTP2Handover) {
        var ends: [CInt] = [0, 0]
        guard pipe(&ends) == 0 else { throw IOError(errnoCode: errno, reason: "pipe") }
        let carrier: any Channel
        do {
            carrier = try await NIOPipeBootstrap(group: group).takingOwnershipOfDescriptors(input: ends[0], output: ends[1]).get()
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
        let handover = HTTP2Handover()
        let connections = try await carrier.eventLoop.submit {
            try carrier.pipeline.syncOperations.addHandler(handover)
            return try NIOAsyncChannel<Connection, Never>(wrappingChannelSynchronously: carrier)
        }.get()
        return (carrier, connections, handover)
    }
}

/// Puts the HTTP/2 connections the sniffers found on the carrier channel, on its event loop.
private final class HTTP2Handover: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = Never
    typealias InboundOut = OnePortListener.Connection
    /// Set once added, before any connection is accepted.
    private var context: NIOLoopBound<ChannelHandlerContext>?

    func handlerAdded(context: ChannelHandlerContext) { self.context = NIOLoopBound(context, eventLoop: context.eventLoop) }

    /// The pipe carries no bytes; nothing read is passed on.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func deliver(_ connection: OnePortListener.Connection) {
        guard let context else { return }
        context.eventLoop.execute {
            // The async channel hands what it read on at the end of a read.
            context.value.fireChannelRead(self.wrapInboundOut(connection))
            context.value.fireChannelReadComplete()
        }
    }
}

/// Waits for a connection's first bytes, decides which protocol it speaks, sets the pipeline
/// up for it, and hands the bytes on to it.
private final class FirstBytesSniffer: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    /// HTTP/2's connection preface (RFC 9113, 3.4): every HTTP/2 client's first bytes.
    private static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    private let configure: (any Channel, _ isHTTP2: Bool) -> EventLoopFuture<Void>
    private var buffered: ByteBuffer?
    private var isDeciding = false

    init(configure: @escaping (any Channel, _ isHTTP2: Bool) -> EventLoopFuture<Void>) {
        self.configure = configure
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if buffered == nil { buffered = bytes } else { buffered!.writeBuffer(&bytes) }
        guard !isDeciding, let seen = buffered else { return }
        let compared = min(seen.readableBytes, Self.preface.count)
        let isHTTP2 = seen.readableBytesView.prefix(compared).elementsEqual(Self.preface.prefix(compared))
        // Any other first byte is HTTP/1.1's; the preface's first bytes need the rest to tell.
        guard !isHTTP2 || compared == Self.preface.count else { return }
        isDeciding = true
        configure(context.channel, isHTTP2).assumeIsolated().whenComplete { result in
            switch result {
            case .success:
                if let bytes = self.buffered { context.fireChannelRead(self.wrapInboundOut(bytes)) }
                self.buffered = nil
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            case .failure(let error):
                context.fireErrorCaught(error)
                context.close(promise: nil)
            }
        }
    }
}
