import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport
import WebPCoder

@Suite struct WebPIncrementalTests {
    let coder = WebPImageCoder()

    @Test(arguments: ["lossy.webp", "lossy-alpha.webp", "lossless.webp", "lossless-alpha.webp", "animated.webp"])
    func smallPiecesEndInTheFullImage(name: String) throws {
        let bytes = try Fixture.bytes("webp/\(name)")
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        try DripFeed.feed(bytes, to: decoder, chunkSize: 7, upTo: bytes.count, isFinal: true)
        let image = try #require(try decoder.currentImage())
        #expect(!image.isPartial)
        let full = try coder.decode(bytes)
        #expect(image.pixels.packedBytes() == full.pixels.packedBytes())
        #expect(image.traits == full.traits)
    }

    @Test func nothingShowsBeforeTheHeader() throws {
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        try DripFeed.feed(try Fixture.bytes("webp/lossy.webp"), to: decoder, chunkSize: 5, upTo: 20, isFinal: false)
        #expect(try decoder.currentImage() == nil)
    }

    @Test func aLossyImageShowsItsRowsSoFar() throws {
        let bytes = try Fixture.bytes("webp/lossy.webp")
        let full = try coder.decode(bytes)
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        try DripFeed.feed(bytes, to: decoder, chunkSize: 16, upTo: bytes.count - 30, isFinal: false)
        let partial = try #require(try decoder.currentImage())
        #expect(partial.isPartial)
        #expect(partial.width == 61 && partial.height == 43)
        #expect(partial.pixels.channels(x: 5, y: 0) == full.pixels.channels(x: 5, y: 0))
        #expect(partial.pixels.channels(x: 60, y: 42) == [0, 0, 0, 0])
    }

    @Test func theEndOfDataBeforeTheImageIsATruncationError() throws {
        let bytes = try Fixture.bytes("webp/lossy.webp")
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        let error = try #require(throws: ImageCodingError.self) {
            try DripFeed.feed(bytes, to: decoder, chunkSize: 16, upTo: bytes.count - 30, isFinal: true)
        }
        #expect(error == ImageCodingError(.truncatedData, "truncated WebP: the file ends before the image is complete"))
        #expect(try decoder.currentImage()?.isPartial == true)
    }

    @Test func theEndOfDataInTheHeaderIsATruncationError() throws {
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        let error = try #require(throws: ImageCodingError.self) {
            try DripFeed.feed(try Fixture.bytes("webp/lossy.webp"), to: decoder, chunkSize: 5, upTo: 20, isFinal: true)
        }
        #expect(error.kind == .truncatedData)
        #expect(try decoder.currentImage() == nil)
    }

    @Test func theLimitAppliesBeforeAnythingIsDecoded() throws {
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest(maxPixelCount: 100))
        let error = try #require(throws: ImageCodingError.self) {
            try DripFeed.feed(
                try Fixture.bytes("webp/bad-huge.webp"), to: decoder, chunkSize: 30, upTo: 30, isFinal: false)
        }
        #expect(error == ImageCodingError(.tooLarge, "the image exceeds the pixel limit"))
    }

    @Test func otherBytesAreNotWebP() throws {
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        let error = try #require(throws: ImageCodingError.self) {
            try Array("GIF89a and more bytes".utf8).withUnsafeBytes { try decoder.append($0, isFinal: false) }
        }
        #expect(error.kind == .unsupportedFormat)
    }
}
