import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// Each entry of ``ImageContext`` and the options processor.
@Suite("ImageManager context", .serialized, .ownThread)
struct ImageManagerContextTests {
    /// A second image cache (own memory, own disk folder) over the same plugins.
    static func secondCache(_ harness: ManagerHarness, folder: TemporaryDirectory) throws -> ImageCache {
        var configuration = ImageCacheConfiguration()
        configuration.directory = folder.path
        return try ImageCache(host: harness.host, coders: harness.manager.coders, configuration: configuration)
    }

    @Test("image cache and original image cache: the original goes to one, the transformed image to the other")
    func imageCaches() async throws {
        let harness = try ManagerHarness()
        let mainFolder = try TemporaryDirectory()
        let originalFolder = try TemporaryDirectory()
        let main = try Self.secondCache(harness, folder: mainFolder)
        let originals = try Self.secondCache(harness, folder: originalFolder)
        var context = ImageContext()
        context.imageCache = main
        context.originalImageCache = originals
        context.transformer = FlippingTransformer(horizontal: false, vertical: true)
        let url = harness.url("icon.png")
        let result = try await harness.manager.image(for: url, options: .waitStoreCache, context: context)
        #expect(try main.disk.contains(result.cacheKey!))
        #expect(try !main.disk.contains(url.absoluteString))
        #expect(try originals.disk.contains(url.absoluteString))
        #expect(try !harness.imageCache().disk.contains(url.absoluteString))
    }

    @Test("a context loader replaces the manager's")
    func loader() async throws {
        let harness = try ManagerHarness()
        var configuration = ImageDownloaderConfiguration()
        configuration.headers = ["Accept": "image/png"]
        var context = ImageContext()
        context.loader = ImageDownloader(loaders: harness.manager.downloader.loaders, configuration: configuration)
        _ = try await harness.manager.image(for: harness.url("icon.png"), context: context)
        #expect(harness.requests("icon.png", atLeast: 1).first?.split(separator: "|")[1] == "image/png")
    }

    /// Decodes anything as a 2×2 opaque image.
    struct SquareCoder: ImageCoder {
        var formats: [ImageFormat] { [ImageFormat(name: "square", mimeType: "image/x-square", capabilities: .decode)] }
        func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool { true }
        func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo {
            ImageInfo(format: "square", width: 2, height: 2)
        }
        func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage {
            let pixels = try PixelBuffer(width: 2, height: 2, format: .rgba8)
            for y in 0..<2 { pixels.row(y).initializeMemory(as: UInt8.self, repeating: 255, count: 8) }
            return DecodedImage(pixels: pixels, format: "square")
        }
        func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData {
            throw ImageCodingError(.unsupportedOperation, "no")
        }
    }

    @Test("a context coder decodes instead of the chosen one")
    func coder() async throws {
        let harness = try ManagerHarness()
        var context = ImageContext()
        context.coder = SquareCoder()
        let result = try await harness.manager.image(for: harness.url("photo.jpg"), context: context)
        #expect(result.image?.width == 2 && result.image?.format == "square")
    }

    @Test("thumbnail without aspect ratio, scale factor and first frame only from the context")
    func decodeOptions() async throws {
        let harness = try ManagerHarness()
        var context = ImageContext()
        context.thumbnail = ThumbnailSize(width: 100, height: 100, preservesAspectRatio: false)
        context.scaleFactor = 2
        let result = try await harness.manager.image(for: harness.url("photo.jpg"), context: context)
        #expect(result.image?.width == 100 && result.image?.height == 100)
        #expect(result.scale == 2)
        #expect(result.cacheKey?.hasSuffix(" Thumbnail(100x100,0)") == true)
        var firstFrame = ImageContext()
        firstFrame.firstFrameOnly = true
        let still = try await harness.manager.image(for: harness.url("anim.gif"), context: firstFrame)
        #expect(still.frameCount == 1 && still.image?.traits.contains(.animated) == false)
    }

    @Test("encode options choose how transformed images are stored")
    func encodeOptions() async throws {
        let harness = try ManagerHarness()
        for (format, signature) in [("png", [UInt8]([0x89, 0x50, 0x4E, 0x47])), ("jpeg", [0xFF, 0xD8, 0xFF])] {
            var context = ImageContext()
            context.transformer = try ResizingTransformer(width: 20, height: 20, scaleMode: .fill)
            context.encodeOptions = EncodeOptions(format: format)
            let folder = try TemporaryDirectory()
            context.imageCache = try Self.secondCache(harness, folder: folder)
            let result = try await harness.manager.image(
                for: harness.url("photo.jpg"), options: .waitStoreCache, context: context)
            let stored = try (context.imageCache as! ImageCache).disk.entry(forKey: result.cacheKey!)
            #expect(stored.map { Array([UInt8]($0.data).prefix(signature.count)) } == signature)
            withExtendedLifetime(folder) {}
        }
    }

    @Test("store cache types: memory only, none, and the original's with a transformer")
    func storeCacheTypes() async throws {
        let harness = try ManagerHarness()
        let cache = harness.imageCache()
        var memoryOnly = ImageContext()
        memoryOnly.storeCacheType = .memory
        let icon = harness.url("icon.png")
        _ = try await harness.manager.image(for: icon, options: .waitStoreCache, context: memoryOnly)
        #expect(cache.imageFromMemory(forKey: icon.absoluteString) != nil)
        #expect(try !cache.disk.contains(icon.absoluteString))

        var none = ImageContext()
        none.storeCacheType = ImageCacheType.none
        let wide = harness.url("wide.png")
        _ = try await harness.manager.image(for: wide, options: .waitStoreCache, context: none)
        #expect(cache.imageFromMemory(forKey: wide.absoluteString) == nil)
        #expect(try !cache.disk.contains(wide.absoluteString))

        var original = ImageContext()
        original.transformer = FlippingTransformer(horizontal: true, vertical: false)
        original.originalStoreCacheType = .all
        let photo = harness.url("photo.jpg")
        _ = try await harness.manager.image(for: photo, options: .waitStoreCache, context: original)
        #expect(cache.imageFromMemory(forKey: photo.absoluteString)?.width == 640)
        #expect(try cache.disk.contains(photo.absoluteString))
    }

    @Test("query cache types: disk only skips memory, none downloads, original none does not reuse the original")
    func queryCacheTypes() async throws {
        let harness = try ManagerHarness()
        let url = harness.url("icon.png")
        _ = try await harness.manager.image(for: url, options: .waitStoreCache)
        var diskOnly = ImageContext()
        diskOnly.queryCacheType = .disk
        #expect(try await harness.manager.image(for: url, context: diskOnly).cacheType == .disk)
        var none = ImageContext()
        none.queryCacheType = ImageCacheType.none
        #expect(try await harness.manager.image(for: url, context: none).cacheType == .none)
        #expect(harness.requests("icon.png", atLeast: 2).count == 2)

        var transform = ImageContext()
        transform.transformer = FlippingTransformer(horizontal: true, vertical: false)
        transform.originalQueryCacheType = ImageCacheType.none
        #expect(try await harness.manager.image(for: url, context: transform).cacheType == .none)
        #expect(harness.requests("icon.png", atLeast: 3).count == 3)
        var reuse = ImageContext()
        reuse.transformer = FlippingTransformer(horizontal: false, vertical: true)
        #expect(try await harness.manager.image(for: url, context: reuse).cacheType == .memory)
        #expect(harness.requests("icon.png", atLeast: 3).count == 3)
    }

    /// Drops the query string; gives no key for URLs with `nocache` in them.
    struct DropQuery: CacheKeyFilter {
        func cacheKey(for url: URL) -> String? {
            if url.absoluteString.contains("nocache") { return nil }
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
            components.query = nil
            return components.string
        }
    }

    @Test("the cache key filter names the key; nil means nothing is cached")
    func cacheKeyFilter() async throws {
        let harness = try ManagerHarness()
        var context = ImageContext()
        context.cacheKeyFilter = DropQuery()
        let base = harness.url("icon.png").absoluteString
        let first = try await harness.manager.image(for: base + "?v=1", options: .waitStoreCache, context: context)
        #expect(first.cacheKey == base)
        let second = try await harness.manager.image(for: base + "?v=2", context: context)
        #expect(second.cacheType == .memory)
        let uncached = try await harness.manager.image(
            for: base + "?nocache=1", options: .waitStoreCache, context: context)
        #expect(uncached.cacheKey == nil)
        let again = try await harness.manager.image(for: base + "?nocache=1", context: context)
        #expect(again.cacheType == .none)
    }

    /// Stores every image as PNG.
    struct PNGSerializer: CacheSerializer {
        let coders: CodersManager
        func cacheData(for image: DecodedImage, originalData: Data?, key: String) -> Data? {
            try? coders.encode(image.pixels, options: EncodeOptions(format: "png")).data
        }
    }

    @Test("the cache serializer makes the bytes stored on disk")
    func cacheSerializer() async throws {
        let harness = try ManagerHarness()
        var context = ImageContext()
        context.cacheSerializer = PNGSerializer(coders: harness.manager.coders)
        let url = harness.url("photo.jpg")
        _ = try await harness.manager.image(for: url, options: .waitStoreCache, context: context)
        let stored = try harness.imageCache().disk.entry(forKey: url.absoluteString)
        #expect(stored.map { Array([UInt8]($0.data).prefix(4)) } == [0x89, 0x50, 0x4E, 0x47])
    }

    @Test("request modifier, response modifier and decryptor apply to this request only")
    func modifiers() async throws {
        let harness = try ManagerHarness()
        var accept = ImageContext()
        accept.requestModifier = { request in
            var request = request
            request.headers["Accept"] = "image/x-test"
            return request
        }
        _ = try await harness.manager.image(for: harness.url("icon.png"), context: accept)
        #expect(harness.requests("icon.png", atLeast: 1).first?.split(separator: "|")[1] == "image/x-test")

        var refuse = ImageContext()
        refuse.requestModifier = { _ in nil }
        do {
            _ = try await harness.manager.image(for: harness.url("wide.png"), context: refuse)
            Issue.record("a refused request loaded")
        } catch {
            #expect(error.loadingError?.kind == .requestModifierFailed)
        }
        var refuseResponse = ImageContext()
        refuseResponse.responseModifier = { _ in nil }
        do {
            _ = try await harness.manager.image(for: harness.url("other.jpg"), context: refuseResponse)
            Issue.record("a refused response loaded")
        } catch {
            #expect(error.loadingError?.kind == .badStatus)
        }
        var decrypt = ImageContext()
        decrypt.decryptor = { bytes, _ in bytes.reversed() }
        let decrypted = try await harness.manager.image(for: harness.url("reversed.bin"), context: decrypt)
        #expect(decrypted.image?.width == 64 && decrypted.image?.height == 48)
    }

    /// Adds a 16×16 thumbnail for every URL whose path ends in `.png`.
    struct ThumbnailPNGs: ImageOptionsProcessor {
        func process(url: URL, options: ImageManagerOptions, context: ImageContext) -> (
            ImageManagerOptions, ImageContext
        ) {
            guard url.path.hasSuffix(".png") else { return (options, context) }
            var context = context
            context.thumbnail = ThumbnailSize(width: 16, height: 16)
            return (options.union(.waitStoreCache), context)
        }
    }

    @Test("the options processor rewrites options and context per URL")
    func optionsProcessor() async throws {
        let harness = try ManagerHarness()
        let manager = ImageManager(
            cache: harness.manager.cache, downloader: harness.manager.downloader, coders: harness.manager.coders,
            optionsProcessor: ThumbnailPNGs())
        #expect(try await manager.image(for: harness.url("icon.png")).image?.width == 16)
        #expect(try await manager.image(for: harness.url("photo.jpg")).image?.width == 640)
    }
}
