import Testing
import WebImageCore

@Suite struct PaddingTransformerTests {
    @Test func padsAroundTheCentredImageWithTheColour() throws {
        let color = try RGBAColor(hex: "#FF000080")
        let output = try PaddingTransformer(width: 5, height: 3, color: color)
            .transform(try TestPixels.labelled(width: 2, height: 1))
        #expect(output.width == 5 && output.height == 3)
        // The odd column goes to the right: the image lies at (1, 1).
        #expect(output.channels(x: 0, y: 1) == [255, 0, 0, 128])
        #expect(output.channels(x: 1, y: 1) == [0, 0, 0, 255])
        #expect(output.channels(x: 2, y: 1) == [1, 0, 0, 255])
        #expect(output.channels(x: 3, y: 1) == [255, 0, 0, 128])
        #expect(output.channels(x: 4, y: 2) == [255, 0, 0, 128])
    }

    @Test func transparentByDefault() throws {
        let output = try PaddingTransformer(width: 3, height: 1).transform(try TestPixels.labelled(width: 1, height: 1))
        #expect(output.channels(x: 0, y: 0) == [0, 0, 0, 0])
        #expect(output.channels(x: 1, y: 0) == [0, 0, 0, 255])
    }

    @Test func rgba16WidensTheColourExactly() throws {
        let output = try PaddingTransformer(width: 3, height: 1, color: try RGBAColor(hex: "#0A141E28"))
            .transform(try TestPixels.labelled16(width: 1, height: 1))
        #expect(output.format == .rgba16)
        #expect(output.channels(x: 0, y: 0) == [10 * 257, 20 * 257, 30 * 257, 40 * 257])
        #expect(output.channels(x: 1, y: 0) == [0, 0, 0, 65535])
    }

    @Test func aSideTheImageReachesOrOfZeroIsKept() throws {
        let image = try TestPixels.labelled(width: 4, height: 3)
        let output = try PaddingTransformer(width: 0, height: 5).transform(image)
        #expect(output.width == 4 && output.height == 5)
        #expect(TestPixels.labels(output)[1] == [0, 1, 2, 3])
        #expect(try PaddingTransformer(width: 2, height: 3).transform(image) === image)
    }

    @Test func footprintIsThePaddedOutput() throws {
        let padding = try PaddingTransformer(width: 10, height: 0)
        #expect(padding.footprint(width: 4, height: 3, format: .rgba8) == .output(width: 10, height: 3, format: .rgba8))
        #expect(padding.footprint(width: 12, height: 3, format: .rgba8) == .unchanged(width: 12, height: 3))
    }

    @Test func keyAndNegativeSizes() throws {
        #expect(try PaddingTransformer(width: 300, height: 0).transformerKey == "Pad(300x0,#00000000)")
        #expect(
            throws: ImageTransformError(.invalidParameter, "padding needs a size of at least 0, not -1×2")
        ) { try PaddingTransformer(width: -1, height: 2) }
    }
}
