import Dispatch
import Testing
import WebImageCore
import WebImageTestSupport

/// `Examples/ThirdPartyTransformer`, grayscale, sepia and pixelate in plain C, built with
/// one `cc` line and used through the plugin host as an ``ImageTransformer``.
@Suite(.ownThread) struct ThirdPartyTransformerTests {
    let folder: PluginsFolder
    let host: PluginHost

    init() throws {
        folder = try PluginsFolder()
        try folder.addThirdPartyTransformerExample()
        host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
    }

    /// 2×2 RGBA8: orange, dark blue-grey, red, and a fully transparent black pixel.
    func sample() throws -> PixelBuffer {
        let pixels: [[UInt8]] = [[200, 100, 50, 255], [10, 20, 30, 255], [255, 0, 0, 255], [0, 0, 0, 0]]
        let buffer = try PixelBuffer(width: 2, height: 2, format: .rgba8)
        for (index, pixel) in pixels.enumerated() {
            let row = buffer.row(index / 2).assumingMemoryBound(to: UInt8.self)
            for channel in 0..<4 { row[(index % 2) * 4 + channel] = pixel[channel] }
        }
        return buffer
    }

    @Test func theExampleOpensAsATransformerPlugin() throws {
        #expect(host.verify().isEmpty)
        let factory = try host.adapter(PluginTransformerFactory.self, named: "effects")
        #expect(factory.names == ["grayscale", "sepia", "pixelate"])
        #expect(factory.isThreadSafe)
        #expect(!factory.acceptsRGBA16)
        #expect(host.transformerNames == ["grayscale", "sepia", "pixelate"])
    }

    @Test func grayscaleUsesBT709LumaAndKeepsAlpha() throws {
        let transformer = try host.makeTransformer(named: "grayscale")
        #expect(transformer.transformerKey == "effects.grayscale")
        let output = try transformer.transform(try sample())
        #expect(output.format == .rgba8)
        #expect(
            output.packedBytes() == [117, 117, 117, 255, 19, 19, 19, 255, 54, 54, 54, 255, 0, 0, 0, 0])
    }

    @Test func sepiaMovesHalfWayWithAParameter() throws {
        let half = try host.makeTransformer(named: "sepia", parameters: [(key: "percent", value: "50")])
        #expect(half.transformerKey == "effects.sepia(50)")
        #expect(
            try half.transform(try sample()).packedBytes() == [
                183, 124, 82, 255, 18, 21, 24, 255, 178, 45, 35, 255, 0, 0, 0, 0,
            ])
        let full = try host.makeTransformer(named: "sepia")
        #expect(full.transformerKey == "effects.sepia(100)")
        #expect(try full.transform(try sample()).channels(x: 0, y: 0) == [165, 147, 114, 255])
    }

    @Test func pixelateAveragesInPremultipliedSpace() throws {
        let transformer = try host.makeTransformer(named: "pixelate", parameters: [(key: "block", value: "2")])
        #expect(transformer.transformerKey == "effects.pixelate(2)")
        let output = try transformer.transform(try sample())
        // The transparent pixel adds no black: (200+10+255)/3, (100+20+0)/3, (50+30+0)/3, alpha 765/4.
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            #expect(output.channels(x: x, y: y) == [155, 40, 27, 191])
        }
    }

    @Test func sixteenBitImagesAreTransformedInEightBitsAndStaySixteenBit() throws {
        let image = try PixelBuffer(width: 1, height: 1, format: .rgba16)
        let channels = image.row(0).assumingMemoryBound(to: UInt16.self)
        for (index, value) in [UInt16(51400), 25700, 12850, 65535].enumerated() { channels[index] = value }
        let output = try host.makeTransformer(named: "grayscale").transform(image)
        #expect(output.format == .rgba16)
        #expect(output.channels(x: 0, y: 0) == [30069, 30069, 30069, 65535])
    }

    @Test func keysJoinAPipelineAndACacheKey() throws {
        let pipeline = TransformerPipeline([
            FlippingTransformer(horizontal: true, vertical: false),
            try host.makeTransformer(named: "sepia", parameters: [(key: "percent", value: "50")]),
        ])
        #expect(pipeline.transformerKey == "Flip(h)-effects.sepia(50)")
        #expect(
            CacheKeys.transformedKey("http://x/image.png?a=b", transformerKey: pipeline.transformerKey)
                == "http://x/image.png?a=b Flip(h)-effects.sepia(50)")
    }

    @Test(arguments: [
        ("sepia", [(key: "percent", value: "101")], "percent=101 is not a whole number in 0...100"),
        ("sepia", [(key: "amount", value: "3")], "sepia takes only percent, not 'amount'"),
        ("pixelate", [(key: "block", value: "0")], "block=0 is not a whole number in 1...1024"),
        ("grayscale", [(key: "level", value: "2")], "grayscale takes no parameters, not 'level'"),
    ])
    func badParametersAreThePluginsReason(name: String, parameters: [(key: String, value: String)], reason: String)
        throws
    {
        let error = try #require(throws: ImageTransformError.self) {
            try host.makeTransformer(named: name, parameters: parameters)
        }
        #expect(error.kind == .invalidParameter)
        #expect(error.message == reason)
    }

    @Test func unknownNamesAreUnknownTransformers() throws {
        let fromHost = try #require(throws: ImageTransformError.self) { try host.makeTransformer(named: "vignette") }
        #expect(fromHost.kind == .unknownTransformer)
        #expect(fromHost.message == "no transformer plugin makes 'vignette'")
        let factory = try host.adapter(PluginTransformerFactory.self, named: "effects")
        let fromFactory = try #require(throws: ImageTransformError.self) {
            try factory.makeTransformer(name: "vignette")
        }
        #expect(fromFactory.kind == .unknownTransformer)
        #expect(
            fromFactory.message
                == "plugin 'effects' makes no transformer named 'vignette' (it makes grayscale, sepia, pixelate)")
    }

    @Test func oneInstanceServesConcurrentTransforms() throws {
        let transformer = try host.makeTransformer(named: "pixelate", parameters: [(key: "block", value: "2")])
        let image = try sample()
        let outputs = TrackedMutex<[[UInt8]]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let bytes = (try? transformer.transform(image).packedBytes()) ?? []
            outputs.withLock { $0.append(bytes) }
        }
        #expect(
            outputs.withLock { Set($0) } == [Array(repeating: [155, 40, 27, 191] as [UInt8], count: 4).flatMap { $0 }])
    }

    @Test func aManifestListingOtherNamesIsAFault() throws {
        try folder.write(
            "effects.json",
            """
            { "name": "effects", "version": "1.0.0", "abi_version": 1, "library": "libwebimage-effects.so",
              "transformer": { "names": ["grayscale", "sepia"] } }
            """)
        let host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
        let fault = try #require(throws: PluginFault.self) { try host.open("effects") }
        #expect(fault.reason == .descriptorMismatch)
        #expect(
            fault.detail
                == "the library makes transformers [grayscale, sepia, pixelate], the manifest lists [grayscale, sepia]")
    }
}
