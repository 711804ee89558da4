import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

/// Every bundled coder and the third-party PNM example, loaded from their `.so` files,
/// pass ``CoderVerifier`` on valid files of each of their formats.
@Suite(.ownThread) struct CoderConformanceTests {
    /// Fixtures under `Tests/Fixtures` per plugin: small valid files covering each format's variants.
    static let fixtures: [(plugin: String, files: [String])] = [
        (
            "png",
            [
                "png/rgba8.png", "png/rgba8-adam7.png", "png/palette8-adam7.png", "png/rgb16.png", "png/graya16.png",
                "png/gray1.png", "png/rgb8-trns.png", "apng/anim.apng", "apng/hidden-default.apng",
            ]
        ),
        (
            "jpeg",
            ["jpeg/baseline.jpg", "jpeg/progressive.jpg", "jpeg/gray.jpg", "jpeg/cmyk.jpg", "jpeg/orientation-6.jpg"]
        ),
        ("gif", ["gif/static.gif", "gif/anim.gif", "gif/loop-forever.gif", "gif/compressed.gif"]),
        (
            "webp",
            ["webp/lossy.webp", "webp/lossy-alpha.webp", "webp/lossless-alpha.webp", "webp/animated.webp"]
        ),
        (
            "heif",
            [
                "heif/rgb.heic", "heif/rotated.heic", "heif/deep10.heic", "heif/thumbnail.heic", "heif/alpha.avif",
                "heif/deep12.avif",
            ]
        ),
    ]

    /// Generous: the machine running the tests may be busy.
    static let options: VerifierOptions = {
        var options = VerifierOptions()
        options.timeLimit = .seconds(120)
        return options
    }()

    let folder: PluginsFolder
    let host: PluginHost

    init() throws {
        folder = try PluginsFolder()
        try folder.addAllBundled()
        try folder.addThirdPartyExample()
        host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
    }

    @Test(arguments: fixtures.map(\.plugin))
    func bundledCoderConforms(plugin: String) throws {
        let files = try #require(Self.fixtures.first { $0.plugin == plugin }).files
        let coder = try #require(try host.open(plugin).coder)
        let fixtures = try files.map { VerifierFixture(name: $0, bytes: try Fixture.bytes($0)) }
        let report = CoderVerifier.verify(coder: coder, fixtures: fixtures, options: Self.options)
        #expect(report.failures.map(\.description) == [])
        #expect(report.skipped == [])
    }

    @Test func thirdPartyPNMCoderConforms() throws {
        let coder = try #require(try host.open("pnm").coder)
        var gradient: [UInt8] = []
        for y in 0..<7 {
            for x in 0..<13 { gradient += [UInt8(x * 19), UInt8(y * 36), 200] }
        }
        var gray16: [UInt8] = []
        for value in 0..<12 { gray16 += [UInt8(value * 20), UInt8(value)] }
        let fixtures = [
            VerifierFixture(name: "rgb.ppm", bytes: Array("P6\n13 7\n255\n".utf8) + gradient),
            VerifierFixture(name: "gray16.pgm", bytes: Array("P5 4 3 65535\n".utf8) + gray16),
            VerifierFixture(name: "ascii.pgm", bytes: Array("P2\n# a comment\n3 2\n9\n0 1 2\n3 4 9\n".utf8)),
        ]
        let report = CoderVerifier.verify(coder: coder, fixtures: fixtures, options: Self.options)
        #expect(report.failures.map(\.description) == [])
        #expect(report.skipped == [])
    }
}
