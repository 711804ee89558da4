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
        "enlarging fills and forces are resizing transformers; rotation, transformers and blur follow in that order",
        arguments: [
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
        "a fit with one side 0 is a thumbnail; with enlarge, a transformer enlarges what the thumbnail leaves smaller",
        arguments: [
            ("w:100", ThumbnailSize(width: 100, height: 0), ""),
            ("rs:fill:0:300", ThumbnailSize(width: 0, height: 300), ""),
            ("rs:auto:100:0:1", ThumbnailSize(width: 100, height: 0), "ImgproxyResize(fit,100x0,enlarge)"),
            ("rs:fit:256:128:1", ThumbnailSize(width: 256, height: 128), "ImgproxyResize(fit,256x128,enlarge)"),
            ("rs:fit:256:128/rot:90", ThumbnailSize(width: 128, height: 256), "Rotate(270,fit)"),
        ])
    func fitThumbnails(options: String, thumbnail: ThumbnailSize, key: String) throws {
        let plan = try plan(options)
        #expect(plan.thumbnail == thumbnail)
        #expect(TransformerPipeline(plan.transformers).transformerKey == key)
    }

    @Test(
        "resizes whose size depends on the source's are done after decoding; extend pads last",
        arguments: [
            ("rs:fill:10:20", "ImgproxyResize(fill,10x20)"),
            ("rs:fill-down:10:20:1", "ImgproxyResize(fill-down,10x20,enlarge)"),
            ("rs:force:10:0:1", "ImgproxyResize(force,10x0,enlarge)"),
            ("rs:auto:10:20", "ImgproxyResize(auto,10x20)"),
            ("rs:force:10:20/ex:1/bl:2", "ImgproxyResize(force,10x20)-Blur(2)-Pad(10x20,#00000000)"),
            ("rs:fill:10:20:1:1/bg:ff0000", "Resize(10x20,fill-crop)-Pad(10x20,#FF0000FF)"),
        ])
    func sourceDependentResizes(options: String, key: String) throws {
        let plan = try plan(options)
        #expect(plan.thumbnail == nil)
        #expect(TransformerPipeline(plan.transformers).transformerKey == key)
    }

    @Test("extend takes imgproxy's centre gravity only")
    func extendGravity() throws {
        #expect(try plan("ex:1:ce/w:10").transformers.last?.transformerKey == "Pad(10x0,#00000000)")
        #expect(
            throws: ProcessingURLError(
                .unsupported, "invalid option 'ex:1:no': extending with a gravity other than ce is not supported yet")
        ) { try plan("ex:1:no") }
        #expect(
            throws: ProcessingURLError(.invalidArgument, "invalid option 'ex:1:up': 'up' is not a gravity")
        ) { try plan("ex:1:up") }
    }

    @Test("a plugin transformer that no plugin in the host makes is an invalid option")
    func missingPlugin() throws {
        #expect(
            throws: ProcessingURLError(
                .invalidArgument, "invalid option 'sepia': no transformer plugin makes 'sepia'")
        ) { try plan("sepia:percent=80") }
    }
}
