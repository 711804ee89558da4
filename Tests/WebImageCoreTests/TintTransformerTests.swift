import Testing
import WebImageCore

@Suite struct TintTransformerTests {
    @Test func halfTransparentTintMixesColourAndKeepsAlpha() throws {
        let image = try TestPixels.rgba8(width: 3, height: 1) { x, _ in
            [[0, 0, 255, 255], [0, 0, 255, 128], [10, 20, 30, 0]][x]
        }
        let output = try TintTransformer(color: RGBAColor(hex: "#FF000080")).transform(image)
        // 255 × 128/255 = 128 added; 255 × (1 − 128/255) = 127 kept.
        #expect(output.channels(x: 0, y: 0) == [128, 0, 127, 255])
        #expect(output.channels(x: 1, y: 0) == [128, 0, 127, 128])
        #expect(output.channels(x: 2, y: 0) == [10, 20, 30, 0])
    }

    @Test func opaqueTintReplacesColourOfVisiblePixels() throws {
        let image = try TestPixels.rgba8(width: 2, height: 1) { x, _ in [[90, 80, 70, 255], [90, 80, 70, 1]][x] }
        let output = try TintTransformer(color: RGBAColor(hex: "#00FF00")).transform(image)
        #expect(output.channels(x: 0, y: 0) == [0, 255, 0, 255])
        #expect(output.channels(x: 1, y: 0) == [0, 255, 0, 1])
    }

    @Test func rgba16WidensTheColour() throws {
        let image = try TestPixels.rgba16(width: 2, height: 1) { x, _ in
            [[0, 0, 65535, 65535], [0, 0, 0, 0]][x]
        }
        let output = try TintTransformer(color: RGBAColor(hex: "#FF8000")).transform(image)
        #expect(output.channels(x: 0, y: 0) == [65535, 32896, 0, 65535])
        #expect(output.channels(x: 1, y: 0) == [0, 0, 0, 0])
    }

    @Test func key() throws {
        #expect(TintTransformer(color: try RGBAColor(hex: "#ff0000")).transformerKey == "Tint(#FF0000FF)")
        #expect(TintTransformer(color: try RGBAColor(hex: "#12345678")).transformerKey == "Tint(#12345678)")
    }
}
