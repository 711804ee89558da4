import Foundation
import Synchronization
import Testing
import WebImageCore
import WebImageServer
import WebImageTestSupport

@Suite("ImageServerSettings")
struct ImageServerSettingsTests {
    @Test("the file, then the environment, then flags: each later one wins, lists replace")
    func precedence() throws {
        let file = Data(
            #"""
            {"listen": "0.0.0.0:9000", "max-concurrent": 3, "allow-private-sources": true,
             "allow-source": ["https://a.example/", "https://*.b.example/"],
             "preset": {"thumb": "rs:fill:64:64", "default": "q:70"}, "request-timeout": 2.5,
             "source-max-age": 60}
            """#.utf8)
        var configuration = try ImageServerSettings.applyingJSON(file, to: ImageServerConfiguration(), file: "s.json")
        #expect(configuration.listen == "0.0.0.0:9000")
        #expect(configuration.maxConcurrent == 3)
        #expect(configuration.allowPrivateSources)
        #expect(configuration.allowedSources == ["https://a.example/", "https://*.b.example/"])
        #expect(configuration.presets == ["thumb": "rs:fill:64:64", "default": "q:70"])
        #expect(configuration.requestTimeout == 2.5)
        #expect(configuration.sourceMaxAge == 60)
        configuration = try ImageServerSettings.applyingEnvironment(
            [
                "WEBIMAGE_SERVE_MAX_CONCURRENT": "5", "WEBIMAGE_SERVE_KEY": "00ff,aa",
                "WEBIMAGE_SERVE_SALT": "01,02", "WEBIMAGE_SERVE_ALLOW_PRIVATE_SOURCES": "false", "OTHER": "x",
                "WEBIMAGE_SERVE_SOURCE_MAX_AGE": "30",
            ], to: configuration)
        #expect(configuration.maxConcurrent == 5)
        #expect(configuration.keys == ["00ff", "aa"])
        #expect(configuration.salts == ["01", "02"])
        #expect(!configuration.allowPrivateSources)
        #expect(configuration.sourceMaxAge == 30)
        try ImageServerSettings.apply("max-concurrent", ["7"], to: &configuration, from: "--max-concurrent")
        try ImageServerSettings.apply(
            "allow-source", ["https://c.example/"], to: &configuration, from: "--allow-source")
        #expect(configuration.maxConcurrent == 7)
        #expect(configuration.allowedSources == ["https://c.example/"])
        try ImageServerSettings.apply("source-max-age", ["0"], to: &configuration, from: "--source-max-age")
        #expect(configuration.sourceMaxAge == 0)
        #expect(ImageServerConfiguration().sourceMaxAge == 3600)
        #expect(configuration.listen == "0.0.0.0:9000")
    }

    @Test(
        "a bad setting is one error naming where it came from",
        arguments: [
            (#"{"max-concurent": 3}"#, "s.json: unknown setting 'max-concurent'"),
            (#"{"max-concurrent": 0}"#, "s.json: max-concurrent must be at least 1, not '0'"),
            (#"{"max-queue": -1}"#, "s.json: max-queue must be a whole number, 0 or more, not '-1'"),
            (#"{"request-timeout": "soon"}"#, "s.json: request-timeout must be more than 0 seconds, not 'soon'"),
            (#"{"listen": ["a", "b"]}"#, "s.json: listen takes one value, not a list"),
            (#"{"source-max-age": -1}"#, "s.json: source-max-age must be 0 or more seconds, not '-1'"),
            (#"{"presets-only": "maybe"}"#, "s.json: presets-only must be true or false, not 'maybe'"),
            (#"{"preset": {"x": ["q:1"]}}"#, "s.json: preset 'x' must be a string of options"),
            (#"{"preset": ["nameless"]}"#, "s.json: preset must be NAME=OPTIONS, not 'nameless'"),
        ])
    func badSettings(json: String, message: String) {
        #expect(throws: ImageServerConfigurationError(message)) {
            _ = try ImageServerSettings.applyingJSON(Data(json.utf8), to: ImageServerConfiguration(), file: "s.json")
        }
    }

    @Test("every setting has a variable, and every name is one the settings take")
    func names() throws {
        #expect(
            ImageServerSettings.environmentVariable(of: "cache-control-max-age")
                == "WEBIMAGE_SERVE_CACHE_CONTROL_MAX_AGE")
        for name in ImageServerSettings.names {
            var configuration = ImageServerConfiguration()
            let value =
                ["key", "salt", "listen", "cache-dir", "redis-url", "allow-source"].contains(name)
                ? "x" : (name == "preset" ? "a=q:1" : "1")
            try ImageServerSettings.apply(name, [value], to: &configuration, from: "test")
            #expect(configuration != ImageServerConfiguration() || name == "max-concurrent", "\(name)")
        }
    }
}

@Suite("FormatNegotiation")
struct FormatNegotiationTests {
    @Test(
        "what Accept allows: listed types with a quality above 0; wildcards do not count",
        arguments: [
            ("image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8", true, true, "auto+avif+webp"),
            ("image/avif,image/webp,*/*", false, true, "auto+webp"),
            ("image/webp;q=0, image/avif; q=0.5", true, false, "auto+avif"),
            ("IMAGE/WEBP", false, true, "auto+webp"),
            ("image/*,*/*;q=0.8", true, false, "auto"),
            ("", true, false, "auto"),
        ])
    func accept(accept: String, offersAVIF: Bool, webp: Bool, key: String) {
        let negotiation = FormatNegotiation(accept: accept, offersAVIF: offersAVIF)
        #expect(negotiation.webp == webp)
        #expect(negotiation.keyPart == key)
    }

    @Test("no Accept header accepts neither")
    func absent() {
        #expect(FormatNegotiation(accept: nil, offersAVIF: true).keyPart == "auto")
    }

    /// Whether an image has transparency takes a scan of its pixels: a thumbnail miss spent
    /// about 1 % of its time there even when WebP was accepted.
    @Test("transparency is asked only when the choice is between PNG and JPEG")
    func transparencyAskedOnlyForPNGOrJPEG() throws {
        let plugins = try PluginsFolder()
        try plugins.addAllBundled()
        let coders = PluginHost(
            searchPath: PluginSearchPath(directories: [plugins.path], trustedDirectories: [plugins.path])
        ).makeCodersManager()
        let asked = TrackedMutex(0)
        func transparent(_ answer: Bool) -> Bool {
            asked.withLock { $0 += 1 }
            return answer
        }
        func format(_ accept: String?, animated: Bool = false, transparent answer: Bool) -> String {
            FormatNegotiation(accept: accept, offersAVIF: true).format(
                sourceFormat: "gif", isAnimated: animated, hasAlpha: transparent(answer), coders: coders)
        }
        #expect(format("image/webp", transparent: true) == "webp")
        #expect(format("image/avif", transparent: true) == "avif")
        #expect(format(nil, animated: true, transparent: true) == "gif")
        #expect(asked.withLock { $0 } == 0)
        #expect(format(nil, transparent: true) == "png")
        #expect(format("image/*", transparent: false) == "jpeg")
        #expect(asked.withLock { $0 } == 2)
    }
}
