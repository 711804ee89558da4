import Testing
import WebImageCore
import WebImageServer

@Suite("ImageProcessingPlan")
struct ImageProcessingPlanTests {
    /// A host without plugins.
    let host = PluginHost(searchPath: PluginSearchPath(directories: [], trustedDirectories: []))

    private func plan(_ options: String) throws -> ImageProcessingPlan {
        let parser = try ProcessingURLParser(pluginTransformers: ["sepia"])
        return try ImageProcessingPlan(
            try parser.parse(path: "/s/\(options)/plain/http://127.0.0.1/a.png@webp"), host: host)
    }

    @Test("fit without enlarge is a decode-time thumbnail; nothing else is asked for by default")
    func fitThumbnail() throws {
        let plan = try plan("rs:fit:256:128")
        #expect(plan.thumbnail == ThumbnailSize(width: 256, height: 128, preservesAspectRatio: true))
        #expect(plan.transformers.isEmpty)
        #expect(plan.quality == nil)
        #expect(plan.backgroundColor == nil)
        #expect(plan.outputExtension == "webp")
    }

    @Test(
        "a resize without a width or a height asks for nothing, whatever its type and flags",
        arguments: ["rs:fill:0:0:1:1", "rs:auto", "el:1"])
    func noResize(options: String) throws {
        let plan = try plan(options)
        #expect(plan.thumbnail == nil)
        #expect(plan.transformers.isEmpty)
    }

    @Test(
        "enlarging resizes are resizing transformers; rotation, transformers and blur follow in that order",
        arguments: [
            ("rs:fit:256:128:1", "Resize(256x128,fit)"),
            ("rs:fill:256:128:1", "Resize(256x128,fill-crop)"),
            ("rs:force:256:128:1", "Resize(256x128,fill)"),
            ("rot:90", "Rotate(270,fit)"),
            ("rot:270", "Rotate(90,fit)"),
            ("bl:3/flip:h/rot:180/tint:ff0000", "Rotate(180,fit)-Flip(h)-Tint(#FF0000FF)-Blur(3)"),
            ("crop:0,0,10,10/round-corner:4", "Crop(0,0,10,10)-RoundCorner(4,all)"),
        ])
    func transformers(options: String, key: String) throws {
        let plan = try plan(options)
        #expect(plan.thumbnail == nil)
        #expect(TransformerPipeline(plan.transformers).transformerKey == key)
    }

    @Test("quality and background reach the encoder's terms")
    func encoderSettings() throws {
        let plan = try plan("q:80/bg:102030")
        #expect(plan.quality == 0.8)
        #expect(plan.backgroundColor == 0x1020_30FF)
    }

    @Test(
        "what the core cannot do with imgproxy's meaning yet is one unsupported error",
        arguments: [
            ("rs:fill-down:10:10", "resizing type fill-down is not supported yet"),
            ("rs:auto:10:10", "resizing type auto is not supported yet"),
            ("rs:fill:10:10", "resizing type fill without enlarge is not supported yet"),
            ("rs:force:10:10", "resizing type force without enlarge is not supported yet"),
            ("w:100", "a resize with the width or the height 0 (computed from the aspect ratio) is not supported yet"),
            ("rs:fit:10:10:0:1", "extend (padding the result to the requested size) is not supported yet"),
        ])
    func unsupported(options: String, message: String) throws {
        #expect(throws: ProcessingURLError(.unsupported, message)) { try plan(options) }
    }

    @Test("a plugin transformer that no plugin in the host makes is an invalid option")
    func missingPlugin() throws {
        #expect(
            throws: ProcessingURLError(
                .invalidArgument, "invalid option 'sepia': no transformer plugin makes 'sepia'")
        ) { try plan("sepia:percent=80") }
    }
}
