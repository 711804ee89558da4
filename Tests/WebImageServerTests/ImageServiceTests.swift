import Foundation
import Logging
import Testing
import WebImageCore
import WebImageServer
import WebImageTestSupport

/// An ``ImageService`` in this process (no HTTP), on every bundled plugin and a cache folder
/// of its own, for what the service does without a source: signatures of paths that do not
/// parse, `/health`, the listen port it reserves.
@Suite("ImageService")
struct ImageServiceTests {
    /// The bundled plugins and the cache folder of the service under test.
    let folders: (plugins: PluginsFolder, cache: TemporaryDirectory)

    init() throws {
        let plugins = try PluginsFolder()
        try plugins.addAllBundled()
        folders = (plugins, try TemporaryDirectory())
    }

    /// A service listening on `listen`, signed with ``ImageServerTests``' first pair unless `unsigned`.
    func service(listen: String = "127.0.0.1:0", unsigned: Bool = false) throws -> ImageService {
        var configuration = ImageServerConfiguration()
        configuration.listen = listen
        configuration.cacheDirectory = folders.cache.path
        if unsigned {
            configuration.allowUnsigned = true
        } else {
            configuration.keys = [ImageServerTests.key]
            configuration.salts = [ImageServerTests.salt]
        }
        let host = PluginHost(
            searchPath: PluginSearchPath(
                directories: [folders.plugins.path], trustedDirectories: [folders.plugins.path]))
        return try ImageService(configuration: configuration, host: host, logger: Logger(label: "test"))
    }

    @Test("a path that does not parse is checked for its signature cut at the parser's byte: 400, not 403")
    func signatureOfUnparsedPath() async throws {
        // A combining mark after the slash ends the signature segment for the parser (on bytes);
        // cut on characters, the slash and the mark are one character and the cut lands later.
        let signedPath = "/\u{301}x:1/plain/http://127.0.0.1/a.png"
        let signature = try await onOwnThread {
            try OpenSSLSignature.signature(of: signedPath, keyHex: ImageServerTests.key, saltHex: ImageServerTests.salt)
        }
        let service = try service()
        let answer = await service.respond(to: ImageServiceRequest(target: "/" + signature + signedPath))
        #expect(answer.status == 400)
        #expect(String(decoding: answer.body, as: UTF8.self).hasPrefix("unknown option "))
        let forged = await service.respond(to: ImageServiceRequest(target: "/forged" + signedPath))
        #expect(forged.status == 403)
    }

    @Test("/health answers 200 ok and writes its probe into the result cache")
    func healthProbeWritten() async throws {
        let service = try service(unsigned: true)
        let answer = await service.health()
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == "ok\n")
        #expect(try !Self.regularFiles(under: folders.cache.url).isEmpty)
    }

    @Test("port 0 becomes a free port for IPv4 and IPv6 listen addresses", arguments: ["127.0.0.1", "[::1]"])
    func listenPortReserved(host: String) throws {
        let listen = try service(listen: host + ":0", unsigned: true).configuration.listen
        #expect(listen.hasPrefix(host + ":"))
        let port = try #require(Int(listen.dropFirst(host.count + 1)))
        #expect((1...65535).contains(port))
    }

    /// The regular files below `folder`, at any depth.
    static func regularFiles(under folder: URL) throws -> [URL] {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        return try (walker?.allObjects as? [URL] ?? []).filter {
            try $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true
        }
    }
}
