import Testing
import WebImageCore
import WebPCoder

@Suite struct WebPIncrementalTests {
    let coder = WebPImageCoder()

    func feed(_ bytes: [UInt8], to decoder: any IncrementalImageDecoder, chunk: Int, upTo end: Int, isFinal: Bool)
        throws
    {
        var offset = 0
        while offset < end {
            let stop = min(offset + chunk, end)
            try bytes[offset..<stop].withUnsafeBytes { try decoder.append($0, isFinal: isFinal && stop == end) }
            offset = stop
        }
    }

    @Test(arguments: ["lossy.webp", "lossy-alpha.webp", "lossless.webp", "lossless-alpha.webp", "animated.webp"])
    func smallPiecesEndInTheFullImage(name: String) throws {
        let bytes = try Fixture.bytes(name)
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        try feed(bytes, to: decoder, chunk: 7, upTo: bytes.count, isFinal: true)
        let image = try #require(try decoder.currentImage())
        #expect(!image.isPartial)
        let full = try coder.decode(bytes)
        #expect(image.pixels.packedBytes() == full.pixels.packedBytes())
        #expect(image.traits == full.traits)
    }

    @Test func nothingShowsBeforeTheHeader() throws {
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        try feed(try Fixture.bytes("lossy.webp"), to: decoder, chunk: 5, upTo: 20, isFinal: false)
        #expect(try decoder.currentImage() == nil)
    }

    @Test func aLossyImageShowsItsRowsSoFar() throws {
        let bytes = try Fixture.bytes("lossy.webp")
        let full = try coder.decode(bytes)
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        try feed(bytes, to: decoder, chunk: 16, upTo: bytes.count - 30, isFinal: false)
        let partial = try #require(try decoder.currentImage())
        #expect(partial.isPartial)
        #expect(partial.width == 61 && partial.height == 43)
        #expect(partial.pixels.channels(x: 5, y: 0) == full.pixels.channels(x: 5, y: 0))
        #expect(partial.pixels.channels(x: 60, y: 42) == [0, 0, 0, 0])
    }

    @Test func theEndOfDataBeforeTheImageIsATruncationError() throws {
        let bytes = try Fixture.bytes("lossy.webp")
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        let error = try #require(throws: ImageCodingError.self) {
            try feed(bytes, to: decoder, chunk: 16, upTo: bytes.count - 30, isFinal: true)
        }
        #expect(error == ImageCodingError(.truncatedData, "truncated WebP: the file ends before the image is complete"))
        #expect(try decoder.currentImage()?.isPartial == true)
    }

    @Test func theEndOfDataInTheHeaderIsATruncationError() throws {
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        let error = try #require(throws: ImageCodingError.self) {
            try feed(try Fixture.bytes("lossy.webp"), to: decoder, chunk: 5, upTo: 20, isFinal: true)
        }
        #expect(error.kind == .truncatedData)
        #expect(try decoder.currentImage() == nil)
    }

    @Test func theLimitAppliesBeforeAnythingIsDecoded() throws {
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest(maxPixelCount: 100))
        let error = try #require(throws: ImageCodingError.self) {
            try feed(try Fixture.bytes("bad-huge.webp"), to: decoder, chunk: 30, upTo: 30, isFinal: false)
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
