import Testing
import WebImageCore

@Suite struct PixelBufferAlphaTests {
    @Test func oneTranslucentPixelIsEnough() throws {
        let opaque = try TestPixels.rgba8(width: 3, height: 2) { _, _ in [1, 2, 3, 255] }
        #expect(!opaque.hasTranslucentPixels)
        let translucent = try TestPixels.rgba8(width: 3, height: 2) { x, y in [1, 2, 3, x == 2 && y == 1 ? 254 : 255] }
        #expect(translucent.hasTranslucentPixels)
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
