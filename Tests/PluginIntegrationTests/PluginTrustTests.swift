import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// The plugin trust policy with real libraries: the bundled PNG and JPEG plugins in a folder
/// declared trusted, and hostile coders built from C (`Fixtures/HostilePlugins`) in an
/// untrusted folder searched before it.
@Suite(.ownThread) struct PluginTrustTests {
    /// One way an untrusted plugin tries to take over the bundled PNG plugin.
    struct Takeover: Sendable, CustomTestStringConvertible {
        enum Route: Sendable {
            /// PNG files are decoded by the plugin.
            case decodingPNG
            /// Encoding to `png` goes to the plugin.
            case encodingPNG
            /// The plugin gets the name `png`.
            case pluginName
        }

        let label: String
        let coder: HostileCoder
        /// The refusal's conflicts, as text.
        let conflicts: [String]
        let route: Route

        var testDescription: String { label }
    }

    static let takeovers = [
        Takeover(
            label: "a high priority plus PNG's signature",
            coder: HostileCoder(name: "sigthief", signatures: ["89504e47"], priority: 1000),
            conflicts: ["signature 89504e47 (against signature 89504e470d0a1a0a) of trusted plugin 'png'"],
            route: .decodingPNG),
        Takeover(
            label: "only the png extension, for encoding",
            coder: HostileCoder(name: "extthief", extensions: ["png"], priority: 1000),
            conflicts: ["extension 'png' of trusted plugin 'png'"], route: .encodingPNG),
        Takeover(
            label: "a format named png",
            coder: HostileCoder(
                name: "fmtthief", format: "png", mimeType: "image/x-fmtthief", extensions: ["fmtthief"], priority: 1000
            ),
            conflicts: ["format 'png' of trusted plugin 'png'"], route: .encodingPNG),
        Takeover(
            label: "a plugin named png earlier in the search path",
            coder: HostileCoder(name: "png", format: "impostor", extensions: ["impostor"]),
            conflicts: ["plugin name 'png' of trusted plugin 'png'"], route: .pluginName),
    ]

    let trusted: PluginsFolder
    let untrusted: PluginsFolder

    init() throws {
        trusted = try PluginsFolder()
        try trusted.addPNGAndJPEG()
        untrusted = try PluginsFolder()
    }

    /// A host searching the untrusted folder first, then the trusted one.
    func host(_ policy: PluginPolicy = PluginPolicy()) -> PluginHost {
        PluginHost(
            searchPath: PluginSearchPath(
                directories: [untrusted.path, trusted.path], trustedDirectories: [trusted.path]),
            policy: policy)
    }

    /// A 2×1 RGBA8 image to encode.
    func smallImage() throws -> PixelBuffer {
        try PixelBuffer(width: 2, height: 1, format: .rgba8)
    }

    /// The bundled plugins still decode and encode their formats.
    func expectBundledFormatsServed(by host: PluginHost) throws {
        let manager = host.makeCodersManager()
        let png = try manager.decode(try Fixture.bytes("png/rgb8.png"))
        #expect(png.format == "png")
        #expect(png.width == 13 && png.height == 7)
        let jpeg = try manager.decode(try Fixture.bytes("jpeg/baseline.jpg"))
        #expect(jpeg.format == "jpeg")
        #expect(jpeg.width == 61 && jpeg.height == 43)
        let encoded = try manager.encode(try smallImage(), options: EncodeOptions(format: "png")).bytes
        #expect(Array(encoded.prefix(8)) == [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    }

    @Test func anUntrustedPluginClaimingNothingBundledIsOpened() throws {
        let marker = try untrusted.addHostileCoder(HostileCoder(name: "extra"))
        let host = host()
        #expect(host.plugins.map(\.name) == ["extra", "jpeg", "png"])
        #expect(host.plugins.map(\.trust) == [.untrusted, .trusted, .trusted])
        #expect(host.refusals.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(host.verify().isEmpty)
        #expect(FileManager.default.fileExists(atPath: marker))
        let image = try host.makeCodersManager().decode(Array("HOST and anything".utf8))
        #expect(image.format == "extra")
        #expect(image.pixels.packedBytes() == HostileCoder.decodedPixel)
        try expectBundledFormatsServed(by: host)
    }

    @Test(arguments: takeovers)
    func aTakeoverIsRefusedByDefault(_ takeover: Takeover) throws {
        let marker = try untrusted.addHostileCoder(takeover.coder)
        let host = host()
        #expect(host.plugins.map(\.name) == ["jpeg", "png"])
        #expect(host.plugins.allSatisfy { $0.trust == .trusted })
        let refusal = try #require(host.refusals.first)
        #expect(host.refusals.count == 1)
        #expect(refusal.plugin.name == takeover.coder.name)
        #expect(refusal.plugin.manifestPath == untrusted.file("\(takeover.coder.name).json"))
        #expect(refusal.isWarning)
        guard case .takeover(let conflicts) = refusal.reason else {
            Issue.record("expected a takeover refusal, got \(refusal.reason)")
            return
        }
        #expect(conflicts.map(\.description) == takeover.conflicts)
        #expect(host.verify().isEmpty)
        try expectBundledFormatsServed(by: host)
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test(arguments: takeovers)
    func aTakeoverIsAllowedByName(_ takeover: Takeover) throws {
        let marker = try untrusted.addHostileCoder(takeover.coder)
        let host = host(PluginPolicy(overridesAllowed: [takeover.coder.name]))
        let manager = host.makeCodersManager()
        switch takeover.route {
        case .decodingPNG:
            #expect(host.refusals.isEmpty)
            let image = try manager.decode(try Fixture.bytes("png/rgb8.png"))
            #expect(image.format == takeover.coder.format)
            #expect(image.pixels.packedBytes() == HostileCoder.decodedPixel)
        case .encodingPNG:
            #expect(host.refusals.isEmpty)
            let encoded = try manager.encode(try smallImage(), options: EncodeOptions(format: "png")).bytes
            #expect(Array(encoded) == HostileCoder.encodedBytes)
        case .pluginName:
            let png = try #require(host.plugins.first { $0.name == "png" })
            #expect(png.trust == .untrusted)
            #expect(png.manifestPath == untrusted.file("png.json"))
            #expect(host.refusals.map(\.plugin.manifestPath) == [trusted.file("png.json")])
            #expect(host.refusals.map(\.reason) == [.overridden(by: "png")])
            #expect(host.faults.isEmpty)
            _ = try host.open("png")
        }
        #expect(FileManager.default.fileExists(atPath: marker))
    }

    @Test func theTrustedPluginKeepsItsNameWhereverTheImpostorIs() throws {
        let marker = try untrusted.addHostileCoder(
            HostileCoder(name: "png", format: "impostor", extensions: ["impostor"]))
        let after = PluginHost(
            searchPath: PluginSearchPath(
                directories: [trusted.path, untrusted.path], trustedDirectories: [trusted.path]))
        for host in [host(), after] {
            let png = try #require(host.plugins.first { $0.name == "png" })
            #expect(png.manifestPath == trusted.file("png.json"))
            #expect(host.refusals.map(\.plugin.manifestPath) == [untrusted.file("png.json")])
            #expect(host.faults.isEmpty)
            #expect(host.verify().isEmpty)
            try expectBundledFormatsServed(by: host)
        }
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func twoUntrustedPluginsOfOneNameAreStillADuplicate() throws {
        let other = try PluginsFolder()
        try untrusted.addHostileCoder(HostileCoder(name: "twin"))
        try other.addHostileCoder(HostileCoder(name: "twin"))
        let host = PluginHost(searchPath: PluginSearchPath(directories: [untrusted.path, other.path]))
        #expect(host.plugins.map(\.manifestPath) == [untrusted.file("twin.json")])
        #expect(host.faults.map(\.reason) == [.duplicateName])
        #expect(host.faults.map(\.file) == [other.file("twin.json")])
    }

    @Test func aDeniedPluginIsNeverOpened() throws {
        let marker = try untrusted.addHostileCoder(HostileCoder(name: "extra"))
        let host = host(PluginPolicy(deniedPlugins: ["extra"]))
        #expect(host.plugins.map(\.name) == ["jpeg", "png"])
        #expect(host.refusals.map(\.plugin.name) == ["extra"])
        #expect(host.refusals.map(\.reason) == [.denied])
        #expect(!host.refusals[0].isWarning)
        #expect(host.verify().isEmpty)
        let fault = try #require(throws: PluginFault.self) { try host.open("extra") }
        #expect(fault.reason == .refused)
        #expect(fault.detail == "denied (on the deny list); never opened")
        let error = try #require(throws: ImageCodingError.self) {
            try host.makeCodersManager().decode(Array("HOST and anything".utf8))
        }
        #expect(error.kind == .unsupportedFormat)
        try expectBundledFormatsServed(by: host)
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func aDeniedTrustedPluginFreesItsFormatForOthers() throws {
        try untrusted.addHostileCoder(HostileCoder(name: "sigthief", signatures: ["89504e47"], priority: 1000))
        let host = host(PluginPolicy(deniedPlugins: ["png"]))
        #expect(host.plugins.map(\.name) == ["sigthief", "jpeg"])
        #expect(host.refusals.map(\.reason) == [.denied])
        let image = try host.makeCodersManager().decode(try Fixture.bytes("png/rgb8.png"))
        #expect(image.format == "sigthief")
    }

    @Test func withAnAllowListNothingElseIsOpened() throws {
        let allowedMarker = try untrusted.addHostileCoder(HostileCoder(name: "extra"))
        let otherMarker = try untrusted.addHostileCoder(HostileCoder(name: "other"))
        let host = host(PluginPolicy(allowedPlugins: ["extra", "png"]))
        #expect(host.plugins.map(\.name) == ["extra", "png"])
        #expect(host.refusals.map(\.plugin.name) == ["other", "jpeg"])
        #expect(host.refusals.map(\.reason) == [.notAllowed, .notAllowed])
        #expect(host.verify().isEmpty)
        #expect(FileManager.default.fileExists(atPath: allowedMarker))
        #expect(!FileManager.default.fileExists(atPath: otherMarker))
        let manager = host.makeCodersManager()
        #expect(try manager.decode(try Fixture.bytes("png/rgb8.png")).format == "png")
        let error = try #require(throws: ImageCodingError.self) {
            try manager.decode(try Fixture.bytes("jpeg/baseline.jpg"))
        }
        #expect(error.kind == .unsupportedFormat)
    }

    @Test func inProcessCodersKeepTheirPriorityRules() throws {
        try untrusted.addHostileCoder(HostileCoder(name: "extra"))
        let loose = PluginHost(searchPath: PluginSearchPath(directories: [untrusted.path]))
        let coder = try loose.adapter(PluginCoder.self, named: "extra")
        let manager = host(PluginPolicy(deniedPlugins: ["extra"])).makeCodersManager()
        manager.register(coder, priority: 1000, signatures: [try #require(MagicSignature(pattern: "89504e47"))])
        let image = try manager.decode(try Fixture.bytes("png/rgb8.png"))
        #expect(image.format == "extra")
        #expect(image.pixels.packedBytes() == HostileCoder.decodedPixel)
    }

    @Test(
        "a library of the trusted folder that is a symbolic link elsewhere is untrusted: isolated and refused a takeover"
    )
    func symlinkedLibraryIsUntrusted() throws {
        let elsewhere = try PluginsFolder()
        let marker = try elsewhere.addHostileCoder(
            HostileCoder(name: "sigthief", signatures: ["89504e47"], priority: 1000))
        try FileManager.default.copyItem(atPath: elsewhere.file("sigthief.json"), toPath: trusted.file("sigthief.json"))
        try FileManager.default.createSymbolicLink(
            atPath: trusted.file("libhostile-sigthief.so"),
            withDestinationPath: elsewhere.file("libhostile-sigthief.so"))
        let host = host()
        #expect(host.warnings.map(\.kind) == [.libraryOutsideTrustedFolder])
        #expect(
            host.warnings.first?.detail
                == "its library resolves to \(elsewhere.file("libhostile-sigthief.so")), outside the trusted folder "
                + "\(trusted.path); the plugin is untrusted (isolated, and it may not take over trusted plugins)")
        #expect(host.refusals.map(\.plugin.name) == ["sigthief"])
        #expect(host.refusals.first?.plugin.trust == .untrusted)
        try expectBundledFormatsServed(by: host)
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test("two trusted plugins claiming the same extension are both admitted, with one overlap warning")
    func trustedOverlapIsAWarning() throws {
        let elsewhere = try PluginsFolder()
        try elsewhere.addHostileCoder(HostileCoder(name: "takeover", extensions: ["png", "jpg"]))
        try FileManager.default.copyItem(atPath: elsewhere.file("takeover.json"), toPath: trusted.file("takeover.json"))
        try PluginsFolder.place(
            URL(fileURLWithPath: elsewhere.file("libhostile-takeover.so")),
            at: trusted.url.appendingPathComponent("libhostile-takeover.so"))
        let host = host()
        #expect(host.plugins.map(\.name) == ["jpeg", "png", "takeover"])
        #expect(host.plugins.allSatisfy { $0.trust == .trusted })
        #expect(
            host.warnings.map(\.description) == [
                "plugin 'takeover' (\(trusted.file("takeover.json"))): trusted plugin overlaps extension 'png' of trusted "
                    + "plugin 'png', extension 'jpg' of trusted plugin 'jpeg'; either may serve them: check the trusted folder"
            ])
    }

    @Test("a world-writable trusted folder: every plugin in it is an insecure-permissions fault, never opened")
    func worldWritableFolderIsAFault() throws {
        chmod(trusted.path, 0o777)
        defer { chmod(trusted.path, 0o755) }
        let refusing = host()
        #expect(refusing.plugins.isEmpty)
        let detail =
            "the folder \(trusted.path) is world-writable (mode 0777): others could replace the plugin, so it is never "
            + "opened (allow it with --allow-insecure-plugins or WEBIMAGE_PLUGIN_ALLOW_INSECURE=1)"
        #expect(
            refusing.faults == [
                PluginFault(.insecurePermissions, file: trusted.file("jpeg.json"), plugin: "jpeg", detail: detail),
                PluginFault(.insecurePermissions, file: trusted.file("png.json"), plugin: "png", detail: detail),
            ])
        var allowing = PluginPolicy()
        allowing.allowsInsecurePermissions = true
        #expect(host(allowing).plugins.map(\.name) == ["jpeg", "png"])
    }
}
