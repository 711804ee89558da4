import PNGCoder
import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

@Suite struct PNGMalformedInputTests {
    let coder = PNGImageCoder()

    func decodeError(_ bytes: [UInt8], thumbnail: Bool = false) throws -> ImageCodingError {
        let request = DecodeRequest(thumbnailBox: thumbnail ? (64, 64) : nil)
        return try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try coder.decode($0, request: request) }
        }
    }

    @Test func aTruncatedFileIsATruncationError() throws {
        let error = try decodeError(try Fixture.bytes("png/bad-truncated.png"))
        #expect(error.kind == .truncatedData)
        #expect(error.message == "truncated PNG: the file ends before the image is complete")
    }

    @Test func aFileCutInsideTheSignatureIsTruncated() throws {
        #expect(try decodeError([0x89, 0x50, 0x4E]).kind == .truncatedData)
        #expect(try decodeError([]).kind == .truncatedData)
    }

    @Test func aBadChecksumIsCorruption() throws {
        let error = try decodeError(try Fixture.bytes("png/bad-crc.png"))
        #expect(error.kind == .corruptData)
        #expect(error.message == "corrupt PNG: IDAT: incorrect data check")
    }

    @Test func aZeroWidthIsCorruption() throws {
        let error = try decodeError(try Fixture.bytes("png/bad-zero-width.png"))
        #expect(error.kind == .corruptData)
        #expect(error.message == "corrupt PNG: Invalid IHDR data")
        #expect(
            try Fixture.bytes("png/bad-zero-width.png").withUnsafeBytes { raw in
                Result { try coder.probe(raw) }
            }.isFailure)
    }

    @Test func missingImageDataIsAnErrorNotAGreyImage() throws {
        let error = try decodeError(try Fixture.bytes("png/bad-huge.png"))
        #expect(error.kind == .tooLarge)
        let thumbnailError = try #require(throws: ImageCodingError.self) {
            try Fixture.bytes("png/bad-huge.png").withUnsafeBytes {
                try coder.decode($0, request: DecodeRequest(thumbnailBox: (100, 100)))
            }
        }
        #expect(thumbnailError.kind == .corruptData || thumbnailError.kind == .truncatedData)
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt32])
    func randomBytesAfterTheSignatureAreATypedError(seed: UInt32) throws {
        let bytes = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + SeededNoise.bytes(count: 65536, seed: seed)
        let error = try decodeError(bytes)
        #expect(error.kind != .internalError)
        let thumbnailError = try decodeError(bytes, thumbnail: true)
        #expect(thumbnailError.kind != .internalError)
    }

    @Test func otherBytesAreNotPNG() throws {
        let error = try decodeError(Array("this is not an image at all".utf8))
        #expect(error.kind == .unsupportedFormat)
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
