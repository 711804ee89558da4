import Foundation
import Testing

@testable import WebImageCore

/// The coalescing keys (``ImageRequestKeys``): for every option and every context field, the
/// first stage whose work it splits, checked on the keys the manager builds. An option or a
/// context field added without a decision here fails the table's completeness test.
@Suite("ImageRequestKeys")
struct ImageRequestKeysTests {
    /// The first stage whose key a field splits; every later stage's key holds the earlier one's.
    enum Split: Int, Comparable {
        case download, decode, transform, image, nothing

        static func < (left: Split, right: Split) -> Bool { left.rawValue < right.rawValue }
    }

    /// A decision: how a request with `vary` applied differs from the base request.
    struct Row: Sendable {
        let name: String
        let split: Split
        let vary: @Sendable (inout ImageContext, inout ImageManagerOptions) -> Void
    }

    /// The four stage keys of one request.
    struct Keys {
        var download: ImageRequestKeys.Download
        var decode: ImageRequestKeys.Decode
        var transform: ImageRequestKeys.Transform
        var image: ImageRequestKeys.Image

        /// Per stage (download, decode, transform, image), whether `other`'s key differs.
        func differences(from other: Keys) -> [Bool] {
            [download != other.download, decode != other.decode, transform != other.transform, image != other.image]
        }
    }

    final class StubCache: ImageCaching {
        func query(_ key: String, options: ImageCacheQuery) async throws -> ImageCacheResult? { nil }
        func store(_ image: DecodedImage?, data: Data?, forKey key: String, cacheType: ImageCacheType) async throws {}
        func remove(_ key: String, fromDisk: Bool) async throws {}
        func clearMemory() {}
        func clearDisk() async throws {}
        func contains(_ key: String) async throws -> ImageCacheType { .none }
    }

    final class StubSerializer: CacheSerializer {
        func cacheData(for image: DecodedImage, originalData: Data?, key: String) -> Data? { nil }
    }

    struct OtherKeyFilter: CacheKeyFilter {
        func cacheKey(for url: URL) -> String? { "other" }
    }

    /// A manager without a cache whose downloader has no loader: nothing is ever sent.
    static let manager = ImageManager(cache: nil, downloader: ImageDownloader(loaders: []), coders: CodersManager())
    static let url = URL(string: "http://127.0.0.1/a.png")!

    /// The base request's context: one transformer, so that the transform stage has a key.
    static var baseContext: ImageContext {
        var context = ImageContext()
        context.transformer = FlippingTransformer(horizontal: true, vertical: false)
        return context
    }

    static func keys(_ context: ImageContext, _ options: ImageManagerOptions = []) -> Keys {
        let plan = ImageRequestPlan(url: url, options: options, context: context, manager: manager)
        let decode = plan.decodeKey(validators: nil)
        return Keys(
            download: plan.downloadKey(validators: nil), decode: decode,
            transform: plan.transformKey(plan.chain.count, input: decode), image: plan.imageKey)
    }

    /// Every stored property of ``ImageContext``.
    static let contextRows: [Row] = [
        Row(name: "imageCache", split: .image) { context, _ in context.imageCache = StubCache() },
        Row(name: "originalImageCache", split: .image) { context, _ in context.originalImageCache = StubCache() },
        Row(name: "loader", split: .download) { context, _ in context.loader = ImageDownloader(loaders: []) },
        Row(name: "coder", split: .decode) { context, _ in context.coder = ImageManagerContextTests.SquareCoder() },
        Row(name: "transformer", split: .transform) { context, _ in
            context.transformer = FlippingTransformer(horizontal: false, vertical: true)
        },
        Row(name: "thumbnail", split: .decode) { context, _ in context.thumbnail = ThumbnailSize(width: 8, height: 8) },
        Row(name: "scaleFactor", split: .image) { context, _ in context.scaleFactor = 2 },
        Row(name: "scaleDownPixelLimit", split: .decode) { context, _ in context.scaleDownPixelLimit = 1_000 },
        Row(name: "firstFrameOnly", split: .decode) { context, _ in context.firstFrameOnly = true },
        Row(name: "encodeOptions", split: .image) { context, _ in context.encodeOptions = EncodeOptions(format: "png")
        },
        Row(name: "storeCacheType", split: .image) { context, _ in context.storeCacheType = .memory },
        Row(name: "originalStoreCacheType", split: .image) { context, _ in context.originalStoreCacheType = .memory },
        Row(name: "queryCacheType", split: .image) { context, _ in context.queryCacheType = .disk },
        Row(name: "originalQueryCacheType", split: .image) { context, _ in context.originalQueryCacheType = .disk },
        Row(name: "cacheKeyFilter", split: .image) { context, _ in context.cacheKeyFilter = OtherKeyFilter() },
        Row(name: "cacheSerializer", split: .image) { context, _ in context.cacheSerializer = StubSerializer() },
        Row(name: "requestModifier", split: .download) { context, _ in context.requestModifier = { $0 } },
        Row(name: "responseModifier", split: .download) { context, _ in context.responseModifier = { $0 } },
        Row(name: "decryptor", split: .download) { context, _ in context.decryptor = { bytes, _ in bytes } },
        Row(name: "timeout", split: .nothing) { context, _ in context.timeout = .seconds(5) },
    ]

    /// Every option, by its kebab-case name.
    static let optionRows: [Row] = [(String, Split)]([
        ("retry-failed", .image), ("low-priority", .nothing), ("high-priority", .nothing),
        ("progressive-load", .decode), ("refresh-cached", .image), ("handle-cookies", .download),
        ("allow-invalid-ssl", .download), ("transform-animated-image", .transform),
        ("scale-down-large-images", .decode), ("query-memory-data", .image), ("query-memory-data-sync", .nothing),
        ("query-disk-data-sync", .nothing), ("from-cache-only", .image), ("from-loader-only", .image),
        ("avoid-decode-image", .decode), ("decode-first-frame-only", .decode), ("preload-all-frames", .decode),
        ("wait-store-cache", .image), ("revalidate-stale", .image),
    ]).map { name, split in
        Row(name: name, split: split) { _, options in
            options.insert(ImageManagerOptions.named.first { $0.name == name }?.option ?? [])
        }
    }

    /// Every stored property of ``EncodeOptions``: each one changes the bytes stored, so each splits the flow.
    static let encodeRows: [Row] = {
        let changes: [(String, @Sendable (inout EncodeOptions) -> Void)] = [
            ("format", { $0.format = "jpeg" }), ("quality", { $0.quality = 0.5 }),
            ("maxPixelSize", { $0.maxPixelSize = (width: 8, height: 8) }),
            ("backgroundColor", { $0.backgroundColor = 0x0000_00FF }), ("lossless", { $0.lossless = true }),
            ("loopCount", { $0.loopCount = 3 }),
        ]
        return changes.map { name, change in
            Row(name: name, split: .image) { context, _ in
                var encoding = EncodeOptions(format: "png")
                change(&encoding)
                context.encodeOptions = encoding
            }
        }
    }()

    static func storedProperties(of value: Any) -> [String] {
        Mirror(reflecting: value).children.compactMap(\.label)
    }

    @Test("every context field, every option and every encode option has exactly one decision")
    func everyFieldHasADecision() {
        #expect(Self.contextRows.map(\.name).sorted() == Self.storedProperties(of: ImageContext()).sorted())
        #expect(Self.optionRows.map(\.name).sorted() == ImageManagerOptions.named.map(\.name).sorted())
        #expect(
            Self.encodeRows.map(\.name).sorted() == Self.storedProperties(of: EncodeOptions(format: "png")).sorted())
        // The named options are the option set's members: one bit each, none left out below the highest.
        let bits = ImageManagerOptions.named.map(\.option.rawValue)
        #expect(bits.allSatisfy { $0.nonzeroBitCount == 1 })
        #expect(bits.reduce(0, |) == UInt32(1 << bits.count) - 1)
    }

    @Test("identical requests share every stage's key")
    func identicalRequestsShare() {
        let first = Self.keys(Self.baseContext)
        let second = Self.keys(Self.baseContext)
        #expect(first.differences(from: second) == [false, false, false, false])
    }

    @Test("each context field splits the stages its decision names, and no earlier one")
    func contextFieldsSplitAsDecided() {
        checkRows(Self.contextRows, base: Self.baseContext)
    }

    @Test("each option splits the stages its decision names, and no earlier one")
    func optionsSplitAsDecided() {
        checkRows(Self.optionRows, base: Self.baseContext)
    }

    @Test("each field of the encode options splits the flow")
    func encodeOptionsSplitTheFlow() {
        var base = Self.baseContext
        base.encodeOptions = EncodeOptions(format: "png")
        checkRows(Self.encodeRows, base: base)
    }

    @Test("a conditional download (a refresh's validators) has a download key of its own, per validators")
    func validatorsSplitTheDownload() throws {
        let plan = ImageRequestPlan(url: Self.url, options: [], context: Self.baseContext, manager: Self.manager)
        let first = try #require(CacheValidators(extendedData: Data("webimage-validators-1\n\"a\"\n".utf8)))
        let second = try #require(CacheValidators(extendedData: Data("webimage-validators-1\n\"b\"\n".utf8)))
        #expect(plan.downloadKey(validators: first) != plan.downloadKey(validators: nil))
        #expect(plan.downloadKey(validators: first) != plan.downloadKey(validators: second))
        #expect(plan.downloadKey(validators: first) == plan.downloadKey(validators: first))
        #expect(plan.decodeKey(validators: first) != plan.decodeKey(validators: nil))
    }

    private func checkRows(_ rows: [Row], base: ImageContext) {
        let baseKeys = Self.keys(base)
        for row in rows {
            var context = base
            var options: ImageManagerOptions = []
            row.vary(&context, &options)
            let expected = [Split.download, .decode, .transform, .image].map { $0 >= row.split }
            #expect(Self.keys(context, options).differences(from: baseKeys) == expected, "\(row.name)")
        }
    }
}
