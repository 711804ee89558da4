import JPEGCoder
import Testing
import WebImageCoderVerifier
import WebImageCore

@Suite struct JPEGEncodeTests {
    let coder = JPEGImageCoder()

    func pattern(alpha: UInt8 = 255) throws -> PixelBuffer {
        let buffer = try PixelBuffer(width: 40, height: 30, format: .rgba8)
        for y in 0..<30 {
            let row = buffer.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<40 {
                row[x * 4] = UInt8(x * 6)
                row[x * 4 + 1] = UInt8(y * 8)
                row[x * 4 + 2] = 128
                row[x * 4 + 3] = alpha
            }
        }
        return buffer
    }

    func maximumDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        zip(a.packedBytes(), b.packedBytes()).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test func encodingThenDecodingKeepsThePicture() throws {
        let original = try pattern()
        let encoded = try coder.encode(original, request: EncodeRequest(format: "jpeg", quality: 0.95))
        #expect(Array(encoded.prefix(3)) == [0xFF, 0xD8, 0xFF])
        let decoded = try encoded.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        #expect(decoded.width == 40 && decoded.height == 30)
        #expect(maximumDifference(decoded.pixels, original) <= 12)
    }

    @Test func lowerQualityMakesSmallerFiles() throws {
        let original = try pattern()
        let small = try coder.encode(original, request: EncodeRequest(format: "jpeg", quality: 0.2))
        let large = try coder.encode(original, request: EncodeRequest(format: "jpeg", quality: 0.95))
        #expect(small.count < large.count)
    }

    @Test func transparentPixelsTakeTheBackgroundColour() throws {
        let encoded = try coder.encode(
            try pattern(alpha: 0), request: EncodeRequest(format: "jpeg", quality: 0.95, backgroundColor: 0xFF00_00FF))
        let decoded = try encoded.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        let pixel = decoded.pixels.channels(x: 20, y: 15)
        #expect(abs(pixel[0] - 255) <= 2 && pixel[1] <= 2 && pixel[2] <= 2)
    }

    @Test func sixteenBitPixelsAreEncoded() throws {
        let buffer = try PixelBuffer(width: 8, height: 8, format: .rgba16)
        for y in 0..<8 {
            let row = buffer.row(y).assumingMemoryBound(to: UInt16.self)
            for x in 0..<8 { (row[x * 4], row[x * 4 + 1], row[x * 4 + 2], row[x * 4 + 3]) = (65535, 32896, 0, 65535) }
        }
        let encoded = try coder.encode(buffer, request: EncodeRequest(format: "jpeg", quality: 1))
        let decoded = try encoded.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        let pixel = decoded.pixels.channels(x: 4, y: 4)
        #expect(abs(pixel[0] - 255) <= 2 && abs(pixel[1] - 128) <= 2 && pixel[2] <= 2)
    }

    /// Opaque 8-bit pixels reach libjpeg-turbo as they are (RGBX, no row copied); the same
    /// picture in 16 bits goes through the compositing into RGB rows. Both give the same file.
    @Test func opaquePixelsAreEncodedAsTheCompositedRowsWouldBe() throws {
        let eightBit = try pattern()
        let sixteenBit = try PixelBuffer(width: 40, height: 30, format: .rgba16)
        for y in 0..<30 {
            let source = eightBit.row(y).assumingMemoryBound(to: UInt8.self)
            let row = sixteenBit.row(y).assumingMemoryBound(to: UInt16.self)
            for x in 0..<40 * 4 { row[x] = UInt16(source[x]) * 257 }
        }
        for quality in [0.5, 0.8, 0.95] {
            let direct = try coder.encode(eightBit, request: EncodeRequest(format: "jpeg", quality: quality))
            let composited = try coder.encode(sixteenBit, request: EncodeRequest(format: "jpeg", quality: quality))
            #expect(direct == composited, "quality \(quality)")
        }
    }

    /// One translucent block in the last corner of an otherwise opaque picture still takes the
    /// background colour: the opacity check reads every row to its last pixel.
    @Test func aTranslucentCornerIsComposited() throws {
        let pixels = try pattern()
        for y in 22..<30 {
            let row = pixels.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 32..<40 { row[x * 4 + 3] = 0 }
        }
        let encoded = try coder.encode(
            pixels, request: EncodeRequest(format: "jpeg", quality: 0.95, backgroundColor: 0x00FF_00FF))
        let decoded = try encoded.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        let corner = decoded.pixels.channels(x: 36, y: 26)
        #expect(corner[0] <= 8 && corner[1] >= 247 && corner[2] <= 8, "\(corner)")
        let opaque = decoded.pixels.channels(x: 4, y: 4)
        #expect(abs(opaque[2] - 128) <= 8, "\(opaque)")
    }

    @Test("libjpeg's destination is the request's allocator: the same bytes, no other block left")
    func writesIntoTheRequestsAllocator() throws {
        let pixels = try pattern(alpha: 200)
        let recorder = RecordingAllocator()
        let encoded = try coder.encode(pixels, request: EncodeRequest(format: "jpeg", allocator: recorder.allocator))
        #expect(recorder.holdsOnly(encoded))
        #expect(encoded == (try coder.encode(pixels, request: EncodeRequest(format: "jpeg"))))
    }
}
