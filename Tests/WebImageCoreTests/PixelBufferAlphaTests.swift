import Testing
import WebImageCore

@Suite struct PixelBufferAlphaTests {
    @Test func oneTranslucentPixelIsEnough() throws {
        let opaque = try TestPixels.rgba8(width: 3, height: 2) { _, _ in [1, 2, 3, 255] }
        #expect(!opaque.hasTranslucentPixels)
        let translucent = try TestPixels.rgba8(width: 3, height: 2) { x, y in [1, 2, 3, x == 2 && y == 1 ? 254 : 255] }
        #expect(translucent.hasTranslucentPixels)
    }

    /// Rows are read two pixels at a time: a translucent pixel is found at every position,
    /// odd widths' last pixel included, and colour bytes of 0 or 255 never pass for alpha.
    @Test(arguments: 1...9)
    func everyPixelOfARowIsChecked(width: Int) throws {
        let opaque = try TestPixels.rgba8(width: width, height: 3) { x, _ in
            x % 2 == 0 ? [0, 0, 0, 255] : [255, 255, 255, 255]
        }
        #expect(!opaque.hasTranslucentPixels)
        for y in 0..<3 {
            for x in 0..<width {
                for alpha: UInt8 in [0, 254] {
                    let buffer = try TestPixels.rgba8(width: width, height: 3) { px, py in
                        [255, 255, 255, px == x && py == y ? alpha : 255]
                    }
                    #expect(buffer.hasTranslucentPixels, "width \(width), pixel (\(x), \(y)), alpha \(alpha)")
                }
            }
        }
    }

    @Test func sixteenBitAlphaIsCheckedAtFullScale() throws {
        let buffer = try PixelBuffer(width: 1, height: 1, format: .rgba16)
        let pixel = buffer.row(0).assumingMemoryBound(to: UInt16.self)
        (pixel[0], pixel[1], pixel[2], pixel[3]) = (0, 0, 0, 65535)
        #expect(!buffer.hasTranslucentPixels)
        pixel[3] = 65534
        #expect(buffer.hasTranslucentPixels)
    }
}
