import Testing

@testable import WebImageCore

@Suite struct BlurTransformerTests {
    @Test func uniformImageStaysUniform() throws {
        let image = try TestPixels.rgba8(width: 37, height: 23) { _, _ in [12, 34, 56, 255] }
        let output = try BlurTransformer(radius: 5).transform(image)
        #expect(output.width == 37 && output.height == 23)
        for y in 0..<23 { for x in 0..<37 { #expect(output.channels(x: x, y: y) == [12, 34, 56, 255]) } }
    }

    @Test func uniformRGBA16StaysUniform() throws {
        let image = try TestPixels.rgba16(width: 40, height: 9) { _, _ in [1234, 65535, 0, 65535] }
        let output = try BlurTransformer(radius: 2.5).transform(image)
        #expect(output.format == .rgba16)
        for y in 0..<9 { for x in 0..<40 { #expect(output.channels(x: x, y: y) == [1234, 65535, 0, 65535]) } }
    }

    @Test func colouredShapeOnTransparencyHasNoDarkFringe() throws {
        let image = try TransformTestImages.redSquare(size: 80, square: 20..<60)
        let output = try BlurTransformer(radius: 2).transform(image)
        let visible = TransformTestImages.visiblePixels(output)
        #expect(visible.contains { $0.channels[3] < 128 })
        for pixel in visible { #expect(pixel.channels[0..<3] == [255, 0, 0], "at \(pixel.x),\(pixel.y)") }
        // Three passes of radius 1 reach 6 pixels: the centre and far corners are untouched.
        #expect(output.channels(x: 40, y: 40) == [255, 0, 0, 255])
        #expect(output.channels(x: 0, y: 0) == [0, 0, 0, 0])
        #expect(output.channels(x: 79, y: 79) == [0, 0, 0, 0])
    }

    @Test func rgba16ShapeOnTransparencyHasNoDarkFringe() throws {
        let image = try TestPixels.rgba16(width: 30, height: 30) { x, y in
            (10..<20).contains(x) && (10..<20).contains(y) ? [0, 65535, 0, 65535] : [0, 0, 0, 0]
        }
        let output = try BlurTransformer(radius: 1.5).transform(image)
        let visible = TransformTestImages.visiblePixels(output)
        #expect(visible.contains { $0.channels[3] < 32768 })
        for pixel in visible { #expect(pixel.channels[0..<3] == [0, 65535, 0], "at \(pixel.x),\(pixel.y)") }
    }

    @Test func aPointSpreadsSymmetricallyAndFallsOff() throws {
        let image = try TestPixels.rgba8(width: 21, height: 21) { x, y in
            x == 10 && y == 10 ? [255, 255, 255, 255] : [0, 0, 0, 0]
        }
        let output = try BlurTransformer(radius: 1.5).transform(image)
        let alpha = { (x: Int, y: Int) in output.channels(x: x, y: y)[3] }
        #expect(alpha(7, 10) == alpha(13, 10))
        #expect(alpha(10, 7) == alpha(10, 13))
        #expect(alpha(7, 10) == alpha(10, 7))
        #expect(alpha(10, 10) > alpha(11, 10))
        #expect(alpha(11, 10) > alpha(12, 10))
        #expect(alpha(12, 10) > alpha(14, 10))
    }

    @Test func radiusWiderThanTheImageRepeatsTheEdges() throws {
        let image = try TestPixels.rgba8(width: 1, height: 1) { _, _ in [10, 20, 30, 40] }
        let output = try BlurTransformer(radius: 10).transform(image)
        #expect(output.channels(x: 0, y: 0) == [10, 20, 30, 40])
    }

    @Test func zeroRadiusReturnsTheInput() throws {
        let image = try TestPixels.labelled(width: 3, height: 2)
        #expect(try BlurTransformer(radius: 0).transform(image) === image)
    }

    @Test(arguments: [0.3, 2.0, 10.0, 31.7])
    func threeBoxPassesHaveTheGaussiansVariance(sigma: Double) {
        let pass = BoxBlurPass(variance: sigma * sigma / 3)
        let r = Double(pass.radius)
        let f = Double(pass.fraction)
        let variance = (r * (r + 1) * (2 * r + 1) / 3 + 2 * f * (r + 1) * (r + 1)) / (2 * r + 1 + 2 * f)
        #expect(abs(3 * variance - sigma * sigma) < 1e-4 * sigma * sigma)
        #expect(f >= 0 && f < 1)
    }

    @Test func keys() throws {
        #expect(try BlurTransformer(radius: 10).transformerKey == "Blur(10)")
        #expect(try BlurTransformer(radius: 2.5).transformerKey == "Blur(2.5)")
    }

    @Test(arguments: [-1.0, .nan, .infinity])
    func negativeOrNonFiniteRadiusIsRejected(radius: Double) {
        #expect(throws: ImageTransformError(.invalidParameter, "a blur radius must be 0 or more, not \(radius)")) {
            try BlurTransformer(radius: radius)
        }
    }
}
