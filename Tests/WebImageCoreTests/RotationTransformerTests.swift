import Testing
import WebImageCore

@Suite struct RotationTransformerTests {
    @Test func quarterTurnCounterClockwiseMovesPixelsExactly() throws {
        let output = try RotationTransformer(degrees: 90).transform(try TestPixels.labelled(width: 3, height: 2))
        #expect(output.width == 2 && output.height == 3)
        #expect(TestPixels.labels(output) == [[2, 5], [1, 4], [0, 3]])
        #expect(output.channels(x: 0, y: 0) == [2, 0, 0, 255])
    }

    @Test func halfTurnAndNegativeQuarterTurn() throws {
        let image = try TestPixels.labelled(width: 3, height: 2)
        #expect(TestPixels.labels(try RotationTransformer(degrees: 180).transform(image)) == [[5, 4, 3], [2, 1, 0]])
        #expect(
            TestPixels.labels(try RotationTransformer(degrees: -90).transform(image)) == [[3, 0], [4, 1], [5, 2]])
    }

    @Test func rgba16QuarterTurn() throws {
        let output = try RotationTransformer(degrees: 270).transform(
            try TestPixels.labelled16(width: 3, height: 2))
        #expect(output.format == .rgba16)
        #expect(TestPixels.labels(output) == [[3, 0], [4, 1], [5, 2]])
        #expect(output.channels(x: 1, y: 2) == [2, 0, 0, 65535])
    }

    @Test func fitSizeGrowsTheCanvasWithTransparentCorners() throws {
        let image = try TestPixels.rgba8(width: 10, height: 10) { _, _ in [10, 200, 30, 255] }
        let output = try RotationTransformer(degrees: 45).transform(image)
        // 10 × (cos 45° + sin 45°) = 14.14, rounded up.
        #expect(output.width == 15 && output.height == 15)
        #expect(output.channels(x: 0, y: 0) == [0, 0, 0, 0])
        #expect(output.channels(x: 14, y: 14) == [0, 0, 0, 0])
        #expect(output.channels(x: 7, y: 7) == [10, 200, 30, 255])
        #expect(output.channels(x: 7, y: 0)[3] > 0)
        let visible = TransformTestImages.visiblePixels(output)
        #expect(visible.contains { $0.channels[3] < 255 })
        for pixel in visible { #expect(pixel.channels[0..<3] == [10, 200, 30], "at \(pixel.x),\(pixel.y)") }
    }

    @Test func withoutFitSizeTheCanvasKeepsItsSize() throws {
        let image = try TestPixels.rgba8(width: 10, height: 6) { _, _ in [10, 200, 30, 255] }
        let output = try RotationTransformer(degrees: 45, fitsSize: false).transform(image)
        #expect(output.width == 10 && output.height == 6)
        #expect(output.channels(x: 0, y: 0) == [0, 0, 0, 0])
        #expect(output.channels(x: 5, y: 3) == [10, 200, 30, 255])
    }

    @Test func fullTurnReturnsTheInput() throws {
        let image = try TestPixels.labelled(width: 3, height: 2)
        #expect(try RotationTransformer(degrees: 360).transform(image) === image)
    }

    @Test func keysReduceTheAngle() throws {
        #expect(try RotationTransformer(degrees: 45).transformerKey == "Rotate(45,fit)")
        #expect(try RotationTransformer(degrees: -90, fitsSize: false).transformerKey == "Rotate(270)")
        #expect(try RotationTransformer(degrees: 372.5).transformerKey == "Rotate(12.5,fit)")
    }

    @Test func nonFiniteAngleIsRejected() {
        #expect(throws: ImageTransformError(.invalidParameter, "a rotation angle must be finite, not inf")) {
            try RotationTransformer(degrees: .infinity)
        }
    }
}
