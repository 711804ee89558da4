import Testing
import WebImageCore
import WebImageTestSupport
import WebPCoder

@Suite struct WebPDecodeTests {
    let coder = WebPImageCoder()

    @Test func losslessPixelsEqualTheSourceExactly() throws {
        let image = try coder.decode(try Fixture.bytes("webp/lossless.webp"))
        #expect(image.width == 61 && image.height == 43)
        #expect(image.pixels.format == .rgba8)
        #expect(image.pixels.packedBytes() == Pattern.bytes(Pattern.rgb))
        #expect(image.traits == [])
    }

    @Test func losslessAlphaKeepsStraightAlphaAndColourExactly() throws {
        let image = try coder.decode(try Fixture.bytes("webp/lossless-alpha.webp"))
        #expect(image.pixels.packedBytes() == Pattern.bytes(Pattern.rgba))
        #expect(image.traits == [.hasAlpha])
        #expect(image.pixels.channels(x: 0, y: 0) == [0, 0, 40, 0])
    }

    @Test(arguments: ["lossy.webp", "lossy-alpha.webp", "lossless.webp", "lossless-alpha.webp"])
    func pixelsEqualLibwebpsOwnDecode(name: String) throws {
        let bytes = try Fixture.bytes("webp/\(name)")
        let image = try coder.decode(bytes)
        #expect(image.pixels.packedBytes() == (try Reference.decode(bytes, width: 61, height: 43)))
    }

    @Test func lossyIsCloseToTheSource() throws {
        let image = try coder.decode(try Fixture.bytes("webp/lossy.webp"))
        let decoded = image.pixels.packedBytes()
        let source = Pattern.bytes(Pattern.rgb)
        let error = zip(decoded, source).map { abs(Int($0) - Int($1)) }.reduce(0, +)
        #expect(Double(error) / Double(source.count) < 3)
        #expect(stride(from: 3, to: decoded.count, by: 4).allSatisfy { decoded[$0] == 255 })
    }

    @Test func lossyAlphaKeepsTheAlphaPlaneExactly() throws {
        let decoded = try coder.decode(try Fixture.bytes("webp/lossy-alpha.webp")).pixels.packedBytes()
        let source = Pattern.bytes(Pattern.rgba)
        #expect(stride(from: 3, to: decoded.count, by: 4).allSatisfy { decoded[$0] == source[$0] })
    }

    @Test func pixelsLandInTheRequestsAllocatorOnce() throws {
        let counter = CountingAllocator()
        let image = try coder.decode(
            try Fixture.bytes("webp/lossy.webp"), request: DecodeRequest(allocator: counter.allocator))
        #expect(counter.allocatedBytes == 61 * 43 * 4)
        #expect(image.pixels.bytesPerRow == 61 * 4)
    }

    @Test func probeReadsTheHeaderOnly() throws {
        let bytes = try Fixture.bytes("webp/lossy-alpha.webp")
        let info = try coder.probe(Array(bytes.prefix(40)))
        #expect(info == ImageInfo(format: "webp", width: 61, height: 43, traits: [.hasAlpha]))
        #expect(try coder.probe(try Fixture.bytes("webp/lossy.webp")).traits == [])
    }

    @Test func sniffingNeedsRiffAndWebp() throws {
        let bytes = try Fixture.bytes("webp/lossy.webp")
        #expect(bytes.withUnsafeBytes { coder.canDecode($0) })
        #expect(Array(bytes.prefix(12)).withUnsafeBytes { coder.canDecode($0) })
        #expect(!Array(bytes.prefix(11)).withUnsafeBytes { coder.canDecode($0) })
        #expect(!Array("RIFF\0\0\0\0WAVEfmt ".utf8).withUnsafeBytes { coder.canDecode($0) })
    }

    @Test func theFormatMatchesTheManifest() {
        #expect(coder.formats == [WebPImageCoder.format])
        #expect(WebPImageCoder.format.mimeType == "image/webp")
        #expect(
            WebPImageCoder.format.capabilities.names == [
                "decode", "encode", "incremental", "animation", "encode-animation", "scaled-decode",
            ])
    }
}
