import JPEGCoder
import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

@Suite struct JPEGMalformedInputTests {
    let coder = JPEGImageCoder()

    func decodeError(_ bytes: [UInt8], request: DecodeRequest = DecodeRequest()) throws -> ImageCodingError {
        try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try coder.decode($0, request: request) }
        }
    }

    @Test(arguments: ["bad-truncated-baseline", "bad-truncated-progressive"])
    func aFileThatEndsEarlyIsAnErrorNotAGreyImage(name: String) throws {
        let error = try decodeError(try Fixture.bytes("jpeg/\(name).jpg"))
        #expect(error.kind == .truncatedData)
        #expect(error.message.hasPrefix("truncated JPEG: "))
    }

    @Test func aFileThatEndsInTheHeaderIsTruncated() throws {
        let bytes = try Fixture.bytes("jpeg/bad-truncated-header.jpg")
        #expect(try decodeError(bytes).kind == .truncatedData)
        let error = try #require(throws: ImageCodingError.self) { try bytes.withUnsafeBytes { try coder.probe($0) } }
        #expect(error == ImageCodingError(.truncatedData, "truncated JPEG: the file ends inside the JPEG header"))
        #expect(try decodeError([0xFF]).kind == .truncatedData)
        #expect(try decodeError([]).kind == .truncatedData)
    }

    @Test func aZeroHeightIsCorruption() throws {
        let error = try decodeError(try Fixture.bytes("jpeg/bad-zero-height.jpg"))
        #expect(error == ImageCodingError(.corruptData, "corrupt JPEG: Empty JPEG image (DNL not supported)"))
    }

    @Test func hugeDimensionsFailBeforeAllocating() throws {
        let error = try decodeError(try Fixture.bytes("jpeg/bad-huge.jpg"))
        #expect(error == ImageCodingError.tooLarge(width: 60000, height: 60000, limit: 100_000_000))
    }

    @Test func theLimitCountsTheScaledOutput() throws {
        let bytes = try Fixture.bytes("jpeg/baseline.jpg")
        let full = try decodeError(bytes, request: DecodeRequest(maxPixelCount: 100))
        #expect(full == ImageCodingError.tooLarge(width: 61, height: 43, limit: 100))
        let thumbnail = try bytes.withUnsafeBytes {
            try coder.decode($0, request: DecodeRequest(thumbnailBox: (8, 6), maxPixelCount: 100))
        }
        #expect(thumbnail.width == 8 && thumbnail.height == 6)
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt32])
    func randomBytesAfterTheSignatureAreATypedError(seed: UInt32) throws {
        let bytes = [0xFF, 0xD8, 0xFF] + SeededNoise.bytes(count: 65536, seed: seed)
        let error = try decodeError(bytes)
        #expect(error.kind != .internalError)
        let thumbnailError = try decodeError(bytes, request: DecodeRequest(thumbnailBox: (64, 64)))
        #expect(thumbnailError.kind != .internalError)
    }

    @Test func otherBytesAreNotJPEG() throws {
        let error = try decodeError(Array("GIF89a and more bytes".utf8))
        #expect(error == ImageCodingError(.unsupportedFormat, "not a JPEG file (no SOI marker)"))
    }
}
