import CReferenceDecoders
import PNGCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// The plugin's pixels against libpng's own low-level decode (``CReferenceDecoders``),
/// byte for byte.
@Suite struct PNGReferenceParityTests {
    let coder = PNGImageCoder()

    func reference(_ bytes: [UInt8], sixteen: Bool) throws -> [UInt8] {
        var width: UInt32 = 0
        var height: UInt32 = 0
        try #require(reference_png_probe(bytes, bytes.count, &width, &height, nil) == REFERENCE_OK)
        var output = [UInt8](repeating: 0, count: Int(width * height) * (sixteen ? 8 : 4))
        let status = output.withUnsafeMutableBytes {
            reference_png_decode(bytes, bytes.count, sixteen ? 1 : 0, $0.baseAddress!, $0.count)
        }
        try #require(status == REFERENCE_OK, "\(String(cString: reference_last_error()))")
        return output
    }

    @Test(arguments: PNGFixturePixels.names)
    func eightBitOutputEqualsLibpng(name: String) throws {
        let bytes = try Fixture.bytes("png/\(name).png")
        let image = try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        #expect(image.pixels.packedBytes() == (try reference(bytes, sixteen: false)))
    }

    @Test(arguments: ["gray16", "gray16-adam7", "graya16", "rgb16", "rgba16"])
    func sixteenBitOutputEqualsLibpng(name: String) throws {
        let bytes = try Fixture.bytes("png/\(name).png")
        let image = try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest(pixelFormat: .rgba16)) }
        #expect(image.pixels.packedBytes() == (try reference(bytes, sixteen: true)))
    }

    @Test func aPhotographLikeSampleEqualsLibpng() throws {
        let bytes = try Fixture.bytes("../../Examples/sample-images/badge.png")
        let image = try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        #expect(image.width == 512 && image.height == 512)
        #expect(image.pixels.packedBytes() == (try reference(bytes, sixteen: false)))
    }
}
