import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Each option of ``ImageManagerOptions`` not covered by the flow and coalescing suites.
@Suite("ImageManager options", .serialized, .ownThread)
struct ImageManagerOptionsTests {
    @Test("option names parse from a comma-separated list; an unknown name is an invalidOption error")
    func names() throws {
        let options = try ImageManagerOptions(names: "refresh-cached, low-priority,wait-store-cache")
        #expect(options == [.refreshCached, .lowPriority, .waitStoreCache])
        #expect(options.names == ["low-priority", "refresh-cached", "wait-store-cache"])
        #expect(ImageManagerOptions.named.count == 19)
        #expect(throws: ImageManagerError.self) { try ImageManagerOptions(names: "refresh-cached,sometimes") }
    }

    @Test("handle-cookies sends the cookies the server set; without it none is sent")
    func handleCookies() async throws {
        let harness = try ManagerHarness()
        _ = try? await harness.manager.image(
            for: URL(string: "\(harness.nginx.http)/set-cookie")!, options: .handleCookies)
        _ = try await harness.manager.image(for: harness.url("icon.png"), options: .handleCookies)
        _ = try await harness.manager.image(for: harness.url("wide.png"))
        #expect(harness.nginx.cookies(sentTo: "/static/icon.png") == ["webimage=yes"])
        #expect(harness.nginx.cookies(sentTo: "/static/wide.png") == ["-"])
    }

    @Test("allow-invalid-ssl accepts nginx's self-signed certificate; without it the load fails")
    func allowInvalidSSL() async throws {
        let harness = try ManagerHarness()
        let url = URL(string: "\(harness.nginx.https)/static/icon.png")!
        do {
            _ = try await harness.manager.image(for: url)
            Issue.record("a self-signed certificate was accepted")
        } catch {
            #expect(error.kind == .loadFailed)
        }
        let result = try await harness.manager.image(for: url, options: .allowInvalidSSL)
        #expect(result.image?.width == 64)
    }

    @Test("animated images are transformed only with transform-animated-image")
    func transformAnimatedImage() async throws {
        let harness = try ManagerHarness()
        var context = ImageContext()
        context.transformer = try ResizingTransformer(width: 10, height: 10, scaleMode: .fill)
        let url = harness.url("anim.gif")
        let plain = try await harness.manager.image(for: url, context: context)
        #expect(plain.image?.traits.contains(.animated) == true)
        #expect(plain.image?.width != 10)
        #expect(plain.cacheKey == url.absoluteString)
        #expect(harness.manager.counters.transforms == 0)
        let transformed = try await harness.manager.image(
            for: url, options: [.transformAnimatedImage, .fromLoaderOnly, .preloadAllFrames], context: context)
        #expect(transformed.image?.width == 10 && transformed.image?.height == 10)
        #expect(transformed.animation?.frames.allSatisfy { $0.image.width == 10 } == true)
        #expect(
            transformed.cacheKey == CacheKeys.transformedKey(url.absoluteString, transformerKey: "Resize(10x10,fill)"))
        #expect(harness.manager.counters.transforms == 1)
    }

    @Test("scale-down-large-images decodes to the context's pixel limit; the default limit keeps small images")
    func scaleDownLargeImages() async throws {
        let harness = try ManagerHarness()
        let url = harness.url("photo.jpg")
        let small = try await harness.manager.image(for: url, options: .scaleDownLargeImages)
        #expect(small.image?.width == 640)
        var context = ImageContext()
        context.scaleDownPixelLimit = 640 * 480 / 4
        let scaled = try await harness.manager.image(
            for: url, options: [.scaleDownLargeImages, .fromLoaderOnly], context: context)
        #expect(scaled.image?.width == 320 && scaled.image?.height == 240)
    }

    @Test("query-memory-data reads the bytes from disk on a memory hit")
    func queryMemoryData() async throws {
        let harness = try ManagerHarness()
        let url = harness.url("icon.png")
        _ = try await harness.manager.image(for: url, options: .waitStoreCache)
        let plain = try await harness.manager.image(for: url)
        #expect(plain.cacheType == .memory && plain.data == nil)
        let withData = try await harness.manager.image(for: url, options: .queryMemoryData)
        #expect(withData.cacheType == .memory)
        #expect(withData.data.map([UInt8].init) == harness.images["icon.png"])
    }

    @Test("query-memory-data-sync and query-disk-data-sync complete on the caller's thread before load returns")
    func synchronousQueries() async throws {
        let harness = try ManagerHarness()
        let url = harness.url("icon.png")
        _ = try await harness.manager.image(for: url, options: .waitStoreCache)
        let caller = pthread_self()
        let onCaller = TrackedMutex<Bool?>(nil)
        let recorder = Recorder()
        harness.manager.load(url, options: .queryMemoryDataSync) { result in
            onCaller.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 }
            recorder.completed(result)
        }
        #expect(onCaller.withLock { $0 } == true)
        #expect(recorder.completions.first?.value?.cacheType == .memory)

        let other = try harness.makeManager()
        let diskRecorder = Recorder()
        let diskOnCaller = TrackedMutex<Bool?>(nil)
        other.load(url, options: .queryDiskDataSync) { result in
            diskOnCaller.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 }
            diskRecorder.completed(result)
        }
        #expect(diskOnCaller.withLock { $0 } == true)
        #expect(diskRecorder.completions.first?.value?.cacheType == .disk)
        #expect(diskRecorder.completions.first?.value?.image?.width == 64)
    }

    @Test("avoid-decode-image stores the bytes without decoding them")
    func avoidDecodeImage() async throws {
        let harness = try ManagerHarness()
        let url = harness.url("photo.jpg")
        let result = try await harness.manager.image(for: url, options: [.avoidDecodeImage, .waitStoreCache])
        #expect(result.image == nil)
        #expect(result.data.map([UInt8].init) == harness.images["photo.jpg"])
        #expect(harness.manager.counters.decodes == 0)
        #expect(try harness.imageCache().disk.contains(url.absoluteString))
        #expect(harness.imageCache().imageFromMemory(forKey: url.absoluteString) == nil)
    }

    @Test("decode-first-frame-only gives a still image; preload-all-frames decodes every frame")
    func frames() async throws {
        let harness = try ManagerHarness()
        let url = harness.url("anim.gif")
        let all = try await harness.manager.image(for: url, options: .preloadAllFrames)
        #expect(all.frameCount > 1)
        #expect(all.animation?.frames.count == all.frameCount)
        #expect(all.image?.traits.contains(.animated) == true)
        let first = try await harness.manager.image(
            for: url, options: [.decodeFirstFrameOnly, .preloadAllFrames, .fromLoaderOnly])
        #expect(first.frameCount == 1)
        #expect(first.animation == nil)
        #expect(first.image?.traits.contains(.animated) == false)
        #expect(first.image?.width == all.image?.width)
    }

    @Test(
        "animatedImageData: an animation's original bytes whatever its thumbnail or transformer, from the network, memory (query-memory-data) and disk; nil for a still image"
    )
    func animatedImageData() async throws {
        let harness = try ManagerHarness()
        let url = harness.url("anim.gif")
        let original = harness.images["anim.gif"]
        var context = ImageContext()
        context.thumbnail = ThumbnailSize(width: 32, height: 32)
        let network = try await harness.manager.image(for: url, options: .waitStoreCache, context: context)
        #expect(network.cacheType == .none && network.data == nil && network.image?.width == 32)
        #expect(network.animatedImageData.map([UInt8].init) == original)
        let memory = try await harness.manager.image(for: url, options: .queryMemoryData, context: context)
        #expect(memory.cacheType == .memory && memory.animatedImageData.map([UInt8].init) == original)
        let memoryOnly = try await harness.manager.image(for: url, context: context)
        #expect(memoryOnly.cacheType == .memory && memoryOnly.animatedImageData == nil)
        let disk = try await harness.makeManager().image(for: url, context: context)
        #expect(disk.cacheType == .disk && disk.animatedImageData.map([UInt8].init) == original)
        context.transformer = try ResizingTransformer(width: 10, height: 10, scaleMode: .fill)
        let transformed = try await harness.manager.image(
            for: url, options: [.transformAnimatedImage, .fromLoaderOnly], context: context)
        #expect(transformed.image?.width == 10 && transformed.animatedImageData.map([UInt8].init) == original)
        let still = try await harness.manager.image(for: harness.url("icon.png"))
        #expect(still.data != nil && still.animatedImageData == nil)
        #expect(harness.requests("anim.gif", atLeast: 2).count == 2)
    }

    @Test("a first-frame-only image has its own memory key: a later animated request gets every frame, and back")
    func firstFrameKeptApart() async throws {
        let harness = try ManagerHarness()
        let url = harness.url("anim.gif")
        let key = url.absoluteString
        let first = try await harness.manager.image(for: url, options: [.decodeFirstFrameOnly, .waitStoreCache])
        #expect(first.cacheKey == CacheKeys.firstFrameKey(key))
        #expect(first.cacheKey == "\(harness.nginx.http)/static/anim.gif FirstFrame")
        #expect(first.frameCount == 1 && first.image?.traits.contains(.animated) == false)
        #expect(harness.imageCache().imageFromMemory(forKey: key) == nil)

        // The full animation: not the still image from memory, but the stored bytes decoded again.
        let full = try await harness.manager.image(for: url, options: .waitStoreCache)
        #expect(full.cacheType == .disk && full.cacheKey == key)
        #expect(full.frameCount > 1 && full.image?.traits.contains(.animated) == true)
        #expect(harness.imageCache().imageFromMemory(forKey: key)?.traits.contains(.animated) == true)

        // And a first-frame request on a fresh manager after the full one: still, from disk.
        let other = try harness.makeManager()
        _ = try await other.image(for: url, options: .waitStoreCache)
        let still = try await other.image(for: url, options: .decodeFirstFrameOnly)
        #expect(still.cacheType == .disk && still.image?.traits.contains(.animated) == false)
        let again = try await harness.manager.image(for: url, options: .decodeFirstFrameOnly)
        #expect(again.cacheType == .memory && again.image?.traits.contains(.animated) == false)
        #expect(harness.requests("anim.gif", atLeast: 1).count == 1)
        #expect(harness.manager.counters.decodes == 2)
    }
}
