import HEIFCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// Pixels against libheif's own `heif-convert` (run now, from libheif-examples).
@Suite(.ownThread) struct HEIFReferenceParityTests {
    /// The least PSNR the issue accepts.
    static let minimumPSNR = 45.0

    @Test(arguments: [
        "rgb.heic", "alpha.heic", "rotated.heic", "rotated-mirrored.heic", "multi.heic", "thumbnail.heic",
        "rgb.avif", "alpha.avif",
    ])
    func eightBitOutputMatchesHeifConvert(name: String) throws {
        let reference = try HEIFConvert.decode(Fixture.path("heif/\(name)"))
        let image = try Fixture.decode(name)
        #expect(image.width == reference.width && image.height == reference.height)
        #expect(reference.depth == 8)
        let value = psnr(image.pixels.samples, reference.samples, maximum: 255)
        #expect(value >= Self.minimumPSNR, "\(name): \(value) dB")
    }

    @Test(arguments: ["deep10.heic", "deep12.avif"])
    func sixteenBitOutputMatchesHeifConvert(name: String) throws {
        let reference = try HEIFConvert.decode(Fixture.path("heif/\(name)"))
        let image = try Fixture.decode(name, request: DecodeRequest(pixelFormat: .rgba16))
        #expect(reference.depth == 16)
        #expect(image.pixels.format == .rgba16)
        let value = psnr(image.pixels.samples, reference.samples, maximum: 65535)
        #expect(value >= Self.minimumPSNR, "\(name): \(value) dB")
    }
}
