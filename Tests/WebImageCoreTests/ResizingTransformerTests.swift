import Testing
import WebImageCore

@Suite struct ResizingTransformerTests {
    /// 8×4, opaque, red = 30 × x.
    private func columns() throws -> PixelBuffer {
        try TestPixels.rgba8(width: 8, height: 4) { x, _ in [UInt8(30 * x), 0, 0, 255] }
    }

    @Test func fillStretchesToExactlyTheSize() throws {
        let output = try ResizingTransformer(width: 2, height: 1, scaleMode: .fill).transform(try columns())
        #expect(output.width == 2 && output.height == 1)
        // Each output pixel averages four columns: (0+30+60+90)/4 and (120+150+180+210)/4.
        #expect(output.channels(x: 0, y: 0) == [45, 0, 0, 255])
        #expect(output.channels(x: 1, y: 0) == [165, 0, 0, 255])
    }

    @Test func aspectFillCoversTheSizeAndCropsTheCentre() throws {
        // Scale 1/2 covers 2×2 with the centre 4×4 of the source (columns 2...5).
        let output = try ResizingTransformer(width: 2, height: 2).transform(try columns())
        #expect(output.width == 2 && output.height == 2)
        #expect(output.channels(x: 0, y: 0) == [75, 0, 0, 255])
        #expect(output.channels(x: 1, y: 1) == [135, 0, 0, 255])
    }

    @Test func aspectFitLetterboxesOnATransparentCanvas() throws {
        // Scale 1/2 fits 8×4 into 4×2, centred vertically in 4×4.
        let output = try ResizingTransformer(width: 4, height: 4, scaleMode: .aspectFit).transform(try columns())
        #expect(output.width == 4 && output.height == 4)
        for x in 0..<4 {
            #expect(output.channels(x: x, y: 0) == [0, 0, 0, 0])
            #expect(output.channels(x: x, y: 3) == [0, 0, 0, 0])
        }
        #expect(output.channels(x: 0, y: 1) == [15, 0, 0, 255])
        #expect(output.channels(x: 3, y: 2) == [195, 0, 0, 255])
    }

    @Test func sameSizeFillReturnsTheInput() throws {
        let image = try columns()
        #expect(try ResizingTransformer(width: 8, height: 4, scaleMode: .fill).transform(image) === image)
    }

    @Test func rgba16KeepsItsPrecision() throws {
        let image = try TestPixels.rgba16(width: 2, height: 2) { x, _ in [[1000, 2000][x], 7, 9, 65535] }
        let output = try ResizingTransformer(width: 1, height: 1, scaleMode: .fill).transform(image)
        #expect(output.format == .rgba16)
        #expect(output.channels(x: 0, y: 0) == [1500, 7, 9, 65535])
    }

    @Test func downscalingLeavesNoDarkFringe() throws {
        let image = try TransformTestImages.redSquare(size: 64, square: 20..<41)
        let output = try ResizingTransformer(width: 17, height: 17, scaleMode: .fill).transform(image)
        let visible = TransformTestImages.visiblePixels(output)
        #expect(visible.contains { $0.channels[3] < 255 })
        for pixel in visible { #expect(pixel.channels[0..<3] == [255, 0, 0], "at \(pixel.x),\(pixel.y)") }
    }

    @Test func keys() throws {
        #expect(try ResizingTransformer(width: 800, height: 600).transformerKey == "Resize(800x600,fill-crop)")
        #expect(try ResizingTransformer(width: 8, height: 6, scaleMode: .fill).transformerKey == "Resize(8x6,fill)")
        #expect(try ResizingTransformer(width: 8, height: 6, scaleMode: .aspectFit).transformerKey == "Resize(8x6,fit)")
    }

    @Test(arguments: [(0, 600), (800, -1)])
    func sizeMustBePositive(width: Int, height: Int) {
        #expect(
            throws: ImageTransformError(.invalidParameter, "a resize needs a positive size, not \(width)×\(height)")
        ) { try ResizingTransformer(width: width, height: height) }
    }

    @Test func enlargingBeyondTheLimitIsTooLarge() throws {
        let image = try columns()
        #expect(
            throws: ImageTransformError(.tooLarge, "a 20000×20000 output exceeds the limit of 100000000 pixels")
        ) { try ResizingTransformer(width: 20000, height: 20000).transform(image) }
    }
}
