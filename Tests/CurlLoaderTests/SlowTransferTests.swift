import Testing
import WebImageCore
import WebImageTestSupport

extension CurlLoaderTests {
    /// Servers that send 2 bytes a second: the downloader's total deadline and low-speed limit
    /// end them (also over a loader that ignores both), and one host's drips leave slots for
    /// other hosts.
    @Suite("Image downloader against slow drips", .ownThread)
    struct SlowTransferTests {
        let drips: MisbehavingServer

        init() throws {
            drips = try MisbehavingServer()
        }

        /// The body bytes and the error of a download of `url`, cancelled after 10 seconds (a
        /// hang bound).
        func dripOutcome(_ downloader: ImageDownloader, _ url: String) async -> (bytes: Int, error: ImageLoadingError?)
        {
            await HangBound.cancelling(after: .seconds(10)) { await Self.outcome(downloader, url) }
        }

        static func outcome(_ downloader: ImageDownloader, _ url: String) async -> (
            bytes: Int, error: ImageLoadingError?
        ) {
            var bytes = 0
            do {
                for try await event in downloader.events(for: DownloadRequest(url: url)) {
                    if case .data(let chunk) = event { bytes += chunk.count }
                }
                return (bytes, nil)
            } catch let error as ImageLoadingError {
                return (bytes, error)
            } catch {
                return (bytes, ImageLoadingError(.networkError, "\(error)"))
            }
        }

        /// The limit a test sets tight, with the error that names it.
        enum Limit: CaseIterable, Sendable {
            case totalDeadline
            case lowSpeed

            func configure(_ configuration: inout ImageDownloaderConfiguration) {
                switch self {
                case .totalDeadline:
                    configuration.idleTimeout = .seconds(30)
                    configuration.maxTransferTime = .seconds(2)
                case .lowSpeed:
                    configuration.idleTimeout = .seconds(2)
                    configuration.minimumBytesPerSecond = 1024
                }
            }

            var error: ImageLoadingError {
                switch self {
                case .totalDeadline: ImageLoadingError(.timedOut, "transfer took longer than 2 s (--max-time)")
                case .lowSpeed: ImageLoadingError(.timedOut, "slower than 1024 B/s for 2 s")
                }
            }
        }

        /// The loader under the downloader has the limits taken off every request it is given,
        /// so only the downloader's own watch can end the drip.
        @Test("the downloader's own limits end a drip whose loader ignores them", arguments: Limit.allCases)
        func limitsOverALoaderThatIgnoresThem(limit: Limit) async {
            var configuration = ImageDownloaderConfiguration()
            limit.configure(&configuration)
            let downloader = ImageDownloader(
                loaders: [LimitlessLoader(CurlLoaderFactory.loader)], configuration: configuration)
            let (bytes, error) = await dripOutcome(downloader, drips.base + "/drip")
            #expect(error == limit.error)
            #expect((1..<MisbehavingServer.dripLength).contains(bytes))
        }

        /// The downloader watches all its transfers with one task that runs only while there
        /// are some: a drip started while another runs ends at its own deadline, not the
        /// other's, and a drip started after the watch went idle is still ended.
        @Test("one watch for every transfer: each drip ends at its own deadline, also after the watch was idle")
        func oneWatchForEveryTransfer() async {
            var configuration = ImageDownloaderConfiguration()
            Limit.totalDeadline.configure(&configuration)
            let downloader = ImageDownloader(
                loaders: [LimitlessLoader(CurlLoaderFactory.loader)], configuration: configuration)
            let timed = { @Sendable (url: String) async -> (error: ImageLoadingError?, elapsed: Duration) in
                let start = ContinuousClock.now
                let (_, error) = await HangBound.cancelling(after: .seconds(10)) { await Self.outcome(downloader, url) }
                return (error, ContinuousClock.now - start)
            }
            async let first = timed(drips.base + "/drip1")
            try? await Task.sleep(for: .milliseconds(700))
            async let second = timed(drips.base + "/drip2")
            let (firstOutcome, secondOutcome) = await (first, second)
            #expect(firstOutcome.error == Limit.totalDeadline.error)
            #expect(secondOutcome.error == Limit.totalDeadline.error)
            #expect(secondOutcome.elapsed >= .seconds(2))  // its own deadline, not the first drip's
            #expect(downloader.activeCount == 0)
            try? await Task.sleep(for: .milliseconds(1500))  // past the watch's next wake: it found none and ended
            let third = await timed(drips.base + "/drip3")
            #expect(third.error == Limit.totalDeadline.error)
            #expect(third.elapsed >= .seconds(2))
        }

        @Test("the default limits reach the curl plugin: a drip ends with the plugin's or the downloader's same error")
        func defaultsOverTheCurlLoader() async {
            var configuration = ImageDownloaderConfiguration()
            configuration.idleTimeout = .seconds(2)
            let downloader = ImageDownloader(loaders: [CurlLoaderFactory.loader], configuration: configuration)
            let (bytes, error) = await dripOutcome(downloader, drips.base + "/drip")
            #expect(error?.kind == .timedOut)
            #expect(error?.message == "slower than 1024 B/s for 2 s")
            #expect((1..<MisbehavingServer.dripLength).contains(bytes))
        }

        /// Six drips on one host (that neither limit ends here) and then one good URL on
        /// another: the good URL is requested and completes while the drips still run.
        @Test func dripsOfOneHostLeaveSlotsForOtherHosts() async throws {
            let nginx = try NginxServer()
            var configuration = ImageDownloaderConfiguration()
            configuration.minimumBytesPerSecond = 1
            configuration.maxTransferTime = nil
            let downloader = ImageDownloader(loaders: [CurlLoaderFactory.loader], configuration: configuration)
            let dripped = Completions()
            let tokens = (1...6).map {
                downloader.download(DownloadRequest(url: drips.base + "/drip\($0)"), completion: dripped.record)
            }
            let good = Completions()
            downloader.download(DownloadRequest(url: nginx.http + "/static/small.bin"), completion: good.record)
            let result = await good.nextResult(seconds: 10 * HangBound.scale)
            #expect((try? result?.get())?.data == nginx.files["small.bin"])
            #expect(
                nginx.requests(matching: "/static/small.bin", atLeast: 1) == [
                    "/static/small.bin|image/*,*/*;q=0.8|-|200"
                ])
            let deadline = ContinuousClock.now + HangBound.scaled(.seconds(5))
            while drips.dripRequests < 4, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(drips.dripRequests == 4)  // the host's share: 6 less a third
            #expect(downloader.activeCount == 6)
            #expect(await dripped.nextResult(seconds: 0.05) == nil)
            for token in tokens { token.cancel() }
            for _ in tokens { #expect(await dripped.next()?.kind == .cancelled) }
        }
    }
}

/// A loader over another that takes the total deadline and the low-speed limit off each
/// request: a loader that does not honour them.
final class LimitlessLoader: ImageLoader {
    let base: any ImageLoader
    var schemes: [String] { base.schemes }

    init(_ base: any ImageLoader) { self.base = base }

    func start(_ request: LoadRequest, handler: @escaping @Sendable (LoadEvent) -> Void)
        throws(ImageLoadingError) -> any LoadTask
    {
        var limitless = request
        limitless.maxTransferTime = nil
        limitless.minimumBytesPerSecond = 1
        limitless.idleTimeout = .seconds(300)
        return try base.start(limitless, handler: handler)
    }
}
