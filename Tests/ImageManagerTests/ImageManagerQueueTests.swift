import Foundation
import Testing
import WebImageTestSupport

@testable import WebImageCore

/// How wide the decode and transform stages run, and cancelling while they run.
@Suite("ImageManager queues and cancellation points", .serialized, .ownThread)
struct ImageManagerQueueTests {
    /// Counts how many calls run at once. Each call waits until `width` calls have run at once
    /// (at most ``HangBound`` of 60 s), then until ``release()`` or `hold` more: a stage allowed
    /// `width` calls at once is seen running that many however slowly its inputs arrive (a TSan
    /// build, a loaded machine), a stage that would run more has the time to show it, and a
    /// test can cancel while a call surely runs.
    final class Concurrency: Sendable {
        private let state = TrackedMutex((running: 0, most: 0, calls: 0, released: false))
        let hold: Duration
        let width: Int

        /// `width` defaults to 1: a call holds for `hold` only.
        init(hold: Duration, width: Int = 1) {
            self.hold = hold
            self.width = width
        }

        var most: Int { state.withLock { $0.most } }
        var calls: Int { state.withLock { $0.calls } }

        /// Ends the wait of every call, now and later.
        func release() { state.withLock { $0.released = true } }

        func enter() {
            state.withLock { state in
                state.running += 1
                state.calls += 1
                state.most = max(state.most, state.running)
            }
            let deadline = ContinuousClock.now + HangBound.scaled(.seconds(60))
            while most < width, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.001) }
            let held = ContinuousClock.now + hold
            while !state.withLock({ $0.released }), ContinuousClock.now < held { Thread.sleep(forTimeInterval: 0.001) }
            state.withLock { $0.running -= 1 }
        }
    }

    /// A transformer that takes `concurrency.hold` and returns its input.
    struct SlowTransformer: ImageTransformer {
        let concurrency: Concurrency
        let name: String
        var transformerKey: String { "Slow(\(name))" }
        func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
            concurrency.enter()
            return image
        }
    }

    /// Decodes anything as a 4×4 image, taking `concurrency.hold`.
    struct SlowCoder: ImageCoder {
        let concurrency: Concurrency
        var formats: [ImageFormat] { [ImageFormat(name: "slow", mimeType: "image/x-slow", capabilities: .decode)] }
        func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool { true }
        func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo {
            ImageInfo(format: "slow", width: 4, height: 4)
        }
        func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage {
            concurrency.enter()
            return DecodedImage(pixels: try PixelBuffer(width: 4, height: 4, format: .rgba8), format: "slow")
        }
        func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData {
            throw ImageCodingError(.unsupportedOperation, "no")
        }
    }

    static let names = ["icon.png", "wide.png", "photo.jpg", "other.jpg", "anim.gif", "reversed.bin"]

    @Test("transforms run two at a time (the default); decodes no wider than configured (1 here)")
    func widths() async throws {
        var configuration = ImageManagerConfiguration()
        configuration.maxConcurrentDecodes = 1
        let harness = try GatedHarness(configuration: configuration)
        harness.loader.openAll()
        #expect(ImageManagerConfiguration().maxConcurrentTransforms == 2)
        let transforms = Concurrency(hold: .milliseconds(100), width: 2)
        var transformContext = ImageContext()
        transformContext.transformer = SlowTransformer(concurrency: transforms, name: "t")
        transformContext.coder = SlowCoder(concurrency: Concurrency(hold: .zero))
        let transforming = transformContext
        try await withThrowingTaskGroup(of: Void.self) { group in
            for name in Self.names {
                group.addTask { _ = try await harness.manager.image(for: harness.url(name), context: transforming) }
            }
            try await group.waitForAll()
        }
        #expect(transforms.calls == 6 && transforms.most == 2)

        let decodes = Concurrency(hold: .milliseconds(100))
        var decodeContext = ImageContext()
        decodeContext.coder = SlowCoder(concurrency: decodes)
        let other = try harness.makeManager(configuration: configuration)
        let decoding = decodeContext
        try await withThrowingTaskGroup(of: Void.self) { group in
            for name in Self.names {
                group.addTask {
                    _ = try await other.image(for: harness.url(name), options: .fromLoaderOnly, context: decoding)
                }
            }
            try await group.waitForAll()
        }
        #expect(decodes.calls == 6 && decodes.most == 1)
    }

    /// Two downloads from one host at once: the fast one is decoded while the slow one still
    /// arrives (libcurl's wait for a connection that might multiplex held it behind the slow
    /// one on plain http).
    @Test("a finished download is decoded and completes while another download still runs")
    func decodeOverlapsDownload() async throws {
        let harness = try ManagerHarness()
        let slow = Recorder()
        let fast = Recorder()
        // About 24 KB at 5 KB/s: the slow download runs for about 5 s, longer than a loaded
        // machine takes to fetch and decode the fast one.
        harness.manager.load(harness.slowURL("photo.jpg", bytesPerSecond: 5_000), completed: slow.completed)
        harness.manager.load(harness.url("other.jpg"), completed: fast.completed)
        let fastResults = await fast.wait(for: 1)
        #expect(fastResults.first?.value?.image?.width == 320)
        #expect(harness.manager.counters.downloads == 2)
        #expect(harness.manager.counters.decodes == 1)
        #expect(harness.manager.downloader.activeCount == 1)
        let slowResults = await slow.wait(for: 1)
        #expect(slowResults.first?.value?.image?.width == 640)
        #expect(harness.manager.counters.decodes == 2)
        await harness.manager.waitUntilIdle()
    }

    @Test("cancelling while the decode or the transform runs: cancelled at once, nothing stored")
    func cancelDuringDecodeAndTransform() async throws {
        let harness = try GatedHarness()
        harness.loader.openAll()
        // Each call holds until released: the cancel surely comes while it runs.
        let decodes = Concurrency(hold: HangBound.scaled(.seconds(60)))
        var decodeContext = ImageContext()
        decodeContext.coder = SlowCoder(concurrency: decodes)
        let url = harness.url("icon.png")
        let recorder = Recorder()
        let operation = harness.manager.load(url, context: decodeContext, completed: recorder.completed)
        while decodes.calls == 0 { try await Task.sleep(for: .milliseconds(5)) }
        operation.cancel()
        #expect(recorder.completions.first?.errorKind == .cancelled)
        decodes.release()
        await harness.manager.waitUntilIdle()
        #expect(try !harness.imageCache().disk.contains(url.absoluteString))

        let transforms = Concurrency(hold: HangBound.scaled(.seconds(60)))
        var transformContext = ImageContext()
        transformContext.transformer = SlowTransformer(concurrency: transforms, name: "c")
        let wide = harness.url("wide.png")
        let cancelling = transformContext
        let task = Task { try await harness.manager.image(for: wide, context: cancelling) }
        while transforms.calls == 0 { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        transforms.release()
        do {
            _ = try await task.value
            Issue.record("a cancelled transform completed")
        } catch let error as ImageManagerError {
            #expect(error.kind == .cancelled)
        }
        await harness.manager.waitUntilIdle()
        let key = CacheKeys.transformedKey(wide.absoluteString, transformerKey: "Slow(c)")
        #expect(try !harness.imageCache().disk.contains(key))
        #expect(harness.imageCache().imageFromMemory(forKey: key) == nil)
    }

    @Test("cancelAll ends every request; the manager is idle afterwards")
    func cancelAll() async throws {
        let harness = try GatedHarness()
        let recorders = (0..<3).map { _ in Recorder() }
        for (index, recorder) in recorders.enumerated() {
            var context = ImageContext()
            context.thumbnail = ThumbnailSize(width: 10 + index, height: 10 + index)
            harness.manager.load(harness.url("progressive.jpg"), context: context, completed: recorder.completed)
        }
        // The three decodes wait for the one download, held at its gate.
        #expect(await harness.waitForSubscriptions(3, to: .download))
        #expect(harness.manager.isRunning)
        harness.manager.cancelAll()
        for recorder in recorders { #expect(await recorder.wait(for: 1).first?.errorKind == .cancelled) }
        await harness.manager.waitUntilIdle()
        #expect(!harness.manager.isRunning)
        #expect(harness.loader.cancellations(of: "progressive.jpg") == 1)
    }
}
