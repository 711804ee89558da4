import CPNGShim
import CReferenceDecoders
import PNGCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// APNG inside the PNG plugin, against the composited frames Pillow 13 reads from the
/// fixtures (`Tests/Fixtures/apng/make-fixtures.py`).
@Suite struct APNGTests {
    let coder = PNGImageCoder()

    /// Pillow's frames with the colour of fully transparent pixels set to 0.
    func pillowFrames(_ name: String, count: Int) throws -> [[UInt8]] {
        let bytes = try Fixture.bytes("apng/\(name).coalesced.rgba")
        let size = bytes.count / count
        return (0..<count).map { visible(Array(bytes[($0 * size)..<(($0 + 1) * size)])) }
    }

    func visible(_ rgba: [UInt8]) -> [UInt8] {
        var result = rgba
        for pixel in stride(from: 0, to: result.count, by: 4) where result[pixel + 3] == 0 {
            result.replaceSubrange(pixel..<(pixel + 3), with: [0, 0, 0])
        }
        return result
    }

    @Test func probeReportsFramesAndLoopCount() throws {
        let info = try Fixture.bytes("apng/anim.apng").withUnsafeBytes { try coder.probe($0) }
        #expect(info.frameCount == 3 && info.loopCount == 2)
        #expect(info.traits.contains(.animated))
    }

    @Test func framesDurationsAndCompositing() throws {
        let animation = try coder.openAnimation(try Fixture.bytes("apng/anim.apng"))
        let pillow = try pillowFrames("anim", count: 3)
        #expect((0..<3).map { animation.frameDuration(at: $0) } == [40, 100, 250])
        let first = try animation.decodeFrame(at: 0, request: DecodeRequest())
        #expect(visible(first.pixels.packedBytes()) == pillow[0])
        // Frame 1 draws green at alpha 128 "over" the opaque red frame. Porter-Duff over
        // gives an opaque (115, 115, 30); Pillow pastes through the alpha as a mask, which
        // also blends the alpha channel (giving 191), so this frame is checked by value.
        let second = try animation.decodeFrame(at: 1, request: DecodeRequest())
        for y in 0..<10 {
            for x in 0..<12 {
                let inside = (2..<8).contains(x) && (3..<7).contains(y)
                #expect(second.pixels.channels(x: x, y: y) == (inside ? [115, 115, 30, 255] : [200, 30, 30, 255]))
            }
        }
        let third = try animation.decodeFrame(at: 2, request: DecodeRequest())
        #expect(visible(third.pixels.packedBytes()) == pillow[2])
        let again = try animation.decodeFrame(at: 0, request: DecodeRequest())
        #expect(visible(again.pixels.packedBytes()) == pillow[0])
    }

    @Test func aDefaultImageOutsideTheAnimation() throws {
        let bytes = try Fixture.bytes("apng/hidden-default.apng")
        let still = try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        #expect(still.pixels.channels(x: 0, y: 0) == [255, 255, 255, 255])
        let animation = try coder.openAnimation(bytes)
        #expect(animation.info.frameCount == 3 && animation.info.loopCount == 0)
        #expect((0..<3).map { animation.frameDuration(at: $0) } == [100, 60, 70])
        let pillow = try pillowFrames("hidden-default", count: 4)
        for index in 0..<3 {
            let frame = try animation.decodeFrame(at: index, request: DecodeRequest())
            #expect(visible(frame.pixels.packedBytes()) == pillow[index + 1], "frame \(index)")
        }
    }

    @Test func aTruncatedAnimationIsATypedError() throws {
        let bytes = try Fixture.bytes("apng/anim.apng")
        let error = try #require(throws: ImageCodingError.self) { try coder.openAnimation(Array(bytes.prefix(250))) }
        #expect(error.kind == .truncatedData)
        #expect(try Array(bytes.prefix(250)).withUnsafeBytes { try coder.probe($0) }.frameCount == 1)
    }

    @Test func aHugeCanvasIsTooLargeBeforeAnythingIsAllocated() throws {
        var bytes = try Fixture.bytes("apng/anim.apng")
        bytes.replaceSubrange(16..<24, with: [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60])
        let crc = Array(bytes[12..<29]).withUnsafeBufferPointer { png_shim_crc32(0, $0.baseAddress!, $0.count) }
        bytes.replaceSubrange(29..<33, with: (0..<4).map { UInt8(truncatingIfNeeded: crc >> (24 - 8 * $0)) })
        let animation = try coder.openAnimation(bytes)
        let error = try #require(throws: ImageCodingError.self) {
            try animation.decodeFrame(at: 0, request: DecodeRequest())
        }
        #expect(error == ImageCodingError.tooLarge(width: 60000, height: 60000, limit: 100_000_000))
    }

    @Test func aStillPNGOpensAsOneFrame() throws {
        let animation = try coder.openAnimation(try Fixture.bytes("png/rgba8.png"))
        #expect(animation.info.frameCount == 1)
        #expect(try animation.decodeFrame(at: 0, request: DecodeRequest()).width == 13)
    }

    @Test func encodedFramesComeBackExactlyWithTheirTimingAndLoopCount() throws {
        let frames = try (0..<3).map { index in
            AnimationFrame(
                image: try PixelBuffer.pattern(width: 9, height: 5) { x, y in
                    [UInt8(x * 20), UInt8(y * 40), UInt8(index * 100), x == index ? 0 : 255]
                }, durationMilliseconds: [30, 120, 500][index])
        }
        let bytes = try coder.encodeAnimation(frames, request: EncodeRequest(format: "png", loopCount: 4)).bytes
        let animation = try coder.openAnimation(bytes)
        #expect(animation.info.frameCount == 3 && animation.info.loopCount == 4)
        #expect((0..<3).map { animation.frameDuration(at: $0) } == [30, 120, 500])
        for (index, frame) in frames.enumerated() {
            let decoded = try animation.decodeFrame(at: index, request: DecodeRequest())
            #expect(decoded.pixels.packedBytes() == frame.image.packedBytes(), "frame \(index)")
        }
        let defaultImage = try reference(bytes)
        #expect(defaultImage == frames[0].image.packedBytes())
    }

    /// What a PNG reader without APNG support sees: libpng's own decode of the file.
    func reference(_ bytes: [UInt8]) throws -> [UInt8] {
        var width: UInt32 = 0
        var height: UInt32 = 0
        try #require(reference_png_probe(bytes, bytes.count, &width, &height, nil) == REFERENCE_OK)
        var output = [UInt8](repeating: 0, count: Int(width * height) * 4)
        let status = output.withUnsafeMutableBytes {
            reference_png_decode(bytes, bytes.count, 0, $0.baseAddress!, $0.count)
        }
        try #require(status == REFERENCE_OK)
        return output
    }
}

extension PixelBuffer {
    /// An RGBA8 buffer filled by `pixel(x, y)`.
    static func pattern(width: Int, height: Int, _ pixel: (Int, Int) -> [UInt8]) throws -> PixelBuffer {
        let buffer = try PixelBuffer(width: width, height: height, format: .rgba8)
        for y in 0..<height {
            let row = buffer.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width { for (channel, value) in pixel(x, y).enumerated() { row[x * 4 + channel] = value } }
        }
        return buffer
    }
}
