import Logging
internal import NIOCore
internal import NIOHTTP1

/// Answers requests whose result is in the memory tier on the connection's event loop, right
/// after SwiftNIO has decoded the request head and before Hummingbird sees it: such a hit needs
/// no task, no hop to another thread, no suspension and no conversion between SwiftNIO's HTTP
/// types and swift-http-types, and it is most of an image server's traffic. Anything else (a
/// miss, a disk hit, an error, `/health`, `/metrics`, HTTP/1.0, a request that closes the
/// connection) goes on to Hummingbird's responder unchanged, and so does every request while
/// one that went there is unanswered, which keeps answers in the order of pipelined requests.
///
/// The answer is the one the responder would give (``ImageService/respondFromMemory(to:)``),
/// with the same access-log line and the `Date` and `Server` headers Hummingbird adds. It is
/// written through SwiftNIO's response encoder like every other answer, so the encoder's
/// bookkeeping of request methods (HEAD answers carry no body) stays in step.
final class MemoryHitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let service: ImageService
    private let logger: Logger
    private let serverName: String
    /// Requests passed to the responder whose answer has not ended yet.
    private var answersOwed = 0
    /// Whether the rest of the current request (its body and end) belongs to a hit answered here.
    private var discardingAnsweredRequest = false

    init(service: ImageService, logger: Logger, serverName: String) {
        self.service = service
        self.logger = logger
        self.serverName = serverName
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let request):
            if answersOwed == 0, answerMemoryHit(request, context: context) {
                discardingAnsweredRequest = true
                return
            }
            answersOwed += 1
        case .body, .end:
            if discardingAnsweredRequest {
                if case .end = part { discardingAnsweredRequest = false }
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { answersOwed -= 1 }
        context.write(data, promise: promise)
    }

    /// Answers `request` when it is an HTTP/1.1 memory hit that keeps the connection open;
    /// false otherwise.
    private func answerMemoryHit(_ request: HTTPRequestHead, context: ChannelHandlerContext) -> Bool {
        let started = ContinuousClock.now
        guard request.version == .http1_1, request.isKeepAlive, request.method == .GET || request.method == .HEAD
        else { return false }
        let path = ImageServiceRequest.path(ofTarget: request.uri)
        guard path != "/health", path != "/metrics",
            let answer = service.respondFromMemory(
                to: ImageServiceRequest(
                    method: request.method.rawValue, target: request.uri, accept: request.headers.first(name: "accept"),
                    ifNoneMatch: request.headers.first(name: "if-none-match")))
        else { return false }
        var headers = HTTPHeaders(answer.headers)
        headers.add(name: "Content-Length", value: String(answer.contentLength))
        headers.add(name: "Date", value: HTTPDate.now())
        headers.add(name: "Server", value: serverName)
        let status = HTTPResponseStatus(statusCode: answer.status)
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        if !answer.body.isEmpty {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: answer.body)))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        AccessLog.write(logger, method: request.method.rawValue, path: path, answer: answer, started: started)
        return true
    }
}
