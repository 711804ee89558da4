import Foundation
import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

/// The real coder `.so` files write encoded bytes straight into the host's memory: each test
/// loads its own copy of a plugin (a new file, so a new instance that keeps this test's host)
/// with a host that records its allocations.
@Suite struct EncodeIntoHostMemoryTests {
    /// A plugin's own copy, opened with `host`, and its coder.
    static func coder(manifest: String, library: String, host: RecordingHost) throws -> (PluginsFolder, PluginCoder) {
        let folder = try PluginsFolder()
        try FileManager.default.copyItem(
            at: BuildProducts.manifest(manifest), to: folder.url.appendingPathComponent(manifest))
        try FileManager.default.copyItem(
            at: try BuildProducts.library(library), to: folder.url.appendingPathComponent(library))
        let plugin = try #require(PluginHost(searchPath: PluginSearchPath(directories: [folder.path])).plugins.first)
        let coder = try #require(try PluginLibrary.open(plugin, host: host.host).coder)
        return (folder, coder)
    }

    /// 96 × 96 pixels of seeded noise: every format's file is larger than the output buffer's
    /// first 4 KiB block.
    static func noise() throws -> PixelBuffer {
        var noise = SeededNoise(seed: 7)
        let pixels = try PixelBuffer(width: 96, height: 96, format: .rgba8)
        for y in 0..<pixels.height {
            for x in 0..<pixels.width * 4 {
                pixels.row(y).storeBytes(of: noise.nextByte(), toByteOffset: x, as: UInt8.self)
            }
        }
        return pixels
    }

    @Test(
        "libpng, libjpeg, giflib and libwebp grow their output in host memory and the host gets that block",
        arguments: [
            ("png.json", "libWebImagePNG.so", "png"), ("jpeg.json", "libWebImageJPEG.so", "jpeg"),
            ("gif.json", "libWebImageGIF.so", "gif"), ("webp.json", "libWebImageWebP.so", "webp"),
        ])
    func streamingEncodersWriteIntoHostMemory(manifest: String, library: String, format: String) throws {
        let host = RecordingHost()
        let (folder, coder) = try Self.coder(manifest: manifest, library: library, host: host)
        let encoded = try coder.encode(try Self.noise(), request: EncodeRequest(format: format))
        let address = encoded.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        #expect(encoded.count > 4096)
        #expect(host.liveBlocks == [address])
        #expect(host.allocationCount > 1)
        #expect(try encoded.withUnsafeBytes { try coder.probe($0) }.format == format)
        withExtendedLifetime(folder) {}
    }

    @Test("the HEIF plugin hands the host the one host block it wrote the file into")
    func heifWritesIntoHostMemory() throws {
        let host = RecordingHost()
        let (folder, coder) = try Self.coder(manifest: "heif.json", library: "libWebImageHEIF.so", host: host)
        let encoded = try coder.encode(try Self.noise(), request: EncodeRequest(format: "avif"))
        #expect(host.liveBlocks == [encoded.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }])
        #expect(try encoded.withUnsafeBytes { try coder.probe($0) }.format == "avif")
        withExtendedLifetime(folder) {}
    }
}
