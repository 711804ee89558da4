internal import HTTPTypes
import Logging
internal import NIOCore
internal import NIOHTTPTypes

/// Answers requests whose result is in the memory tier on the connection's event loop, before
/// Hummingbird's responder: such a hit needs no task, no hop to another thread and no
/// suspension, and it is most of an image server's traffic. Anything else (a miss, a disk hit,
/// an error, `/health`, `/metrics`, a request that closes the connection) goes on to the
/// responder unchanged, and so does every request while one that went there is unanswered,
/// which keeps answers in the order of pipelined requests.
///
/// The answer is the one the responder would give (``ImageService/respondFromMemory(to:)``),
/// with the same access-log line and the `Date` and `Server` headers Hummingbird adds.
final class MemoryHitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

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

    /// Answers `request` when it is a memory hit that keeps the connection open; false otherwise.
    private func answerMemoryHit(_ request: HTTPRequest, context: ChannelHandlerContext) -> Bool {
        let started = ContinuousClock.now
        guard let target = request.path, request.headerFields[.connection]?.lowercased() != "close" else {
            return false
        }
        let path = String(target.prefix { $0 != "?" })
        guard path != "/health", path != "/metrics",
            let answer = service.respondFromMemory(
                to: ImageServiceRequest(
                    method: request.method.rawValue, target: target, accept: request.headerFields[.accept],
                    ifNoneMatch: request.headerFields[.ifNoneMatch]))
        else { return false }
        var fields = answer.httpFields
        fields[.date] = HTTPDate.now()
        fields[.server] = serverName
        context.write(
            wrapOutboundOut(.head(HTTPResponse(status: .init(code: answer.status), headerFields: fields))), promise: nil
        )
        if !answer.body.isEmpty {
            context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: answer.body))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        AccessLog.write(logger, method: request.method.rawValue, path: path, answer: answer, started: started)
        return true
    }
}
