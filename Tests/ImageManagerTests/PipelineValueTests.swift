import FoundationEssentials
import Testing

@testable import WebImageCore

/// The values a request carries through the pipeline's async frames are kept narrow: the
/// compiler gives every such value its own slot in each frame that holds one, without overlap,
/// so a 296-byte result, a 144-byte error and a 233-byte cache hit in a dozen slots each made
/// a request in flight hold about 34 KB of task memory (docs/performance.md). The boxes must
/// still behave as the values they replace.
@Suite("Pipeline values")
struct PipelineValueTests {
    private static func result() throws -> ImageResult {
        let image = DecodedImage(pixels: try PixelBuffer(width: 3, height: 2, format: .rgba8), format: "png")
        var metrics = ImageMetrics()
        metrics.total = .milliseconds(7)
        return ImageResult(
            image: image, animation: nil, data: Data([1, 2, 3]), cacheType: .disk,
            url: URL(string: "https://example.invalid/a.png")!, cacheKey: "key", scale: 2, frameCount: 1,
            metrics: metrics)
    }

    @Test("a result, an error and the metrics are one reference, a few words, a few words wide")
    func widths() {
        #expect(MemoryLayout<ImageResult>.size == MemoryLayout<Int>.size)
        #expect(MemoryLayout<ImageResult?>.size == MemoryLayout<Int>.size)
        #expect(MemoryLayout<ImageManagerError>.size <= 48)
        #expect(MemoryLayout<ImageMetrics>.size <= 32)
        #expect(MemoryLayout<ImageManager.CacheHit>.size == MemoryLayout<Int>.size)
    }

    @Test("a copied result keeps its fields when the other copy changes")
    func resultIsAValue() throws {
        let original = try Self.result()
        var copy = original
        copy.image = nil
        copy.data = nil
        copy.cacheType = .memory
        copy.cacheKey = "other"
        copy.scale = 1
        copy.frameCount = 0
        copy.metrics.coalesced = true
        copy.animatedImageData = Data([9])
        copy.url = URL(string: "https://example.invalid/b.png")!
        #expect(original.image?.width == 3 && original.image?.height == 2)
        #expect(original.data == Data([1, 2, 3]))
        #expect(original.cacheType == .disk)
        #expect(original.cacheKey == "key")
        #expect(original.scale == 2 && original.frameCount == 1)
        #expect(original.metrics.coalesced == false && original.metrics.total == .milliseconds(7))
        #expect(original.animatedImageData == nil)
        #expect(original.url.absoluteString == "https://example.invalid/a.png")
        #expect(copy.image == nil && copy.data == nil && copy.cacheType == .memory && copy.cacheKey == "other")
        #expect(copy.scale == 1 && copy.frameCount == 0 && copy.metrics.coalesced)
        #expect(copy.animatedImageData == Data([9]) && copy.url.lastPathComponent == "b.png")
    }

    @Test("results shared between tasks are read whole while each task changes its own copy")
    func resultSharedBetweenTasks() async throws {
        let shared = try Self.result()
        let keys = await withTaskGroup(of: String?.self) { group in
            for index in 0..<64 {
                group.addTask {
                    var mine = shared
                    mine.cacheKey = "key-\(index)"
                    mine.metrics.coalesced = index.isMultiple(of: 2)
                    return mine.cacheKey
                }
            }
            var keys: Set<String> = []
            for await key in group { if let key { keys.insert(key) } }
            return keys
        }
        #expect(keys.count == 64)
        #expect(shared.cacheKey == "key" && shared.metrics.coalesced == false)
    }

    @Test("the transfer's metrics are kept whole in a result's metrics")
    func loadMetrics() {
        var load = LoadMetrics(httpVersion: "2")
        load.total = .milliseconds(12)
        load.bytesReceived = 1234
        load.redirectCount = 1
        var metrics = ImageMetrics()
        #expect(metrics.load == nil)
        metrics.load = load
        let copy = metrics
        metrics.load?.bytesReceived = 1
        #expect(copy.load == load)
        #expect(metrics.load?.bytesReceived == 1 && metrics.load?.httpVersion == "2")
        metrics.load = nil
        #expect(metrics.load == nil && copy.load?.redirectCount == 1)
    }

    @Test("an error's stage errors are set, read and cleared one by one")
    func stageErrors() {
        var error = ImageManagerError(.loadFailed, "failed", url: "https://example.invalid/a.png")
        #expect(error.loadingError == nil && error.codingError == nil && error.transformError == nil)
        let loading = ImageLoadingError(.badStatus, "404", statusCode: 404)
        error.loadingError = loading
        error.codingError = ImageCodingError(.unsupportedFormat, "not an image")
        let copy = error
        error.transformError = ImageTransformError(.invalidParameter, "width")
        error.loadingError = nil
        #expect(error.loadingError == nil)
        #expect(error.codingError?.message == "not an image")
        #expect(error.transformError?.kind == .invalidParameter)
        #expect(copy.loadingError == loading && copy.transformError == nil)
        #expect(ImageManagerError.load(loading, url: "u").loadingError?.statusCode == 404)
        let decode = ImageManagerError.decode(ImageCodingError(.invalidArgument, "x"), url: "u")
        #expect(decode.codingError?.kind == .invalidArgument && decode.loadingError == nil)
        let transform = ImageManagerError.transform(ImageTransformError(.unknownTransformer, "y"), url: "u")
        #expect(transform.transformError?.message == "y" && transform.codingError == nil)
    }
}
