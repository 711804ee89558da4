import HEIFCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// libheif applies `irot` and `imir` while decoding (heif_decoding_options.ignore_transformations
/// stays 0), so the pixels come out as shown and the orientation is `.up`.
@Suite struct HEIFOrientationTests {
    /// The source pixel (of the 96 × 64 pattern) that lands at (`x`, `y`) of the shown image.
    typealias Mapping = (_ x: Int, _ y: Int) -> (Int, Int)

    func expectPattern(_ name: String, mapping: Mapping) throws {
        let image = try Fixture.decode(name)
        #expect(image.width == 64 && image.height == 96)
        #expect(image.orientation == .up)
        #expect(image.sourceWidth == 64 && image.sourceHeight == 96)
        for (x, y) in [(0, 0), (63, 0), (0, 95), (63, 95), (20, 70)] {
            let (sourceX, sourceY) = mapping(x, y)
            let expected = Fixture.pattern(x: sourceX, y: sourceY)
            let pixel = image.pixels.channels(x: x, y: y)
            for c in 0..<3 { #expect(abs(pixel[c] - expected[c]) <= 12, "at (\(x), \(y)) channel \(c)") }
        }
    }

    @Test func irotTurnsTheImageAntiClockwise() throws {
        // 90° anti-clockwise: the shown (x, y) comes from source (95 - y, x).
        try expectPattern("rotated.heic") { x, y in (95 - y, x) }
    }

    @Test func imirAfterIrotFlipsAsLibheifReadsIt() throws {
        // libheif 1.15 reads imir axis 0 as a top-bottom flip (heif-convert agrees; see the
        // parity tests): the rotated (x, 95 - y), so source (y, x).
        try expectPattern("rotated-mirrored.heic") { x, y in (y, x) }
    }
}
