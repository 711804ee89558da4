internal import NIOCore
internal import NIOHTTP1

/// Marks a request that does not keep its connection open with `Connection: close`, so that
/// Hummingbird's responder closes the connection after its answer. SwiftNIO's request head
/// says so by its version too (an HTTP/1.0 request without `Connection: keep-alive`), but the
/// conversion to swift-http-types drops the version, and Hummingbird then kept such a
/// connection open as if it were HTTP/1.1, until the client or the idle timeout closed it.
final class ClosingRequestMarker: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var request) = unwrapInboundIn(data), !request.isKeepAlive,
            !request.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "close" })
        else {
            context.fireChannelRead(data)
            return
        }
        request.headers.add(name: "Connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(request)))
    }
}
