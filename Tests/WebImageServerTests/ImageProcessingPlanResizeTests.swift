import Testing
import WebImageCore
import WebImageServer
import WebImageTestSupport

/// imgproxy's resize carried out: a plan's thumbnail and transformers run on a PNG made in
/// the test and decoded by the PNG plugin, as the image manager runs them.
@Suite("ImageProcessingPlan resizes")
struct ImageProcessingPlanResizeTests {
    let folder: PluginsFolder
    let host: PluginHost

    init() throws {
        folder = try PluginsFolder()
        try folder.addBundled(manifest: "png.json", library: "libWebImagePNG.so")
        host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
    }

    /// A `width` × `height` opaque PNG in three bands: red on the left eighth, blue on the
    /// right eighth, green between.
    private func bands(width: Int, height: Int) throws -> [UInt8] {
        let pixels = try PixelBuffer(width: width, height: height, format: .rgba8)
        for y in 0..<height {
            let row = pixels.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                let band: [UInt8] =
                    x < width / 8 ? [255, 0, 0, 255] : x >= width - width / 8 ? [0, 0, 255, 255] : [0, 255, 0, 255]
                for channel in 0..<4 { row[x * 4 + channel] = band[channel] }
            }
        }
        return try host.makeCodersManager().encode(pixels, options: EncodeOptions(format: "png")).bytes
    }

    /// The image that `options` make of a `width` × `height` source: decoded to the plan's
    /// thumbnail, then through the plan's transformers.
    private func run(_ options: String, width: Int, height: Int) throws -> PixelBuffer {
        let parser = try ProcessingURLParser()
        let plan = try ImageProcessingPlan(
            try parser.parse(path: "/s/\(options)/plain/http://127.0.0.1/a.png@png"), host: host)
        let decoded = try host.makeCodersManager().decode(
            try bands(width: width, height: height), options: DecodeOptions(thumbnail: plan.thumbnail))
        return try TransformerPipeline(plan.transformers).transform(decoded.pixels)
    }

    /// A source larger than the box 150 × 100 (or its width 150) in both directions.
    static let larger: [(String, Int, Int)] = [
        ("rs:fit:150:100", 150, 75), ("rs:fit:150:100:1", 150, 75),
        ("rs:fit:150:0", 150, 75), ("rs:fit:150:0:1", 150, 75),
        ("rs:fill:150:100", 150, 100), ("rs:fill:150:100:1", 150, 100),
        ("rs:fill:150:0", 150, 75), ("rs:fill:150:0:1", 150, 75),
        ("rs:fill-down:150:100", 150, 100), ("rs:fill-down:150:100:1", 150, 100),
        ("rs:fill-down:150:0", 150, 75), ("rs:fill-down:150:0:1", 150, 75),
        ("rs:force:150:100", 150, 100), ("rs:force:150:100:1", 150, 100),
        // force keeps the source's side where the box's is 0.
        ("rs:force:150:0", 150, 200), ("rs:force:150:0:1", 150, 200),
        ("rs:auto:150:100", 150, 100), ("rs:auto:150:100:1", 150, 100),
        ("rs:auto:150:0", 150, 75), ("rs:auto:150:0:1", 150, 75),
        // A box of the other orientation: auto fits.
        ("rs:auto:100:150", 100, 50), ("rs:auto:100:150:1", 100, 50),
        // The height alone, and the short options.
        ("rs:fit:0:100", 200, 100), ("rs:fill:0:100", 200, 100), ("rs:force:0:100", 400, 100),
        ("w:150", 150, 75), ("h:100/el:1", 200, 100), ("s:150:100", 150, 75),
    ]

    @Test("every type on a 400×200 source larger than the box", arguments: larger)
    func largerSource(options: String, width: Int, height: Int) throws {
        let image = try run(options, width: 400, height: 200)
        #expect((image.width, image.height) == (width, height))
    }

    /// A source smaller than the box 150 × 100 (or its width 150) in both directions.
    static let smaller: [(String, Int, Int)] = [
        ("rs:fit:150:100", 60, 30), ("rs:fit:150:100:1", 150, 75),
        ("rs:fit:150:0", 60, 30), ("rs:fit:150:0:1", 150, 75),
        ("rs:fill:150:100", 60, 30), ("rs:fill:150:100:1", 150, 100),
        ("rs:fill:150:0", 60, 30), ("rs:fill:150:0:1", 150, 75),
        // Never enlarged, cut to the box's aspect ratio 3:2.
        ("rs:fill-down:150:100", 45, 30), ("rs:fill-down:150:100:1", 150, 100),
        ("rs:fill-down:150:0", 60, 30), ("rs:fill-down:150:0:1", 150, 75),
        // Without enlarge, both scales shrink until neither grows: the box's proportions.
        ("rs:force:150:100", 45, 30), ("rs:force:150:100:1", 150, 100),
        ("rs:force:150:0", 60, 12), ("rs:force:150:0:1", 150, 30),
        ("rs:auto:150:100", 60, 30), ("rs:auto:150:100:1", 150, 100),
        ("rs:auto:150:0", 60, 30), ("rs:auto:150:0:1", 150, 75),
        ("rs:auto:100:150", 60, 30), ("rs:auto:100:150:1", 100, 50),
        ("rs:fit:0:100", 60, 30), ("rs:fit:0:100:1", 200, 100),
    ]

    @Test("every type on a 60×30 source smaller than the box", arguments: smaller)
    func smallerSource(options: String, width: Int, height: Int) throws {
        let image = try run(options, width: 60, height: 30)
        #expect((image.width, image.height) == (width, height))
    }

    @Test(
        "a quarter turn resizes into the box as shown after it, as imgproxy does",
        arguments: [("rs:fit:150:100/rot:90", 50, 100), ("rs:fill:150:100/rot:270", 150, 100)])
    func rotated(options: String, width: Int, height: Int) throws {
        let image = try run(options, width: 400, height: 200)
        #expect((image.width, image.height) == (width, height))
    }

    @Test(
        "fill cuts the centre: the red and blue edges of the source are gone",
        arguments: ["rs:fill:150:100", "rs:fill:150:100:1"])
    func fillCutsTheCentre(options: String) throws {
        let image = try run(options, width: 400, height: 200)
        #expect(image.channels(x: 0, y: 50) == [0, 255, 0, 255])
        #expect(image.channels(x: 149, y: 50) == [0, 255, 0, 255])
    }

    @Test("fill-down of a smaller source cuts its centre to the box's aspect ratio")
    func fillDownCutsTheCentre() throws {
        let image = try run("rs:fill-down:150:100", width: 60, height: 30)
        #expect((image.width, image.height) == (45, 30))
        #expect(image.channels(x: 0, y: 15) == [0, 255, 0, 255])
        #expect(image.channels(x: 44, y: 15) == [0, 255, 0, 255])
    }

    @Test(
        "extend pads a smaller result to the box, centred, transparent by default",
        arguments: [
            ("rs:fit:150:100:0:1", 150, 100), ("rs:fit:150:100/ex:1", 150, 100), ("s:150:100:0:1", 150, 100),
            ("rs:fill-down:150:100:0:1", 150, 100), ("rs:force:150:100/ex:true", 150, 100),
            ("w:150/ex:1", 150, 30), ("rs:fit:0:100/ex:1", 60, 100), ("rs:fit:150:100:1:1", 150, 100),
        ])
    func extendPads(options: String, width: Int, height: Int) throws {
        let image = try run(options, width: 60, height: 30)
        #expect((image.width, image.height) == (width, height))
        #expect(image.channels(x: 0, y: 0) == [0, 0, 0, 0])
        #expect(image.channels(x: width / 2, y: height / 2) == [0, 255, 0, 255])
    }

    @Test("extend pads with the background colour when one is given")
    func extendPadsWithTheBackground() throws {
        let image = try run("rs:fit:150:100:0:1/bg:ff8000", width: 60, height: 30)
        #expect((image.width, image.height) == (150, 100))
        #expect(image.channels(x: 0, y: 0) == [255, 128, 0, 255])
        #expect(image.channels(x: 149, y: 99) == [255, 128, 0, 255])
        // The source, 60×30, lies at (45, 35): its red left band starts there.
        #expect(image.channels(x: 44, y: 50) == [255, 128, 0, 255])
        #expect(image.channels(x: 45, y: 50) == [255, 0, 0, 255])
    }

    @Test("extend of a result that reaches the box changes nothing")
    func extendOfAFullResult() throws {
        let image = try run("rs:fill:150:100:0:1", width: 400, height: 200)
        #expect((image.width, image.height) == (150, 100))
        #expect(image.channels(x: 0, y: 0) == [0, 255, 0, 255])
    }

    @Test(
        "a huge requested size neither overflows nor allocates",
        arguments: [("rs:fit:10:9223372036854775807", 10, 5), ("rs:fill-down:1:9223372036854775807", 60, 30)])
    func hugeSizes(options: String, width: Int, height: Int) throws {
        let image = try run(options, width: 60, height: 30)
        #expect((image.width, image.height) == (width, height))
    }

    @Test(
        "an enlargement or padding to a huge size is refused as too large",
        arguments: [
            "rs:force:9223372036854775807:1:1", "rs:fill-down:1:9223372036854775807:1", "w:9223372036854775807/ex:1",
        ])
    func hugeOutputsAreTooLarge(options: String) throws {
        let error = try #require(throws: ImageTransformError.self) { try run(options, width: 60, height: 30) }
        #expect(error.kind == .tooLarge)
    }
}
