import Foundation
import Testing
import WebImageTestSupport

/// The plugin trust policy through the tool: the bundled plugins installed next to a copy of
/// `webimage` (trusted), hostile coders built from C in a `--plugin-path` folder (untrusted).
@Suite("plugin trust in the CLI", .ownThread)
struct PluginTrustCommandTests {
    let prefix: FakeInstallPrefix
    let untrusted: PluginsFolder

    init() throws {
        prefix = try FakeInstallPrefix()
        untrusted = try PluginsFolder()
    }

    /// Runs the installed tool with the untrusted folder as `--plugin-path`.
    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> CommandResult {
        try await WebImageProcess.run(
            arguments + ["--plugin-path", untrusted.path], environment: environment, executable: prefix.executable)
    }

    /// The plugins of a `plugins list --json` document by name.
    func listed(_ json: [String: Any]) throws -> [String: [String: Any]] {
        let plugins = try #require(json["plugins"] as? [[String: Any]])
        return Dictionary(plugins.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test("installed plugins are trusted; an impostor named png is refused with a warning naming it")
    func impostorIsRefused() async throws {
        let marker = try untrusted.addHostileCoder(
            HostileCoder(name: "png", format: "impostor", extensions: ["impostor"]))
        let list = try await run(["plugins", "list", "--json"])
        #expect(list.status == 0)
        let json = try list.json()
        #expect(json["trusted_folders"] as? [String] == [prefix.plugins.path])
        let png = try #require(try listed(json)["png"])
        #expect(png["manifest"] as? String == prefix.plugin("png.json"))
        #expect(png["trust"] as? String == "trusted")
        #expect(
            json["warnings"] as? [String] == [
                "warning: plugin 'png' (\(untrusted.file("png.json"))): untrusted plugin tried to take over plugin name 'png' of trusted plugin 'png'; refused and never opened (allow it by name with --allow-override png or WEBIMAGE_PLUGIN_ALLOW_OVERRIDE=png)"
            ])
        let refused = try #require((json["refused"] as? [[String: Any]])?.first)
        #expect(refused["reason"] as? String == "takeover")
        #expect(refused["trust"] as? String == "untrusted")
        #expect((json["faults"] as? [Any])?.isEmpty == true)

        let verify = try await run(["plugins", "verify"])
        #expect(verify.status == 0)
        let bundled = try BuildProducts.bundledPlugins
        #expect(verify.outputLines.contains("ok    png 1.0.0: \(prefix.plugin("libWebImagePNG.so"))"))
        #expect(
            verify.outputLines.contains(
                "WARN  png: untrusted plugin tried to take over plugin name 'png' of trusted plugin 'png'; refused and never opened (allow it by name with --allow-override png or WEBIMAGE_PLUGIN_ALLOW_OVERRIDE=png)"
            ))
        #expect(verify.outputLines.last == "\(bundled.count) ok, 0 faults, 1 warning")

        let info = try await run(["info", Fixture.path("png/rgb8.png"), "--json"])
        #expect(info.status == 0)
        #expect(try info.json()["format"] as? String == "png")
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test("--allow-override png lets the impostor take the name; the bundled png is listed as overridden")
    func impostorAllowedByFlag() async throws {
        try untrusted.addHostileCoder(HostileCoder(name: "png", format: "impostor", extensions: ["impostor"]))
        let list = try await run(["plugins", "list", "--json", "--allow-override", "png"])
        #expect(list.status == 0)
        let json = try list.json()
        let png = try #require(try listed(json)["png"])
        #expect(png["manifest"] as? String == untrusted.file("png.json"))
        #expect(png["trust"] as? String == "untrusted")
        let refused = try #require(json["refused"] as? [[String: Any]])
        #expect(refused.map { $0["manifest"] as? String } == [prefix.plugin("png.json")])
        #expect(refused.map { $0["reason"] as? String } == ["overridden"])
        #expect((json["warnings"] as? [String])?.isEmpty == true)
    }

    @Test("a signature thief decodes PNGs only with WEBIMAGE_PLUGIN_ALLOW_OVERRIDE naming it")
    func signatureThief() async throws {
        let marker = try untrusted.addHostileCoder(
            HostileCoder(name: "sigthief", signatures: ["89504e47"], priority: 1000))
        let refused = try await run(["info", Fixture.path("png/rgb8.png"), "--json"])
        #expect(refused.status == 0)
        let refusedJSON = try refused.json()
        #expect(refusedJSON["format"] as? String == "png")
        #expect(refusedJSON["width"] as? Int == 13)
        #expect(!FileManager.default.fileExists(atPath: marker))
        let list = try await run(["plugins", "list"])
        #expect(
            list.outputLines.contains(
                "  warning: sigthief: untrusted plugin tried to take over signature 89504e47 (against signature 89504e470d0a1a0a) of trusted plugin 'png'; refused and never opened (allow it by name with --allow-override sigthief or WEBIMAGE_PLUGIN_ALLOW_OVERRIDE=sigthief)"
            ))

        let allowed = try await run(
            ["info", Fixture.path("png/rgb8.png"), "--json"],
            environment: ["WEBIMAGE_PLUGIN_ALLOW_OVERRIDE": "sigthief"])
        #expect(allowed.status == 0)
        let allowedJSON = try allowed.json()
        #expect(allowedJSON["format"] as? String == "sigthief")
        #expect(allowedJSON["width"] as? Int == 1)
        #expect(FileManager.default.fileExists(atPath: marker))
    }

    @Test("an extension thief gets the png encodes only with --allow-override")
    func extensionThief() async throws {
        try untrusted.addHostileCoder(HostileCoder(name: "extthief", extensions: ["png"], priority: 1000))
        let output = try TemporaryDirectory()
        let refused = try await run(["convert", Fixture.path("jpeg/baseline.jpg"), output.file("refused.png")])
        #expect(refused.status == 0)
        let png = try Array(Data(contentsOf: URL(fileURLWithPath: output.file("refused.png"))))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        let allowed = try await run([
            "convert", Fixture.path("jpeg/baseline.jpg"), output.file("allowed.png"), "--allow-override", "extthief",
        ])
        #expect(allowed.status == 0)
        let hijacked = try Array(Data(contentsOf: URL(fileURLWithPath: output.file("allowed.png"))))
        #expect(hijacked == HostileCoder.encodedBytes)
    }

    @Test(
        "a denied plugin is listed as denied and never opened (flag and environment)",
        arguments: [
            (["--deny-plugin", "extra"], [String: String]()), ([], ["WEBIMAGE_PLUGIN_DENY": "other,extra"]),
        ])
    func deniedPlugin(arguments: [String], environment: [String: String]) async throws {
        let marker = try untrusted.addHostileCoder(HostileCoder(name: "extra"))
        let verify = try await run(["plugins", "verify"] + arguments, environment: environment)
        #expect(verify.status == 0)
        #expect(verify.outputLines.contains("DENY  extra: denied (on the deny list); never opened"))
        #expect(verify.outputLines.last == "\(try BuildProducts.bundledPlugins.count) ok, 0 faults, 1 denied")
        let list = try await run(["plugins", "list", "--json"] + arguments, environment: environment)
        let refused = try #require(try list.json()["refused"] as? [[String: Any]])
        #expect(refused.map { $0["name"] as? String } == ["extra"])
        #expect(refused.map { $0["reason"] as? String } == ["denied"])
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test("with --allow-plugin only the plugins named are opened")
    func allowList() async throws {
        let marker = try untrusted.addHostileCoder(HostileCoder(name: "extra"))
        let verify = try await run(["plugins", "verify", "--allow-plugin", "png"])
        #expect(verify.status == 0)
        #expect(verify.outputLines.first == "ok    png 1.0.0: \(prefix.plugin("libWebImagePNG.so"))")
        #expect(verify.outputLines.contains("DENY  extra: not on the allow list; never opened"))
        #expect(verify.outputLines.contains("DENY  jpeg: not on the allow list; never opened"))
        let bundled = try BuildProducts.bundledPlugins.count
        #expect(verify.outputLines.last == "1 ok, 0 faults, \(bundled) denied")
        #expect(!FileManager.default.fileExists(atPath: marker))
        let jpeg = try await run(["info", Fixture.path("jpeg/baseline.jpg"), "--allow-plugin", "png"])
        #expect(jpeg.status == 1)
        #expect(jpeg.errorLines.first?.hasPrefix("error: not an image the loaded coders decode") == true)
    }

    /// A hostile coder built in a folder of its own (not searched), for the install folder to
    /// point at or take in.
    func buildElsewhere(_ coder: HostileCoder) throws -> (folder: PluginsFolder, library: String, marker: String) {
        let folder = try PluginsFolder()
        let marker = try folder.addHostileCoder(coder)
        return (folder, folder.file("libhostile-\(coder.name).so"), marker)
    }

    /// The real path of the install folder.
    var realPlugins: String { prefix.plugins.resolvingSymlinksInPath().path }

    static func outsideTrustedFolder(_ library: String, folder: String) -> String {
        "its library resolves to \(library), outside the trusted folder \(folder); the plugin is untrusted "
            + "(isolated, and it may not take over trusted plugins)"
    }

    @Test(
        "a manifest in the install folder whose library is a symbolic link elsewhere is untrusted and may not take over png"
    )
    func symlinkedLibraryIsUntrusted() async throws {
        let thief = try buildElsewhere(HostileCoder(name: "sigthief", signatures: ["89504e47"], priority: 1000))
        try FileManager.default.copyItem(
            atPath: thief.folder.file("sigthief.json"), toPath: prefix.plugin("sigthief.json"))
        try FileManager.default.createSymbolicLink(
            atPath: prefix.plugin("libhostile-sigthief.so"), withDestinationPath: thief.library)
        let list = try await run(["plugins", "list", "--json"])
        #expect(list.status == 0)
        let json = try list.json()
        let refused = try #require((json["refused"] as? [[String: Any]])?.first)
        #expect(refused["name"] as? String == "sigthief")
        #expect(refused["trust"] as? String == "untrusted")
        #expect(refused["reason"] as? String == "takeover")
        let warning = Self.outsideTrustedFolder(thief.library, folder: realPlugins)
        #expect(
            (json["warnings"] as? [String])?.last
                == "warning: plugin 'sigthief' (\(prefix.plugin("sigthief.json"))): \(warning)")

        let info = try await run(["info", Fixture.path("png/rgb8.png"), "--json"])
        #expect(info.status == 0)
        #expect(try info.json()["format"] as? String == "png")
        #expect(!FileManager.default.fileExists(atPath: thief.marker))
    }

    @Test("a manifest in the install folder naming an absolute library path elsewhere is untrusted, with a warning")
    func absoluteLibraryIsUntrusted() async throws {
        let extra = try buildElsewhere(HostileCoder(name: "extra"))
        let manifest = try String(contentsOfFile: extra.folder.file("extra.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"libhostile-extra.so\"", with: "\"\(extra.library)\"")
        try manifest.write(toFile: prefix.plugin("extra.json"), atomically: true, encoding: .utf8)
        let verify = try await run(["plugins", "verify"])
        #expect(verify.status == 0, "\(verify.standardOutput)")
        #expect(verify.outputLines.contains("ok    extra 1.0.0: \(extra.library)"))
        #expect(
            verify.outputLines.contains(
                "WARN  extra: \(Self.outsideTrustedFolder(extra.library, folder: realPlugins))"))
        #expect(verify.outputLines.contains("        manifest: \(prefix.plugin("extra.json"))"))
        #expect(verify.outputLines.last == "\(try BuildProducts.bundledPlugins.count + 1) ok, 0 faults, 1 warning")
        let list = try await run(["plugins", "list", "--json"])
        let plugin = try #require(try listed(try list.json())["extra"])
        #expect(plugin["trust"] as? String == "untrusted")
    }

    @Test("two trusted plugins claiming PNG's extension and signature: verify warns, other commands warn once")
    func overlappingTrustedPlugins() async throws {
        let hijacker = try buildElsewhere(
            HostileCoder(name: "takeover", extensions: ["png"], signatures: ["89504e47"], priority: 1000))
        try FileManager.default.copyItem(
            atPath: hijacker.folder.file("takeover.json"), toPath: prefix.plugin("takeover.json"))
        try PluginsFolder.place(
            URL(fileURLWithPath: hijacker.library), at: prefix.plugins.appendingPathComponent("libhostile-takeover.so"))
        let overlap =
            "trusted plugin overlaps extension 'png' of trusted plugin 'png', signature 89504e47 (against signature "
            + "89504e470d0a1a0a) of trusted plugin 'png'; either may serve them: check the trusted folder"
        let verify = try await run(["plugins", "verify"])
        #expect(verify.status == 0)
        #expect(verify.outputLines.contains("WARN  takeover: \(overlap)"))
        #expect(verify.outputLines.last == "\(try BuildProducts.bundledPlugins.count + 1) ok, 0 faults, 1 warning")
        #expect(verify.errorLines.isEmpty, "\(verify.standardError)")

        let info = try await run(["info", Fixture.path("jpeg/baseline.jpg"), "--json"])
        #expect(info.status == 0)
        #expect(info.errorLines == ["warning: plugin 'takeover' (\(prefix.plugin("takeover.json"))): \(overlap)"])
    }

    /// One way a plugin's files could be changed by others.
    struct InsecureFiles: Sendable, CustomTestStringConvertible {
        let label: String
        /// What the fault says, given the folder and the library's real path.
        let detail: @Sendable (_ folder: String, _ library: String) -> String
        /// Changes the folder or the library.
        let make: @Sendable (_ folder: String, _ library: String) -> Void

        var testDescription: String { label }
    }

    static let insecureFiles = [
        InsecureFiles(
            label: "a world-writable folder",
            detail: { folder, _ in "the folder \(folder) is world-writable (mode 0777)" },
            make: { folder, _ in chmod(folder, 0o777) }),
        InsecureFiles(
            label: "a sticky world-writable folder",
            detail: { folder, _ in "the folder \(folder) is world-writable (mode 01777)" },
            make: { folder, _ in chmod(folder, 0o1777) }),
        InsecureFiles(
            label: "a group-writable library",
            detail: { _, library in "the library \(library) is group-writable (mode 0775)" },
            make: { _, library in chmod(library, 0o775) }),
        InsecureFiles(
            label: "a library owned by another user",
            detail: { _, library in "the library \(library) is owned by uid 4242 (mode 0755)" },
            make: { _, library in chown(library, 4242, 4242) }),
    ]

    @Test(
        "a plugin whose files others could change is a fault naming the path and mode, unless allowed",
        arguments: insecureFiles)
    func insecurePermissions(_ insecure: InsecureFiles) async throws {
        let marker = try untrusted.addHostileCoder(HostileCoder(name: "extra"))
        let library = untrusted.file("libhostile-extra.so")
        chmod(library, 0o755)
        insecure.make(untrusted.path, library)
        let verify = try await run(["plugins", "verify"])
        #expect(verify.status == 1)
        #expect(verify.outputLines.contains("FAULT extra: insecure permissions: \(untrusted.file("extra.json"))"))
        #expect(
            verify.outputLines.contains(
                "        \(insecure.detail(untrusted.path, library)): others could replace the plugin, so it is never "
                    + "opened (allow it with --allow-insecure-plugins or WEBIMAGE_PLUGIN_ALLOW_INSECURE=1)"))
        #expect(verify.outputLines.last == "\(try BuildProducts.bundledPlugins.count) ok, 1 fault")
        #expect(!FileManager.default.fileExists(atPath: marker))

        let allowed = try await run(["plugins", "verify", "--allow-insecure-plugins"])
        #expect(allowed.status == 0)
        #expect(allowed.outputLines.contains("ok    extra 1.0.0: \(library)"))
        let byEnvironment = try await run(["plugins", "verify"], environment: ["WEBIMAGE_PLUGIN_ALLOW_INSECURE": "1"])
        #expect(byEnvironment.status == 0)
        chmod(untrusted.path, 0o755)
    }
}
