import PNGCoder
import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

@Suite struct PNGIncrementalTests {
    let coder = PNGImageCoder()

    @Test(arguments: ["rgba8", "palette8", "rgba8-adam7", "gray16"])
    func bytesInSmallPiecesEndInTheFullImage(name: String) throws {
        let bytes = try Fixture.bytes("png/\(name).png")
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        try bytes[0..<20].withUnsafeBytes { try decoder.append($0, isFinal: false) }
        #expect(try decoder.currentImage() == nil)
        try DripFeed.feed(bytes, to: decoder, chunkSize: 17, from: 20)
        let image = try #require(try decoder.currentImage())
        #expect(!image.isPartial)
        let full = try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        #expect(image.pixels.packedBytes() == full.pixels.packedBytes())
    }

    @Test func aPartialImageShowsTheRowsSoFar() throws {
        let bytes = try Fixture.bytes("png/rgba8.png")
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        try bytes[0..<(bytes.count / 2)].withUnsafeBytes { try decoder.append($0, isFinal: false) }
        let partial = try #require(try decoder.currentImage())
        #expect(partial.isPartial)
        #expect(partial.width == 13 && partial.height == 7)
        #expect(partial.pixels.channels(x: 0, y: 0) == PNGFixturePixels.rgba("rgba8", x: 0, y: 0))
        #expect(partial.pixels.channels(x: 12, y: 6) == [0, 0, 0, 0])
    }

    @Test func theEndOfDataBeforeTheImageIsATruncationError() throws {
        let bytes = try Fixture.bytes("png/bad-truncated.png")
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        let error = try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try decoder.append($0, isFinal: true) }
        }
        #expect(error.kind == .truncatedData)
        #expect(try decoder.currentImage()?.isPartial == true)
    }

    @Test func corruptionStopsTheDecodeForGood() throws {
        let bytes = try Fixture.bytes("png/bad-crc.png")
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        let first = try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try decoder.append($0, isFinal: false) }
        }
        #expect(first.kind == .corruptData)
        let again = try #require(throws: ImageCodingError.self) {
            try [UInt8(0)].withUnsafeBytes { try decoder.append($0, isFinal: true) }
        }
        #expect(again == first)
    }

    @Test func theLimitAppliesToIncrementalDecodes() throws {
        let bytes = try Fixture.bytes("png/large-120mp.png")
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        let error = try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try decoder.append($0, isFinal: false) }
        }
        #expect(error.kind == .tooLarge)
    }
}
