import HEIFCoder
import Testing
import WebImageCore
import WebImageTestSupport

@Suite struct HEIFSniffingTests {
    let coder = HEIFImageCoder()

    func ftyp(major: String, compatible: [String]) -> [UInt8] {
        let size = 16 + 4 * compatible.count
        return [0, 0, 0, UInt8(size)] + Array("ftyp\(major)".utf8) + [0, 0, 0, 0]
            + compatible.flatMap { Array($0.utf8) }
    }

    @Test(arguments: ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1", "avif", "avis"])
    func knownMajorBrandsAreRecognised(brand: String) {
        #expect(ftyp(major: brand, compatible: []).withUnsafeBytes { coder.canDecode($0) })
    }

    @Test func aKnownCompatibleBrandIsEnough() {
        #expect(ftyp(major: "crx ", compatible: ["isom", "mif1"]).withUnsafeBytes { coder.canDecode($0) })
        #expect(!ftyp(major: "isom", compatible: ["mp41", "avc1"]).withUnsafeBytes { coder.canDecode($0) })
    }

    @Test func shortAndForeignBytesAreRefused() {
        #expect(![UInt8]().withUnsafeBytes { coder.canDecode($0) })
        #expect(!Array("\u{0}\u{0}\u{0}\u{18}ftyp".utf8).withUnsafeBytes { coder.canDecode($0) })
        #expect(!Array("GIF89a and some more".utf8).withUnsafeBytes { coder.canDecode($0) })
    }

    @Test(arguments: ["rgb.heic", "rgb.avif", "alpha.avif", "thumbnail.heic"])
    func fixturesAreRecognised(name: String) throws {
        #expect(try Fixture.bytes("heif/\(name)").withUnsafeBytes { coder.canDecode($0) })
    }

    @Test func theFormatsMatchTheManifest() {
        #expect(coder.formats.map(\.name) == ["heic", "avif"])
        #expect(coder.formats.map(\.mimeType) == ["image/heic", "image/avif"])
        #expect(coder.formats.allSatisfy { $0.capabilities.names == ["decode", "encode", "scaled-decode"] })
    }
}
