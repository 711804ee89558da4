import CReferenceDecoders
import GIFCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// Frames that cover the whole canvas with no transparency (key frames) are drawn straight
/// into the output; every frame must still be giflib's composite, in any decoding order.
@Suite struct GIFKeyFrameTests {
    let coder = GIFImageCoder()
    static let width = 7, height = 5

    static func full(_ seed: Int, disposal: Int = 1, transparent: UInt8? = nil) -> HandMadeGIF.Frame {
        HandMadeGIF.Frame(
            width: width, height: height, disposal: disposal, transparentIndex: transparent,
            indices: (0..<(width * height)).map { UInt8((seed * 31 + $0 * 3) & 0xFF) })
    }

    static func patch(_ seed: Int, left: Int, top: Int, disposal: Int = 1) -> HandMadeGIF.Frame {
        HandMadeGIF.Frame(
            left: left, top: top, width: 3, height: 2, disposal: disposal,
            indices: (0..<6).map { UInt8((seed * 17 + $0) & 0xFF) })
    }

    /// Key frames next to patches, a background disposal, a full frame with a transparent
    /// colour (its third pixel's), a full opaque frame with disposal previous.
    static let mixed = HandMadeGIF(
        width: width, height: height,
        frames: [
            full(0), full(1), patch(2, left: 1, top: 1, disposal: 2), patch(3, left: 4, top: 3),
            full(4, transparent: 4 * 31 + 2 * 3), full(5, disposal: 3), patch(6, left: 0, top: 0), full(7),
            full(8), patch(9, left: 2, top: 2),
        ])

    /// giflib's composite of frame `index` (`reference_gif_decode`), RGBA8.
    func reference(_ bytes: [UInt8], frame index: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Self.width * Self.height * 4)
        let status = out.withUnsafeMutableBytes { output in
            bytes.withUnsafeBytes { input in
                reference_gif_decode(
                    input.baseAddress!.assumingMemoryBound(to: UInt8.self), input.count, UInt32(index),
                    output.baseAddress!, output.count)
            }
        }
        try #require(status == REFERENCE_OK)
        return out
    }

    @Test func everyFrameInOrderIsGiflibsComposite() throws {
        let bytes = Self.mixed.bytes
        let animation = try coder.openAnimation(bytes)
        #expect(animation.info.frameCount == 10)
        for index in 0..<10 {
            let frame = try animation.decodeFrame(at: index, request: DecodeRequest())
            #expect(frame.pixels.packedBytes() == (try reference(bytes, frame: index)), "frame \(index)")
        }
    }

    @Test func framesInAnyOrderAreGiflibsComposites() throws {
        let bytes = Self.mixed.bytes
        let animation = try coder.openAnimation(bytes)
        for index in [9, 3, 8, 7, 7, 2, 6, 0, 5, 4, 1, 9] {
            let frame = try animation.decodeFrame(at: index, request: DecodeRequest())
            #expect(frame.pixels.packedBytes() == (try reference(bytes, frame: index)), "frame \(index)")
        }
    }

    /// Each frame is the caller's own: decoding the next one does not change it.
    @Test func aDecodedFrameKeepsItsPixels() throws {
        let bytes = Self.mixed.bytes
        let animation = try coder.openAnimation(bytes)
        let first = try animation.decodeFrame(at: 0, request: DecodeRequest())
        let before = first.pixels.packedBytes()
        _ = try animation.decodeFrame(at: 1, request: DecodeRequest())
        #expect(first.pixels.packedBytes() == before)
    }

    /// A key frame whose data ends after two of its five rows: that frame is a corrupt-data
    /// error, and the next frame shows those two rows over the frame before, whether the
    /// frames are asked in order or the later frame first.
    @Test func aKeyFrameThatFailsLeavesItsRowsForTheNextFrame() throws {
        var broken = Self.full(1)
        broken.pixelsBeforeEnd = 2 * Self.width
        let bytes = HandMadeGIF(
            width: Self.width, height: Self.height, frames: [Self.full(0), broken, Self.patch(2, left: 1, top: 1)]
        ).bytes
        let zeroRows = Self.width * 2 * 4
        var expected = try reference(
            HandMadeGIF(width: Self.width, height: Self.height, frames: [Self.full(0)]).bytes, frame: 0)
        let fullRows = try reference(
            HandMadeGIF(width: Self.width, height: Self.height, frames: [Self.full(1)]).bytes, frame: 0)
        expected.replaceSubrange(0..<zeroRows, with: fullRows[0..<zeroRows])
        for y in 1..<3 {
            for x in 1..<4 {
                let index = Int(UInt8((2 * 17 + (y - 1) * 3 + (x - 1)) & 0xFF))
                let start = (y * Self.width + x) * 4
                expected.replaceSubrange(start..<(start + 4), with: HandMadeGIF.color(index) + [255])
            }
        }
        for order in [[0, 1, 2], [2], [1, 2]] {
            let animation = try coder.openAnimation(bytes)
            for index in order {
                if index == 1 {
                    let error = try #require(throws: ImageCodingError.self) {
                        try animation.decodeFrame(at: 1, request: DecodeRequest())
                    }
                    #expect(error.kind == .corruptData)
                } else if index == 2 {
                    let frame = try animation.decodeFrame(at: 2, request: DecodeRequest())
                    #expect(frame.pixels.packedBytes() == expected, "order \(order)")
                } else {
                    _ = try animation.decodeFrame(at: index, request: DecodeRequest())
                }
            }
        }
    }
}
