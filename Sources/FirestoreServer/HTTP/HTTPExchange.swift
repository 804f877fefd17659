import DocumentStore
import Foundation
import GRPCCore
import NIOCore
import NIOHTTP1

/// One HTTP/1.1 request as the routes see it: read whole (up to `HTTPExchange.maxBody`).
struct HTTPRequest: Sendable {
    let method: HTTPMethod
    /// The path, percent-decoded segment by segment (`(default)`, `books/dune`).
    let segments: [String]
    let query: [(name: String, value: String)]
    let headers: HTTPHeaders
    let body: ByteBuffer

    func queryValues(_ name: String) -> [String] { query.filter { $0.name == name }.map(\.value) }
}

/// An answer: a status and a body (JSON unless `contentType` says otherwise).
struct HTTPAnswer: Sendable {
    var status: HTTPResponseStatus
    var body: String
    var contentType: String? = "application/json"

    /// Google's error body, as Firestore's REST API and the emulator give it.
    static func error(_ code: RPCError.Code, _ message: String) -> HTTPAnswer {
        let firestoreCode = FirestoreErrorCode.Code(rawValue: code.rawValue) ?? .unknown
        let error: [String: Any] = ["code": firestoreCode.httpStatus, "message": message, "status": firestoreCode.statusName]
        let json = (try? JSONSerialization.data(withJSONObject: ["error": error], options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return HTTPAnswer(status: HTTPResponseStatus(statusCode: firestoreCode.httpStatus), body: json)
    }

    /// What the emulator answers a path it has no endpoint for.
    static let notFound = HTTPAnswer(status: .notFound, body: "Not Found\n", contentType: nil)
}

/// Reads each request of an HTTP/1.1 connection whole, has `answer` answer it (async: the
/// store's calls may wait), and writes the answer; requests on one connection are answered in
/// order. A body past `maxBody` is refused with 413 and the connection closed, unread.
final class HTTPExchange: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    /// Firestore refuses a request past 10 MiB; a body this much larger is not even read.
    static let maxBody = 11 << 20
    private let answer: @Sendable (HTTPRequest) async -> HTTPAnswer
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()
    private var isRefusing = false

    init(answer: @escaping @Sendable (HTTPRequest) async -> HTTPAnswer) {
        self.answer = answer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
        case .body(var part):
            guard !isRefusing else { return }
            guard body.readableBytes + part.readableBytes <= Self.maxBody else {
                isRefusing = true
                // Firestore's words for a request past its 10 MiB (this one is past more).
                let refusal = HTTPAnswer.error(.invalidArgument, "Request payload size exceeds the limit: 10485760 bytes.")
                return write(refusal, keepAlive: false, context: context)
            }
            body.writeBuffer(&part)
        case .end:
            guard !isRefusing, let head else { return }
            self.head = nil
            let request = Self.request(head, body: body)
            let keepAlive = head.isKeepAlive
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let answer = answer
            Task {
                let answered = await answer(request)
                loopBound.eventLoop.execute {
                    let (handler, context) = loopBound.value
                    handler.write(answered, keepAlive: keepAlive, context: context)
                }
            }
        }
    }

    private func write(_ answer: HTTPAnswer, keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        if let contentType = answer.contentType { headers.add(name: "content-type", value: contentType) }
        headers.add(name: "content-length", value: String(answer.body.utf8.count))
        if !keepAlive { headers.add(name: "connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: answer.status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: answer.body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }

    private static func request(_ head: HTTPRequestHead, body: ByteBuffer) -> HTTPRequest {
        let components = URLComponents(string: head.uri)
        let rawPath = components?.percentEncodedPath ?? head.uri
        let segments = rawPath.split(separator: "/", omittingEmptySubsequences: true)
            .map { String($0).removingPercentEncoding ?? String($0) }
        let query = (components?.queryItems ?? []).map { (name: $0.name, value: $0.value ?? "") }
        return HTTPRequest(method: head.method, segments: segments, query: query, headers: head.headers, body: body)
    }
}
