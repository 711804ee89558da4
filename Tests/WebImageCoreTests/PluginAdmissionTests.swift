import Testing
import WebImageCore
import WebImageTestSupport

/// The trust policy applied by discovery, on manifests only (no library is opened): a
/// trusted folder with `png`, a `curl` loader and an `effects` transformer, and an untrusted
/// folder searched before it.
@Suite struct PluginAdmissionTests {
    let root: TemporaryDirectory
    let untrusted: String
    let trusted: String

    init() throws {
        root = try TemporaryDirectory()
        untrusted = try root.folder("untrusted")
        trusted = try root.folder("trusted")
        try root.write(
            "trusted/png.json",
            manifestJSON(
                name: "png", mimeType: "image/png", extensions: ["png"], signature: "89504e470d0a1a0a"))
        try root.write(
            "trusted/curl.json",
            """
            { "name": "curl", "version": "1.0.0", "abi_version": 1, "library": "libcurl.so",
              "loader": { "schemes": ["http", "https"] } }
            """)
        try root.write(
            "trusted/effects.json",
            """
            { "name": "effects", "version": "1.0.0", "abi_version": 1, "library": "libeffects.so",
              "transformer": { "names": ["sepia"] } }
            """)
    }

    func discover(_ policy: PluginPolicy = PluginPolicy()) -> PluginDiscovery.Result {
        PluginDiscovery.discover(
            in: PluginSearchPath(directories: [untrusted, trusted], trustedDirectories: [trusted]), policy: policy)
    }

    /// The conflicts of the only refusal, as text.
    func conflicts(of result: PluginDiscovery.Result) throws -> [String] {
        #expect(result.refusals.count == 1)
        let refusal = try #require(result.refusals.first)
        guard case .takeover(let conflicts) = refusal.reason else { return ["not a takeover: \(refusal.reason)"] }
        return conflicts.map(\.description)
    }

    @Test func aMIMETypeTakeoverIsRefused() throws {
        try root.write("untrusted/mime.json", manifestJSON(name: "mime", mimeType: "IMAGE/PNG", signature: "0102"))
        let result = discover()
        #expect(result.plugins.map(\.name) == ["curl", "effects", "png"])
        #expect(
            try conflicts(of: result) == [
                "MIME type 'IMAGE/PNG' (against MIME type 'image/png') of trusted plugin 'png'"
            ])
        #expect(result.faults.isEmpty)
    }

    @Test func aLoaderSchemeTakeoverIsRefused() throws {
        try root.write(
            "untrusted/sneaky.json",
            """
            { "name": "sneaky", "version": "1.0.0", "abi_version": 1, "library": "libsneaky.so",
              "loader": { "schemes": ["gopher", "HTTPS"] } }
            """)
        #expect(
            try conflicts(of: discover()) == [
                "loader scheme 'HTTPS' (against loader scheme 'https') of trusted plugin 'curl'"
            ])
    }

    @Test func aTransformerNameTakeoverIsRefused() throws {
        try root.write(
            "untrusted/tint.json",
            """
            { "name": "tint", "version": "1.0.0", "abi_version": 1, "library": "libtint.so",
              "transformer": { "names": ["warm", "sepia"] } }
            """)
        #expect(try conflicts(of: discover()) == ["transformer name 'sepia' of trusted plugin 'effects'"])
    }

    @Test func everyConflictIsListedInManifestOrder() throws {
        try root.write(
            "untrusted/png.json",
            manifestJSON(name: "png", format: "png", mimeType: "image/png", extensions: ["png"], signature: "????"))
        let result = discover()
        #expect(
            try conflicts(of: result) == [
                "plugin name 'png' of trusted plugin 'png'", "format 'png' of trusted plugin 'png'",
                "MIME type 'image/png' of trusted plugin 'png'", "extension 'png' of trusted plugin 'png'",
                "signature ???? (against signature 89504e470d0a1a0a) of trusted plugin 'png'",
            ])
        #expect(result.plugins.first { $0.name == "png" }?.manifestPath == trusted + "/png.json")
        #expect(
            result.refusals.first?.description.hasPrefix(
                untrusted + "/png.json: plugin 'png': untrusted plugin tried to take over plugin name 'png'") == true)
        #expect(
            result.refusals.first?.detail.hasSuffix(
                "(allow it by name with --allow-override png or WEBIMAGE_PLUGIN_ALLOW_OVERRIDE=png)") == true)
    }

    @Test func anUntrustedPluginMayAddWhatNoTrustedPluginServes() throws {
        try root.write("untrusted/pnm.json", manifestJSON(name: "pnm", signature: "5036"))
        let result = discover()
        #expect(result.plugins.map(\.name) == ["pnm", "curl", "effects", "png"])
        #expect(result.refusals.isEmpty)
        #expect(result.faults.isEmpty)
    }

    @Test func anOverrideIsAllowedForTheNamedPluginOnly() throws {
        try root.write("untrusted/a.json", manifestJSON(name: "a", extensions: ["png"]))
        try root.write("untrusted/b.json", manifestJSON(name: "b", extensions: ["png"]))
        let result = discover(PluginPolicy(overridesAllowed: ["a"]))
        #expect(result.plugins.map(\.name) == ["a", "curl", "effects", "png"])
        #expect(result.refusals.map(\.plugin.name) == ["b"])
    }

    @Test func anOverriddenTrustedPluginIsReportedAndFreesItsClaims() throws {
        try root.write("untrusted/png.json", manifestJSON(name: "png", signature: "0102"))
        try root.write("untrusted/other.json", manifestJSON(name: "other", extensions: ["png"]))
        let result = discover(PluginPolicy(overridesAllowed: ["png"]))
        #expect(
            result.plugins.map(\.manifestPath) == [
                untrusted + "/other.json", untrusted + "/png.json", trusted + "/curl.json", trusted + "/effects.json",
            ])
        #expect(result.refusals.map(\.plugin.manifestPath) == [trusted + "/png.json"])
        #expect(result.refusals.map(\.reason) == [.overridden(by: "png")])
        #expect(!result.refusals[0].isWarning)
        #expect(result.faults.isEmpty)
    }

    @Test func denyAndAllowListsApplyToTrustedPluginsTooInSearchOrder() throws {
        try root.write("untrusted/pnm.json", manifestJSON(name: "pnm", signature: "5036"))
        let result = discover(PluginPolicy(allowedPlugins: ["pnm", "png", "curl"], deniedPlugins: ["png"]))
        #expect(result.plugins.map(\.name) == ["pnm", "curl"])
        #expect(result.refusals.map(\.plugin.name) == ["effects", "png"])
        #expect(result.refusals.map(\.reason) == [.notAllowed, .denied])
    }

    @Test func theFirstOfTwoTrustedPluginsOfOneNameWins() throws {
        let second = try root.folder("second")
        try root.write("second/png.json", manifestJSON(name: "png", version: "2.0.0"))
        let result = PluginDiscovery.discover(
            in: PluginSearchPath(directories: [trusted, second], trustedDirectories: [trusted, second]))
        #expect(result.plugins.first { $0.name == "png" }?.manifestPath == trusted + "/png.json")
        #expect(result.faults.map(\.reason) == [.duplicateName])
        #expect(result.faults.map(\.file) == [second + "/png.json"])
        #expect(result.refusals.isEmpty)
    }
}
