import FoundationEssentials
internal import HTTPTypes
internal import Hummingbird
internal import HummingbirdCore
import Logging
internal import ServiceLifecycle
import WebImageCore

/// `webimage serve`: an ``ImageService`` over HTTP/1.1 with Hummingbird, plus `GET /health`
/// and `GET /metrics`, one access line per request on the logger, and a graceful shutdown on
/// SIGTERM or SIGINT (no new connections; requests in flight get
/// ``ImageServerConfiguration/drainTimeout`` seconds to finish; then the process exits).
public struct ImageServer: Sendable {
    /// The `Server` header of every answer.
    static let serverName = "webimage"
    public let service: ImageService
    let logger: Logger

    public init(service: ImageService, logger: Logger) {
        self.service = service
        self.logger = logger
    }

    /// Serves until SIGTERM or SIGINT, then drains and returns; `onListening` gets the bound
    /// address (`127.0.0.1:8080`; the real port when the configured one is 0).
    /// - Throws: ``ImageServerConfigurationError`` for a listen address that cannot be used,
    ///   or the bind's error.
    public func run(onListening: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        let listen = try ListenAddress(service.configuration.listen)
        let (host, port) = (listen.host, listen.port)
        let application = Application(
            responder: ImageServerResponder(service: service, logger: logger),
            server: HTTPServerBuilder { [service, logger] responder in
                ImageServerChannel(http1: HTTP1Channel(responder: responder)) {
                    MemoryHitHandler(service: service, logger: logger, serverName: Self.serverName)
                }
            },
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: Self.serverName),
            onServerRunning: { [service] channel in
                // Listening now: the port's reservation has done its work.
                service.listenReservation.release()
                let address = channel.localAddress
                let shown = address?.ipAddress.map { ip in ip.contains(":") ? "[\(ip)]" : ip } ?? host
                onListening("\(shown):\(address?.port ?? port)")
            },
            logger: logger)
        let drain = service.configuration.drainTimeout
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: application)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = .milliseconds(Int64(drain * 1000))
        configuration.maximumCancellationDuration = .seconds(2)
        try await ServiceGroup(configuration: configuration).run()
    }
}

/// Answers every request: `/health`, `/metrics`, else an image through the service.
struct ImageServerResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let service: ImageService
    let logger: Logger

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        let target = request.uri.string
        let path = ImageServiceRequest.path(ofTarget: target)
        let answer: ImageServiceResponse
        switch path {
        case "/health": answer = await service.health()
        case "/metrics": answer = service.metricsResponse()
        default:
            answer = await service.respond(
                to: ImageServiceRequest(
                    method: request.method.rawValue, target: target, accept: request.headers[.accept],
                    ifNoneMatch: request.headers[.ifNoneMatch]))
        }
        let body = answer.body.isEmpty ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body))
        AccessLog.write(logger, method: request.method.rawValue, path: path, answer: answer, started: started)
        return Response(status: HTTPResponse.Status(code: answer.status), headers: answer.httpFields, body: body)
    }
}

extension ImageServiceResponse {
    /// The answer's headers as HTTP fields, `Content-Length` included.
    var httpFields: HTTPFields {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
        }
        fields[.contentLength] = String(contentLength)
        return fields
    }
}

/// The access log: one line a request, `GET /-/rs:fit:300:300/plain/… 200 5120 1.3ms memory`
/// (method, path without its signature, status, body bytes, milliseconds, cache tier or `-`).
enum AccessLog {
    static func write(
        _ logger: Logger, method: String, path: String, answer: ImageServiceResponse, started: ContinuousClock.Instant
    ) {
        let milliseconds = (ContinuousClock.now - started).millisecondsText
        logger.info(
            "\(method) \(loggedPath(path)) \(answer.status) \(answer.body.count) \(milliseconds)ms \(answer.tier ?? "-")"
        )
    }

    /// How the log writes a path: without its signature segment, which is a credential for
    /// that path, as `/-/rest`.
    static func loggedPath(_ path: String) -> String {
        guard path != "/health" && path != "/metrics" else { return path }
        return "/-" + ProcessingURLParser.splitSignature(path).signedPath
    }
}
