import Testing
import WebImageCore

@Suite struct RoundCornerTransformerTests {
    private func blueSquare() throws -> PixelBuffer {
        try TestPixels.rgba8(width: 40, height: 40) { _, _ in [0, 0, 255, 255] }
    }

    @Test func outsideTheCornersIsTransparentAndEdgesAreAntialiased() throws {
        let output = try RoundCornerTransformer(radius: 10).transform(try blueSquare())
        #expect(output.width == 40 && output.height == 40)
        for (x, y) in [(0, 0), (39, 0), (0, 39), (39, 39), (2, 2)] {
            #expect(output.channels(x: x, y: y) == [0, 0, 0, 0], "at \(x),\(y)")
        }
        // Centre (2.5, 3.5) lies 9.925 from the corner's centre (10, 10): 0.575 covered.
        #expect(output.channels(x: 2, y: 3) == [0, 0, 255, 147])
        #expect(output.channels(x: 36, y: 37) == [0, 0, 255, 147])
        for (x, y) in [(3, 3), (20, 0), (0, 20), (20, 20), (10, 10)] {
            #expect(output.channels(x: x, y: y) == [0, 0, 255, 255], "at \(x),\(y)")
        }
    }

    @Test func onlyTheChosenCornersAreRounded() throws {
        let output = try RoundCornerTransformer(radius: 10, corners: [.topLeft, .bottomRight]).transform(
            try blueSquare())
        #expect(output.channels(x: 0, y: 0) == [0, 0, 0, 0])
        #expect(output.channels(x: 39, y: 39) == [0, 0, 0, 0])
        #expect(output.channels(x: 39, y: 0) == [0, 0, 255, 255])
        #expect(output.channels(x: 0, y: 39) == [0, 0, 255, 255])
    }

    @Test func borderCoversTheEdgeInsideTheShape() throws {
        let red = try RGBAColor(hex: "#FF0000")
        let output = try RoundCornerTransformer(radius: 10, borderWidth: 2, borderColor: red).transform(
            try blueSquare())
        #expect(output.channels(x: 20, y: 0) == [255, 0, 0, 255])
        #expect(output.channels(x: 20, y: 1) == [255, 0, 0, 255])
        #expect(output.channels(x: 20, y: 2) == [0, 0, 255, 255])
        #expect(output.channels(x: 39, y: 20) == [255, 0, 0, 255])
        #expect(output.channels(x: 0, y: 0) == [0, 0, 0, 0])
        #expect(output.channels(x: 20, y: 20) == [0, 0, 255, 255])
    }

    @Test func halfTransparentBorderIsCompositedOverTheImage() throws {
        let output = try RoundCornerTransformer(
            radius: 0, borderWidth: 1, borderColor: try RGBAColor(hex: "#FF000080")
        ).transform(try blueSquare())
        #expect(output.channels(x: 20, y: 0) == [128, 0, 127, 255])
        #expect(output.channels(x: 0, y: 0) == [128, 0, 127, 255])
        #expect(output.channels(x: 20, y: 1) == [0, 0, 255, 255])
    }

    @Test func rgba16() throws {
        let image = try TestPixels.rgba16(width: 40, height: 40) { _, _ in [0, 0, 65535, 65535] }
        let output = try RoundCornerTransformer(radius: 10).transform(image)
        #expect(output.format == .rgba16)
        #expect(output.channels(x: 0, y: 0) == [0, 0, 0, 0])
        #expect(output.channels(x: 2, y: 3) == [0, 0, 65535, 37701])
        #expect(output.channels(x: 20, y: 20) == [0, 0, 65535, 65535])
    }

    @Test func radiusIsLimitedToHalfTheShorterSide() throws {
        let image = try TestPixels.rgba8(width: 10, height: 4) { _, _ in [9, 9, 9, 255] }
        let output = try RoundCornerTransformer(radius: 100).transform(image)
        // Radius 2: centre (0.5, 0.5) lies 2.121 from (2, 2), 0.379 covered.
        #expect(output.channels(x: 0, y: 0) == [9, 9, 9, 97])
        #expect(output.channels(x: 5, y: 1) == [9, 9, 9, 255])
        #expect(output.channels(x: 2, y: 1) == [9, 9, 9, 255])
    }

    @Test func keys() throws {
        #expect(try RoundCornerTransformer(radius: 12).transformerKey == "RoundCorner(12,all)")
        #expect(
            try RoundCornerTransformer(radius: 12, borderWidth: 2, borderColor: RGBAColor(hex: "#FF0000"))
                .transformerKey
                == "RoundCorner(12,all,2,#FF0000FF)")
        #expect(
            try RoundCornerTransformer(radius: 4.5, corners: [.topLeft, .bottomRight]).transformerKey
                == "RoundCorner(4.5,top-left+bottom-right)")
        #expect(try RoundCornerTransformer(radius: 3, corners: []).transformerKey == "RoundCorner(3,none)")
    }

    @Test func negativeOrNonFiniteParametersAreRejected() {
        #expect(throws: ImageTransformError(.invalidParameter, "a corner radius must be 0 or more, not -1.0")) {
            try RoundCornerTransformer(radius: -1)
        }
        #expect(throws: ImageTransformError(.invalidParameter, "a border width must be 0 or more, not nan")) {
            try RoundCornerTransformer(radius: 1, borderWidth: .nan)
        }
    }
}
