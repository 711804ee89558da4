import JPEGCoder
import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

@Suite struct JPEGIncrementalTests {
    let coder = JPEGImageCoder()

    @Test(arguments: ["baseline", "progressive", "gray", "cmyk", "orientation-6"])
    func smallPiecesEndInTheFullImage(name: String) throws {
        let bytes = try Fixture.bytes("jpeg/\(name).jpg")
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        try DripFeed.feed(bytes, to: decoder, chunkSize: 7, upTo: bytes.count, isFinal: true)
        let image = try #require(try decoder.currentImage())
        #expect(!image.isPartial)
        let full = try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        #expect(image.pixels.packedBytes() == full.pixels.packedBytes())
        #expect(image.orientation == full.orientation)
    }

    @Test func nothingShowsBeforeTheHeader() throws {
        let bytes = try Fixture.bytes("jpeg/baseline.jpg")
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        try DripFeed.feed(bytes, to: decoder, chunkSize: 50, upTo: 100, isFinal: false)
        #expect(try decoder.currentImage() == nil)
    }

    @Test func aSequentialFileShowsItsRowsSoFar() throws {
        let bytes = try Fixture.bytes("jpeg/baseline.jpg")
        let full = try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        try DripFeed.feed(bytes, to: decoder, chunkSize: 64, upTo: bytes.count - 120, isFinal: false)
        let partial = try #require(try decoder.currentImage())
        #expect(partial.isPartial)
        #expect(partial.pixels.channels(x: 5, y: 0) == full.pixels.channels(x: 5, y: 0))
        #expect(partial.pixels.channels(x: 60, y: 42) == [0, 0, 0, 0])
    }

    @Test func aProgressiveFileShowsItsScansSoFar() throws {
        let bytes = try Fixture.bytes("jpeg/progressive.jpg")
        let full = try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        try DripFeed.feed(bytes, to: decoder, chunkSize: 64, upTo: bytes.count * 6 / 10, isFinal: false)
        let partial = try #require(try decoder.currentImage())
        #expect(partial.isPartial)
        #expect(partial.pixels.channels(x: 60, y: 42)[3] == 255)
        #expect(partial.pixels.packedBytes() != full.pixels.packedBytes())
    }

    @Test func theEndOfDataBeforeTheImageIsATruncationError() throws {
        let bytes = try Fixture.bytes("jpeg/baseline.jpg")
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        let error = try #require(throws: ImageCodingError.self) {
            try DripFeed.feed(bytes, to: decoder, chunkSize: 64, upTo: bytes.count - 120, isFinal: true)
        }
        #expect(error == ImageCodingError(.truncatedData, "truncated JPEG: the file ends before the image is complete"))
        #expect(try decoder.currentImage()?.isPartial == true)
    }

    @Test func theLimitAppliesToIncrementalDecodes() throws {
        let bytes = try Fixture.bytes("jpeg/baseline.jpg")
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest(maxPixelCount: 100))
        let error = try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try decoder.append($0, isFinal: true) }
        }
        #expect(error.kind == .tooLarge)
    }
}
