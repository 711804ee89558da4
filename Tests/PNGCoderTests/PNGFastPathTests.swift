import CPNGShim
import PNGCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// The libdeflate fast path (DeflateFastPath/png_fast_path.c) against libpng's reader: the same pixels
/// byte for byte on every fixture, and libpng's own errors whenever the fast path hands a
/// damaged file back. Fixtures: `Tests/Fixtures/png/make-filter-fixtures.py`.
@Suite struct PNGFastPathTests {
    let coder = PNGImageCoder()

    /// The `filtered-*` fixtures: every colour type and depth, all five filters, several IDAT chunks.
    static let filteredNames: [String] = [
        "gray1", "gray2", "gray4", "gray8", "gray16", "gray1-trns", "gray2-trns", "gray4-trns", "gray8-trns",
        "gray16-trns", "graya8", "graya16", "rgb8", "rgb16", "rgb8-trns", "rgb16-trns", "palette1", "palette2",
        "palette4", "palette8", "rgba8", "rgba16",
    ].flatMap { ["filtered-\($0)", "filtered-\($0)-1x6"] }

    func decode(_ bytes: [UInt8], sixteen: Bool = false, _ decoder: png_shim_decoder, padding: Int = 0) throws
        -> ShimDecoder.Image
    {
        try ShimDecoder.decode(bytes, sixteen: sixteen, decoder: decoder, padding: padding).get()
    }

    /// Decodes `bytes` through all three decoders and checks that they agree.
    func expectSamePixels(_ bytes: [UInt8], sixteen: Bool, fastPath: Bool, _ name: String) throws {
        let libpng = try decode(bytes, sixteen: sixteen, PNG_SHIM_DECODER_LIBPNG)
        let automatic = try decode(bytes, sixteen: sixteen, PNG_SHIM_DECODER_AUTOMATIC)
        let portable = try decode(bytes, sixteen: sixteen, PNG_SHIM_DECODER_PORTABLE_FILTERS)
        #expect(!libpng.usedFastPath)
        #expect(automatic.usedFastPath == fastPath, "\(name)")
        #expect(portable.usedFastPath == fastPath, "\(name)")
        #expect(automatic.pixels == libpng.pixels, "\(name) sixteen: \(sixteen)")
        #expect(portable.pixels == libpng.pixels, "\(name) sixteen: \(sixteen)")
    }

    @Test(arguments: filteredNames)
    func everyFilterTypeAndFormatEqualsLibpng(name: String) throws {
        let bytes = try Fixture.bytes("png/\(name).png")
        #expect(ShimDecoder.chunkOffsets(bytes, type: "IDAT").count >= 2)
        try expectSamePixels(bytes, sixteen: false, fastPath: true, name)
        try expectSamePixels(bytes, sixteen: true, fastPath: true, name)
    }

    @Test(arguments: PNGFixturePixels.names)
    func everyOriginalFixtureEqualsLibpngAndOnlyAdam7SkipsTheFastPath(name: String) throws {
        let bytes = try Fixture.bytes("png/\(name).png")
        let fastPath = !name.hasSuffix("adam7")
        try expectSamePixels(bytes, sixteen: false, fastPath: fastPath, name)
        try expectSamePixels(bytes, sixteen: true, fastPath: fastPath, name)
    }

    @Test func aPhotographLikeSampleTakesTheFastPath() throws {
        let bytes = try Fixture.bytes("../../Examples/sample-images/badge.png")
        try expectSamePixels(bytes, sixteen: false, fastPath: true, "badge")
    }

    /// Rows further apart than packed: the fast path inflates into the buffer's tail, and
    /// the overlap arithmetic depends on the stride.
    @Test(arguments: [1, 13, 64])
    func paddedRowsGiveTheSamePixels(padding: Int) throws {
        for name in ["filtered-palette1", "filtered-gray16", "filtered-rgb8", "filtered-rgba8", "filtered-rgb16"] {
            let bytes = try Fixture.bytes("png/\(name).png")
            for sixteen in [false, true] {
                let packed = try decode(bytes, sixteen: sixteen, PNG_SHIM_DECODER_LIBPNG)
                let padded = try decode(bytes, sixteen: sixteen, PNG_SHIM_DECODER_AUTOMATIC, padding: padding)
                #expect(padded == ShimDecoder.Image(pixels: packed.pixels, usedFastPath: true), "\(name)")
            }
        }
    }

    @Test func thePublicDecodeEqualsTheReferenceDecoder() throws {
        for name in Self.filteredNames {
            let bytes = try Fixture.bytes("png/\(name).png")
            let image = try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
            #expect(image.pixels.packedBytes() == (try PNGReferenceParityTests().reference(bytes, sixteen: false)))
        }
    }

    /// Files the fast path declines but libpng decodes: the same pixels, from libpng.
    @Test(arguments: ["fast-extra-data", "fast-small-window"])
    func filesOnlyLibpngReadsDecodeThroughLibpng(name: String) throws {
        try expectSamePixels(try Fixture.bytes("png/\(name).png"), sixteen: false, fastPath: false, name)
    }

    /// A complete zlib stream followed by an IDAT of junk: libpng stops at the stream's
    /// end without reading the junk, and so does libdeflate.
    @Test func junkAfterTheStreamIsIgnoredLikeLibpngDoes() throws {
        try expectSamePixels(
            try Fixture.bytes("png/fast-junk-idat-after-end.png"), sixteen: false, fastPath: true, "junk")
    }

    /// The public decode's error, after checking that the fast path's fallback gives
    /// exactly libpng's status and message.
    func errorOfBothPaths(_ bytes: [UInt8]) throws -> ImageCodingError {
        let libpng = ShimDecoder.decode(bytes, decoder: PNG_SHIM_DECODER_LIBPNG)
        let automatic = ShimDecoder.decode(bytes, decoder: PNG_SHIM_DECODER_AUTOMATIC)
        #expect(throws: ShimDecoder.Failure.self) { try libpng.get() }
        #expect(automatic == libpng)
        return try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        }
    }

    /// The second IDAT chunk's stored CRC is off by one bit; its data is intact.
    @Test func aBadIDATChecksumGivesLibpngsError() throws {
        var bytes = try Fixture.bytes("png/filtered-rgb8.png")
        let second = ShimDecoder.chunkOffsets(bytes, type: "IDAT")[1]
        bytes[second + 8 + ShimDecoder.chunkLength(bytes, at: second) + 3] ^= 0x01
        let error = try errorOfBothPaths(bytes)
        #expect(error.kind == .corruptData)
        #expect(error.message == "corrupt PNG: IDAT: CRC error")
    }

    @Test func aFileCutInsideAnIDATGivesLibpngsTruncationError() throws {
        let bytes = try Fixture.bytes("png/filtered-rgb8.png")
        let third = ShimDecoder.chunkOffsets(bytes, type: "IDAT")[2]
        let error = try errorOfBothPaths(Array(bytes.prefix(third + 8 + 40)))
        #expect(error.kind == .truncatedData)
        #expect(error.message == "truncated PNG: the file ends before the image is complete")
    }

    /// `filtered-rgb8.png` with `change` applied to the payload of its first or last IDAT
    /// chunk and that chunk's CRC recomputed, so only the zlib layer can notice.
    func damagedStream(inFirstChunk: Bool, _ change: (inout ArraySlice<UInt8>) -> Void) throws -> [UInt8] {
        var bytes = try Fixture.bytes("png/filtered-rgb8.png")
        let chunks = ShimDecoder.chunkOffsets(bytes, type: "IDAT")
        let offset = inFirstChunk ? chunks[0] : chunks[chunks.count - 1]
        let length = ShimDecoder.chunkLength(bytes, at: offset)
        change(&bytes[(offset + 8)..<(offset + 8 + length)])
        return ShimDecoder.withFixedCRC(bytes, chunkAt: offset)
    }

    @Test func aCorruptDeflateBlockGivesLibpngsError() throws {
        let bytes = try damagedStream(inFirstChunk: true) { $0[$0.startIndex + 2] ^= 0xFF }
        let error = try errorOfBothPaths(bytes)
        #expect(error.kind == .corruptData)
        #expect(error.message == "corrupt PNG: IDAT: invalid block type")
    }

    @Test func aWrongAdlerChecksumGivesLibpngsError() throws {
        let bytes = try damagedStream(inFirstChunk: false) { $0[$0.endIndex - 1] ^= 0x01 }
        let error = try errorOfBothPaths(bytes)
        #expect(error.kind == .corruptData)
        #expect(error.message == "corrupt PNG: IDAT: incorrect data check")
    }

    /// A zlib header declaring a 64 KiB window (CINFO 8) with a valid check value.
    @Test func anInvalidZlibWindowGivesLibpngsError() throws {
        let bytes = try damagedStream(inFirstChunk: true) { payload in
            let first = payload.startIndex
            payload[first] = 0x88
            payload[first + 1] &= 0xE0
            payload[first + 1] |= UInt8((31 - (0x88 * 256 + Int(payload[first + 1])) % 31) % 31)
        }
        let error = try errorOfBothPaths(bytes)
        #expect(error.kind == .corruptData)
        #expect(error.message == "corrupt PNG: IDAT: invalid window size (libpng)")
    }

    /// A stream whose header declares a 512-byte window but whose matches reach farther:
    /// zlib rejects it and libdeflate would not, so the fast path must leave it to libpng.
    @Test func aStreamReachingPastItsDeclaredWindowGivesLibpngsError() throws {
        let error = try errorOfBothPaths(try Fixture.bytes("png/fast-lying-window.png"))
        #expect(error.kind == .corruptData)
        #expect(error.message == "corrupt PNG: IDAT: invalid distance too far back")
    }

    @Test func aBadFilterTypeGivesLibpngsError() throws {
        let error = try errorOfBothPaths(try Fixture.bytes("png/fast-bad-filter-type.png"))
        #expect(error.kind == .corruptData)
        #expect(error.message == "corrupt PNG: bad adaptive filter value")
    }

    @Test(arguments: ["fast-short-data", "fast-split-by-text"])
    func missingImageDataGivesLibpngsError(name: String) throws {
        let error = try errorOfBothPaths(try Fixture.bytes("png/\(name).png"))
        #expect(error.kind == .corruptData)
        #expect(error.message == "corrupt PNG: Not enough image data")
    }

    @Test func theExistingDamagedFixturesKeepTheirErrors() throws {
        #expect(
            try errorOfBothPaths(try Fixture.bytes("png/bad-crc.png")).message
                == "corrupt PNG: IDAT: incorrect data check")
        #expect(try errorOfBothPaths(try Fixture.bytes("png/bad-truncated.png")).kind == .truncatedData)
    }
}
