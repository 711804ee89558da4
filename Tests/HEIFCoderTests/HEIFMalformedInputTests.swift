import HEIFCoder
import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

@Suite struct HEIFMalformedInputTests {
    let coder = HEIFImageCoder()

    func decodeError(_ bytes: [UInt8], request: DecodeRequest = DecodeRequest()) throws -> ImageCodingError {
        try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try coder.decode($0, request: request) }
        }
    }

    @Test func emptyAndTinyInputsAreTruncated() throws {
        #expect(try decodeError([]) == ImageCodingError(.truncatedData, "truncated HEIF: the data is empty"))
        #expect(
            try decodeError([0, 0, 0]) == ImageCodingError(.truncatedData, "truncated HEIF: the file has only 3 bytes"))
    }

    @Test(arguments: ["bad-truncated.heic", "bad-truncated-header.heic"])
    func aFileThatEndsEarlyIsTruncated(name: String) throws {
        let error = try decodeError(try Fixture.bytes("heif/\(name)"))
        #expect(error.kind == .truncatedData)
        #expect(error.message.hasPrefix("truncated HEIF: "))
    }

    @Test func anIspeBiggerThanTheCodedImageIsCorrupt() throws {
        let error = try decodeError(try Fixture.bytes("heif/bad-ispe-bigger.heic"))
        #expect(
            error
                == ImageCodingError(.corruptData, "corrupt HEIF: the coded image is 96×64 but the file declares 128×96")
        )
    }

    @Test func hugeDimensionsFailBeforeDecoding() throws {
        let error = try decodeError(try Fixture.bytes("heif/bad-ispe-huge.heic"))
        #expect(error == ImageCodingError.tooLarge(width: 60000, height: 60000, limit: 100_000_000))
    }

    @Test(arguments: ["bad-overlay-canvas.heic", "bad-overlay-primary.heic"])
    func anOverlayCanvasOverTheLimitFailsBeforeDecoding(name: String) throws {
        let error = try decodeError(
            try Fixture.bytes("heif/\(name)"), request: DecodeRequest(maxPixelCount: 16_000_000))
        #expect(error.kind == .tooLarge)
        #expect(error.message.hasPrefix("image too large: a derived image's canvas of "))
    }

    @Test func libheifsSideLimitFollowsThePixelLimit() throws {
        // 60000 > 50000 per side: libheif itself refuses while reading the boxes.
        let error = try decodeError(
            try Fixture.bytes("heif/bad-ispe-huge.heic"), request: DecodeRequest(maxPixelCount: 50_000))
        #expect(error.kind == .tooLarge)
        #expect(error.message.contains("Security limit exceeded"))
    }

    @Test func theLimitIsCheckedBeforeDecoding() throws {
        let error = try decodeError(
            try Fixture.bytes("heif/rgb.heic"), request: DecodeRequest(maxPixelCount: 96 * 64 - 1))
        #expect(error == ImageCodingError.tooLarge(width: 96, height: 64, limit: 96 * 64 - 1))
        let image = try Fixture.decode("rgb.heic", request: DecodeRequest(maxPixelCount: 96 * 64))
        #expect(image.width == 96)
    }

    /// An ftyp box followed by 64 KiB of seeded noise.
    static func noise(seed: UInt32) -> [UInt8] {
        let ftyp: [UInt8] = [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
        return ftyp + SeededNoise.bytes(count: 65536, seed: seed)
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt32])
    func randomBytesAfterTheFtypBoxAreATypedError(seed: UInt32) throws {
        let error = try decodeError(Self.noise(seed: seed))
        #expect(error.kind == .corruptData || error.kind == .truncatedData)
    }

    @Test func everyPrefixOfAFileIsATypedError() throws {
        let bytes = try Fixture.bytes("heif/alpha.heic")
        for length in stride(from: 1, to: bytes.count, by: 7) {
            let error = try decodeError(Array(bytes[..<length]))
            #expect(error.kind == .truncatedData || error.kind == .corruptData, "prefix \(length): \(error)")
        }
    }

    @Test func otherBytesAreNotHEIF() throws {
        let error = try decodeError(Array("GIF89a and some more bytes".utf8))
        #expect(
            error == ImageCodingError(.unsupportedFormat, "not a HEIF file: the file does not start with an 'ftyp' box")
        )
    }
}
