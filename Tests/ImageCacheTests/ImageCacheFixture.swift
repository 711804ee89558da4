import DiskCache
import Foundation
import GIFCoder
import JPEGCoder
import MemoryCache
import PNGCoder
import WebImageCore

/// An image cache over the real memory and disk plugins (linked in-process) and the PNG and
/// JPEG coders, in a temporary folder removed when released.
final class ImageCacheFixture: Sendable {
    let directory: String
    let cache: ImageCache
    let disk: PluginDiskCache

    init(namespace: String = "default", memory: CacheConfiguration = ["max-cost": "100000000"]) throws {
        directory = NSTemporaryDirectory() + "webimage-image-cache-tests-" + UUID().uuidString
        disk = try DiskCachePlugin.backend().open(["directory": directory, "namespace": namespace])
        let coders = CodersManager()
        coders.register(PNGImageCoder(), priority: 100, signatures: [MagicSignature(pattern: "89504e470d0a1a0a")!])
        coders.register(JPEGImageCoder(), priority: 100, signatures: [MagicSignature(pattern: "ffd8ff")!])
        coders.register(GIFImageCoder(), priority: 100, signatures: [MagicSignature(pattern: "474946383961")!])
        cache = ImageCache(memory: try MemoryCachePlugin.backend().make(memory), disk: disk, coders: coders)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
}

/// A `width` × `height` RGBA8 image whose pixels have alpha `alpha`, reported as `format`.
func testImage(width: Int = 40, height: Int = 30, alpha: UInt8 = 255, format: String = "wiraw") throws -> DecodedImage {
    let pixels = try PixelBuffer(width: width, height: height, format: .rgba8)
    for y in 0..<height {
        let row = pixels.row(y).assumingMemoryBound(to: UInt8.self)
        for x in 0..<width {
            row[4 * x] = UInt8(x * 5 % 256)
            row[4 * x + 1] = UInt8(y * 7 % 256)
            row[4 * x + 2] = 90
            row[4 * x + 3] = alpha
        }
    }
    return DecodedImage(pixels: pixels, format: format)
}

/// The first bytes of PNG and JPEG files.
let pngMagic = Data([0x89, 0x50, 0x4E, 0x47])
let jpegMagic = Data([0xFF, 0xD8, 0xFF])
let gifMagic = Data("GIF89a".utf8)

/// Counts calls, to check a completion runs exactly once.
final class CallCounter: Sendable {
    private let count = TrackedMutex(0)
    private let last = TrackedMutex<String?>(nil)
    func record(_ text: String) {
        count.withLock { $0 += 1 }
        last.withLock { $0 = text }
    }
    var calls: Int { count.withLock { $0 } }
    var lastResult: String? { last.withLock { $0 } }
}
