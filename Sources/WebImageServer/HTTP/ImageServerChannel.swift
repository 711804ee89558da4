internal import HummingbirdCore
import Logging
internal import NIOCore
internal import NIOHTTP1

/// Each connection of `webimage serve`: Hummingbird's HTTP/1.1 channel, with a
/// ``MemoryHitHandler`` put right after SwiftNIO's request decoder, where it sees requests in
/// SwiftNIO's own HTTP types before Hummingbird converts them, and a ``ClosingRequestMarker``
/// after it (a memory hit is answered before the marker, which only the responder's requests
/// pass through).
struct ImageServerChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let http1: HTTP1Channel
    let makeMemoryHitHandler: @Sendable () -> MemoryHitHandler

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let memoryHits = makeMemoryHitHandler()
            try pipeline.addHandler(memoryHits, position: .after(decoder))
            try pipeline.addHandler(ClosingRequestMarker(), position: .after(memoryHits))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
