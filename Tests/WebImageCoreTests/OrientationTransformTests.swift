import Testing
import WebImageCore

@Suite struct OrientationTransformTests {
    /// Stored 3 × 2 image, labels:
    /// ```
    /// 0 1 2
    /// 3 4 5
    /// ```
    static let expected: [ImageOrientation: [[Int]]] = [
        .up: [[0, 1, 2], [3, 4, 5]],
        .upMirrored: [[2, 1, 0], [5, 4, 3]],
        .down: [[5, 4, 3], [2, 1, 0]],
        .downMirrored: [[3, 4, 5], [0, 1, 2]],
        .leftMirrored: [[0, 3], [1, 4], [2, 5]],
        .right: [[3, 0], [4, 1], [5, 2]],
        .rightMirrored: [[5, 2], [4, 1], [3, 0]],
        .left: [[2, 5], [1, 4], [0, 3]],
    ]

    @Test(arguments: ImageOrientation.allCases)
    func turnsPixelsUpright(orientation: ImageOrientation) throws {
        let stored = try TestPixels.labelled(width: 3, height: 2)
        let upright = try OrientationTransform.apply(orientation, to: stored)
        #expect(TestPixels.labels(upright) == Self.expected[orientation])
    }

    @Test func sixteenBitPixelsMoveWhole() throws {
        let stored = try PixelBuffer(width: 2, height: 1, format: .rgba16)
        let row = stored.row(0).assumingMemoryBound(to: UInt16.self)
        for index in 0..<8 { row[index] = UInt16(index * 1000) }
        let upright = try OrientationTransform.apply(.right, to: stored)
        #expect(upright.width == 1 && upright.height == 2)
        #expect(upright.channels(x: 0, y: 0) == [0, 1000, 2000, 3000])
        #expect(upright.channels(x: 0, y: 1) == [4000, 5000, 6000, 7000])
    }

    @Test func exifValuesOutsideTheRangeMeanUp() {
        #expect(ImageOrientation(exifValue: 0) == .up)
        #expect(ImageOrientation(exifValue: 9) == .up)
        #expect(ImageOrientation(exifValue: 6) == .right)
    }
}
