import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// `--transform NAME[:k=v,...]` with a transformer from a plugin: the C example
/// `Examples/ThirdPartyTransformer`, built into the plugins folder beside the bundled coders.
@Suite("webimage convert --transform with a plugin transformer", .ownThread)
struct ConvertPluginTransformTests {
    let folder: PluginsFolder

    init() throws {
        folder = try PluginsFolder.make()
        try folder.addThirdPartyTransformerExample()
    }

    @Test("a plugin transformer runs in the pipeline, with its key behind the plugin's name")
    func pluginTransformerInThePipeline() async throws {
        let output = folder.file("out.png")
        let result = try await WebImageProcess.run(
            [
                "convert", Fixture.path("png/rgba8.png"), output, "--transform", "sepia:percent=50",
                "--transform", "flip:h", "--json",
            ], plugins: folder)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(try result.json()["transformer_key"] as? String == "effects.sepia(50)-Flip(h)")

        let host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
        let manager = host.makeCodersManager()
        let original = try manager.decode(try Fixture.bytes("png/rgba8.png"))
        let expected = try TransformerPipeline([
            try host.makeTransformer(named: "sepia", parameters: [(key: "percent", value: "50")]),
            FlippingTransformer(horizontal: true, vertical: false),
        ]).transform(original.pixels)
        let written = try manager.decode(Array(try Data(contentsOf: URL(fileURLWithPath: output))))
        #expect(written.pixels.packedBytes() == expected.packedBytes())
    }

    @Test(
        "plugin transformer errors are one line",
        arguments: [
            (
                "vignette",
                "error: no transformer named 'vignette' in --transform 'vignette'; the built-in transformers are "
                    + "resize, crop, round-corner, flip, rotate, tint, blur; plugins make grayscale, sepia, pixelate"
            ),
            (
                "sepia:percent=200",
                "error: invalid --transform 'sepia:percent=200': percent=200 is not a whole number in 0...100"
            ),
            ("sepia:percent", "error: invalid --transform 'sepia:percent': expected sepia:k=v,..."),
            (
                "pixelate:block=4:extra",
                "error: invalid --transform 'pixelate:block=4:extra': expected pixelate:k=v,..."
            ),
        ])
    func pluginTransformerErrors(spec: String, message: String) async throws {
        let result = try await WebImageProcess.run(
            ["convert", Fixture.path("png/rgba8.png"), folder.file("out.png"), "--transform", spec], plugins: folder)
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.errorLines == [message])
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.png")))
    }
}
