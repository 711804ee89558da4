import Testing
import WebImageCore

@Suite struct CroppingTransformerTests {
    @Test func cutsTheRectangle() throws {
        let output = try CroppingTransformer(x: 1, y: 1, width: 2, height: 2)
            .transform(try TestPixels.labelled(width: 4, height: 3))
        #expect(output.width == 2 && output.height == 2)
        #expect(TestPixels.labels(output) == [[5, 6], [9, 10]])
    }

    @Test func rectangleIsClippedToTheImage() throws {
        let output = try CroppingTransformer(x: -1, y: 2, width: 10, height: 10)
            .transform(try TestPixels.labelled(width: 4, height: 3))
        #expect(output.width == 4 && output.height == 1)
        #expect(TestPixels.labels(output) == [[8, 9, 10, 11]])
    }

    @Test func rgba16KeepsItsFormat() throws {
        let output = try CroppingTransformer(x: 2, y: 0, width: 1, height: 2)
            .transform(try TestPixels.labelled16(width: 3, height: 2))
        #expect(output.format == .rgba16)
        #expect(output.channels(x: 0, y: 1) == [5, 0, 0, 65535])
        #expect(output.width == 1 && output.height == 2)
    }

    @Test func wholeImageReturnsTheInput() throws {
        let image = try TestPixels.labelled(width: 4, height: 3)
        #expect(try CroppingTransformer(x: 0, y: 0, width: 4, height: 3).transform(image) === image)
    }

    @Test func rectangleOutsideTheImageIsAnEmptyCrop() throws {
        let image = try TestPixels.labelled(width: 4, height: 3)
        #expect(
            throws: ImageTransformError(.invalidParameter, "the crop 2×2 at (4, 0) is empty on a 4×3 image")
        ) { try CroppingTransformer(x: 4, y: 0, width: 2, height: 2).transform(image) }
    }

    @Test(arguments: [(0, 5), (5, 0), (-3, 5)])
    func sizeMustBePositive(width: Int, height: Int) {
        #expect(
            throws: ImageTransformError(.invalidParameter, "a crop needs a positive size, not \(width)×\(height)")
        ) { try CroppingTransformer(x: 0, y: 0, width: width, height: height) }
    }

    @Test func key() throws {
        #expect(try CroppingTransformer(x: 10, y: -2, width: 100, height: 50).transformerKey == "Crop(10,-2,100,50)")
    }
}
