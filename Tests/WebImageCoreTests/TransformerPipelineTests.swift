import Testing

@testable import WebImageCore

@Suite struct TransformerPipelineTests {
    @Test func keyJoinsTheKeysInOrderWithHyphens() throws {
        let pipeline = TransformerPipeline([
            FlippingTransformer(horizontal: true, vertical: false), try RotationTransformer(degrees: 90),
            try BlurTransformer(radius: 4),
        ])
        #expect(pipeline.transformerKey == "Flip(h)-Rotate(90,fit)-Blur(4)")
    }

    @Test func emptyPipelineHasTheEmptyKeyAndReturnsItsInput() throws {
        let image = try TestPixels.labelled(width: 3, height: 2)
        let pipeline = TransformerPipeline([])
        #expect(pipeline.transformerKey == "")
        #expect(try pipeline.transform(image) === image)
    }

    @Test func transformersRunInOrder() throws {
        let image = try TestPixels.labelled(width: 4, height: 1)
        let crop = try CroppingTransformer(x: 0, y: 0, width: 2, height: 1)
        let flip = FlippingTransformer(horizontal: true, vertical: false)
        #expect(TestPixels.labels(try TransformerPipeline([crop, flip]).transform(image)) == [[1, 0]])
        #expect(TestPixels.labels(try TransformerPipeline([flip, crop]).transform(image)) == [[3, 2]])
    }

    @Test func theInputIsNeverModified() throws {
        let image = try TestPixels.labelled(width: 4, height: 3)
        let before = image.packedBytes()
        _ = try TransformerPipeline([
            FlippingTransformer(horizontal: true, vertical: true), try RoundCornerTransformer(radius: 2),
            try TintTransformer(color: RGBAColor(hex: "#00FF00")), try BlurTransformer(radius: 1),
        ]).transform(image)
        #expect(image.packedBytes() == before)
    }

    @Test func aDecodedImageIsOrientedBeforeItIsTransformed() throws {
        // Stored 3×2; orientation .right shows it turned 90° clockwise (2×3).
        let stored = try TestPixels.labelled(width: 3, height: 2)
        let image = DecodedImage(pixels: stored, format: "png", orientation: .right, traits: [.hasAlpha])
        let shown = try OrientationTransform.apply(.right, to: stored)
        let flipped = try FlippingTransformer(horizontal: true, vertical: false).transform(image)
        #expect(flipped.orientation == .up)
        #expect(flipped.format == "png")
        #expect(flipped.sourceWidth == 3 && flipped.sourceHeight == 2)
        #expect(flipped.traits == [.hasAlpha])
        #expect(TestPixels.labels(flipped.pixels) == TestPixels.labels(shown).map { Array($0.reversed()) })
    }

    @Test func transformersRunConcurrently() async throws {
        let image = try TransformTestImages.redSquare(size: 64, square: 16..<48)
        let transformer = try BlurTransformer(radius: 3)
        let expected = try transformer.transform(image).packedBytes()
        let results = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<8 { group.addTask { try transformer.transform(image).packedBytes() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == expected })
    }
}

@Suite struct RGBAColorTests {
    @Test func parsesSixAndEightDigitsInEitherCase() throws {
        #expect(try RGBAColor(hex: "#ff8000") == RGBAColor(red: 255, green: 128, blue: 0, alpha: 255))
        #expect(try RGBAColor(hex: "#0A0B0C80") == RGBAColor(red: 10, green: 11, blue: 12, alpha: 128))
        #expect(RGBAColor(red: 1, green: 162, blue: 3, alpha: 4).description == "#01A20304")
    }

    @Test(arguments: ["FF0000", "#FF00", "#GG0000", "#FF0000FFF", "", "#+F0000"])
    func rejectsOtherText(text: String) {
        #expect(
            throws: ImageTransformError(.invalidParameter, "invalid colour '\(text)': expected #RRGGBB or #RRGGBBAA")
        ) {
            try RGBAColor(hex: text)
        }
    }
}
