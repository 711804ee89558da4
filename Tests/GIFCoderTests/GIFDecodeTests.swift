import GIFCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// The composited frames ImageMagick (`convert -coalesce`) made of a fixture: the reference.
///
/// Frames are compared through ``visible(_:)``: the colour of a fully transparent pixel means
/// nothing with straight alpha (ImageMagick keeps the old colour when it disposes a frame to
/// the background, the plugin writes 0), so those pixels compare by their alpha alone.
enum CoalescedFrames {
    static func frames(_ name: String, count: Int) throws -> [[UInt8]] {
        let bytes = try Fixture.bytes("gif/\(name).coalesced.rgba")
        let frameBytes = bytes.count / count
        return (0..<count).map { visible(Array(bytes[($0 * frameBytes)..<(($0 + 1) * frameBytes)])) }
    }

    /// RGBA8 bytes with the colour of every fully transparent pixel set to 0.
    static func visible(_ rgba: [UInt8]) -> [UInt8] {
        var result = rgba
        for pixel in stride(from: 0, to: result.count, by: 4) where result[pixel + 3] == 0 {
            result[pixel] = 0
            result[pixel + 1] = 0
            result[pixel + 2] = 0
        }
        return result
    }
}

extension DecodedImage {
    /// The pixels as ``CoalescedFrames/visible(_:)`` bytes.
    var visibleBytes: [UInt8] { CoalescedFrames.visible(pixels.packedBytes()) }
}

@Suite struct GIFDecodeTests {
    let coder = GIFImageCoder()

    func probe(_ name: String) throws -> ImageInfo {
        try Fixture.bytes("gif/\(name).gif").withUnsafeBytes { try coder.probe($0) }
    }

    @Test func aStaticGIFEqualsImageMagick() throws {
        let image = try Fixture.bytes("gif/static.gif").withUnsafeBytes {
            try coder.decode($0, request: DecodeRequest())
        }
        #expect(image.width == 8 && image.height == 6)
        #expect(image.visibleBytes == (try CoalescedFrames.frames("static", count: 1)[0]))
    }

    @Test func decodeGivesTheFirstFrameOfAnAnimation() throws {
        let image = try Fixture.bytes("gif/anim.gif").withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        #expect(image.visibleBytes == (try CoalescedFrames.frames("anim", count: 4)[0]))
        #expect(image.traits.contains(.animated))
    }

    @Test func probeReportsFramesLoopCountAndTraits() throws {
        #expect(
            try probe("static")
                == ImageInfo(format: "gif", width: 8, height: 6, frameCount: 1, loopCount: 1, traits: [.indexed]))
        #expect(
            try probe("anim")
                == ImageInfo(
                    format: "gif", width: 8, height: 6, frameCount: 4, loopCount: 3,
                    traits: [.indexed, .hasAlpha, .animated]))
        #expect(try probe("loop-forever").loopCount == 0)
    }

    @Test func aFileWithoutTrailerStillDecodes() throws {
        #expect(try probe("no-trailer").frameCount == 1)
        let image = try Fixture.bytes("gif/no-trailer.gif").withUnsafeBytes {
            try coder.decode($0, request: DecodeRequest())
        }
        #expect(image.width == 8)
    }

    @Test func canDecodeChecksTheSignature() {
        #expect(Array("GIF89a".utf8).withUnsafeBytes { coder.canDecode($0) })
        #expect(Array("GIF87a".utf8).withUnsafeBytes { coder.canDecode($0) })
        #expect(!Array("GIF88a".utf8).withUnsafeBytes { coder.canDecode($0) })
    }
}
