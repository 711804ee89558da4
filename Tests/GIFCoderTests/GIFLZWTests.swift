import GIFCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// The shim's own LZW decoder: real compression, bad codes, frames bigger than the canvas.
@Suite struct GIFLZWTests {
    let coder = GIFImageCoder()

    /// A GIF89a with a 4-colour global table (black, red, green, blue) and one frame whose
    /// image data is `codes` packed as 3-bit LZW codes (minimum code size 2).
    func gif(canvas: (Int, Int), frame: (Int, Int), codes: [Int]) -> [UInt8] {
        func word(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        let data = HandMadeGIF.packed(codes, bits: 3)
        return Array("GIF89a".utf8) + word(canvas.0) + word(canvas.1) + [0x81, 0, 0]
            + [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]
            + [0x2C] + word(0) + word(0) + word(frame.0) + word(frame.1) + [0, 2]
            + [UInt8(data.count)] + data + [0, 0x3B]
    }

    /// Codes for `indices` without compression: a clear code before the table would need 4 bits.
    func uncompressed(_ indices: [Int]) -> [Int] {
        var codes = [4]
        for (offset, index) in indices.enumerated() {
            if offset > 0 && offset % 2 == 0 { codes.append(4) }
            codes.append(index)
        }
        return codes + [5]
    }

    func decode(_ bytes: [UInt8]) throws -> DecodedImage {
        try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
    }

    @Test func codesGrowingTo12BitsTheKwKwKCaseAndAFullTableEqualImageMagick() throws {
        let image = try decode(try Fixture.bytes("gif/compressed.gif"))
        #expect(image.width == 64 && image.height == 96)
        #expect(image.visibleBytes == (try CoalescedFrames.frames("compressed", count: 1)[0]))
    }

    @Test func aCodeAboveTheNextTableEntryIsCorrupt() throws {
        // After clear and one literal the next entry is 6: code 7 is not defined.
        let error = try #require(throws: ImageCodingError.self) {
            try decode(gif(canvas: (2, 1), frame: (2, 1), codes: [4, 1, 7, 5]))
        }
        #expect(error == ImageCodingError(.corruptData, "corrupt GIF: frame 0: an LZW code that is not in the table"))
    }

    @Test func dataEndingBeforeTheLastPixelIsCorrupt() throws {
        let error = try #require(throws: ImageCodingError.self) {
            try decode(gif(canvas: (2, 2), frame: (2, 2), codes: [4, 1, 2, 5]))
        }
        #expect(error.kind == .corruptData && error.message.hasPrefix("corrupt GIF: frame 0: the LZW end code"))
    }

    @Test func aFrameBiggerThanTheCanvasIsClipped() throws {
        let image = try decode(gif(canvas: (2, 2), frame: (3, 3), codes: uncompressed([1, 2, 3, 2, 3, 1, 3, 1, 2])))
        let red: [UInt8] = [255, 0, 0, 255]
        let green: [UInt8] = [0, 255, 0, 255]
        let blue: [UInt8] = [0, 0, 255, 255]
        #expect(image.visibleBytes == red + green + green + blue)
    }

    @Test func aFrameWithoutColumnsDrawsNothing() throws {
        let image = try decode(gif(canvas: (2, 2), frame: (0, 3), codes: [4, 5]))
        #expect(image.visibleBytes == [UInt8](repeating: 0, count: 16))
    }
}
