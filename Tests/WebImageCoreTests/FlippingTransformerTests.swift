import Testing
import WebImageCore

@Suite struct FlippingTransformerTests {
    @Test func horizontalReversesEachRow() throws {
        let output = try FlippingTransformer(horizontal: true, vertical: false)
            .transform(try TestPixels.labelled(width: 3, height: 2))
        #expect(TestPixels.labels(output) == [[2, 1, 0], [5, 4, 3]])
    }

    @Test func verticalReversesTheRows() throws {
        let output = try FlippingTransformer(horizontal: false, vertical: true)
            .transform(try TestPixels.labelled(width: 3, height: 2))
        #expect(TestPixels.labels(output) == [[3, 4, 5], [0, 1, 2]])
    }

    @Test func bothOnRGBA16() throws {
        let output = try FlippingTransformer(horizontal: true, vertical: true)
            .transform(try TestPixels.labelled16(width: 3, height: 2))
        #expect(output.format == .rgba16)
        #expect(TestPixels.labels(output) == [[5, 4, 3], [2, 1, 0]])
        #expect(output.channels(x: 0, y: 0) == [5, 0, 0, 65535])
    }

    @Test func neitherReturnsTheInput() throws {
        let image = try TestPixels.labelled(width: 3, height: 2)
        #expect(try FlippingTransformer(horizontal: false, vertical: false).transform(image) === image)
    }

    @Test func keys() {
        #expect(FlippingTransformer(horizontal: true, vertical: false).transformerKey == "Flip(h)")
        #expect(FlippingTransformer(horizontal: false, vertical: true).transformerKey == "Flip(v)")
        #expect(FlippingTransformer(horizontal: true, vertical: true).transformerKey == "Flip(hv)")
        #expect(FlippingTransformer(horizontal: false, vertical: false).transformerKey == "Flip(none)")
    }
}
