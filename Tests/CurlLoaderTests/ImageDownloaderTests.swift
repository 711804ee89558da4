import Foundation
import Synchronization
import Testing
import WebImageCore
import WebImageTestSupport

extension CurlLoaderTests {
    @Suite("Image downloader over the curl loader and nginx", .ownThread)
    struct ImageDownloaderTests {
        let server: NginxServer

        init() throws {
            server = try NginxServer()
        }

        func downloader(_ configure: (inout ImageDownloaderConfiguration) -> Void = { _ in }) -> ImageDownloader {
            var configuration = ImageDownloaderConfiguration()
            configure(&configuration)
            return ImageDownloader(loaders: [CurlLoaderFactory.loader], configuration: configuration)
        }

        func failure(_ body: () async throws(ImageLoadingError) -> DownloadResult) async -> ImageLoadingError? {
            do {
                _ = try await body()
                return nil
            } catch {
                return error
            }
        }

        @Test func downloadSendsTheDefaultAcceptHeader() async throws {
            let result = try await downloader().download(DownloadRequest(url: server.http + "/static/small.bin"))
            #expect(result.data == server.files["small.bin"])
            #expect(result.response.statusCode == 200)
            #expect(
                server.requests(matching: "/static/small.bin", atLeast: 1) == [
                    "/static/small.bin|image/*,*/*;q=0.8|-|200"
                ])
        }

        @Test func headersAreSetReplacedAndCleared() async throws {
            var request = DownloadRequest(url: server.http + "/static/small.bin?headers")
            request.headers["Accept"] = "image/webp"
            _ = try await downloader().download(request)
            request.url = server.http + "/static/small.bin?cleared"
            request.headers["Accept"] = ""
            _ = try await downloader().download(request)
            #expect(
                server.requests(matching: "/static/small.bin?headers", atLeast: 1) == [
                    "/static/small.bin?headers|image/webp|-|200"
                ])
            // No Accept from the downloader: libcurl sends its own */*.
            #expect(
                server.requests(matching: "/static/small.bin?cleared", atLeast: 1) == [
                    "/static/small.bin?cleared|*/*|-|200"
                ])
        }

        @Test("a token kept after its download ended does not keep the body: the result holds it alone")
        func finishedDownloadKeepsNoBody() async throws {
            let downloader = downloader()
            let token = TrackedMutex<DownloadToken?>(nil)
            let outcome = await withCheckedContinuation { continuation in
                let started = downloader.download(DownloadRequest(url: server.http + "/static/small.bin")) {
                    continuation.resume(returning: $0)
                }
                token.withLock { $0 = started }
            }
            var data = try (consume outcome).get().data
            #expect(data == server.files["small.bin"])
            // The continuation resumes this test (on a thread of its own) while the downloader's
            // delivery, which passed the result, has not returned yet on the loader's thread. A
            // second transfer ends on that thread after the first delivery has returned.
            _ = try await downloader.download(DownloadRequest(url: server.http + "/static/small.bin?after"))
            // Writing through a buffer that another owner shares copies it first.
            let before = data.withUnsafeBufferPointer { $0.baseAddress }
            data.withUnsafeMutableBufferPointer { $0[0] = $0[0] }
            #expect(data.withUnsafeBufferPointer { $0.baseAddress } == before)
            #expect(token.withLock { $0?.url } == server.http + "/static/small.bin")
        }

        @Test func identicalConcurrentRequestsShareOneTransfer() async throws {
            let downloader = downloader()
            let results = try await withThrowingTaskGroup(of: DownloadResult.self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        try await downloader.download(DownloadRequest(url: server.http + "/slow/slow.bin"))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 5)
            for result in results { #expect(result.data == server.files["slow.bin"]) }
            #expect(server.requests(matching: "/slow/slow.bin", atLeast: 1).count == 1)
        }

        /// The curl plugin's bytes go straight into the body; chunks are made only for callers
        /// that asked for them. A caller of chunks and a caller of the whole body share one
        /// transfer of 1 MB (many pieces): the chunks add up to the file, and both get it whole.
        /// The transfer takes 1 to 3 seconds (400 KB/s), so the second caller joins it for sure.
        /// Two CI runs saw two transfers: one at full speed, one at 2 MB/s, which nginx's
        /// per-second accounting also lets through at once; the second call then came after
        /// the transfer's end (the test's thread preempted on a loaded machine, presumably).
        @Test("a body in many pieces: the chunks of one caller and the whole body of another are the file")
        func chunksAndWholeBodyOfOneTransfer() async throws {
            let downloader = downloader()
            let url = server.http + "/slow/large.bin?rate=400000"
            let chunks = TrackedMutex<[[UInt8]]>([])
            let streamed = Completions()
            let whole = Completions()
            downloader.download(
                DownloadRequest(url: url),
                events: { event in
                    if case .data(let chunk) = event { chunks.withLock { $0.append(chunk) } }
                }, completion: streamed.record)
            downloader.download(DownloadRequest(url: url), completion: whole.record)
            let file = try #require(server.files["large.bin"])
            #expect(try #require(await streamed.nextResult(seconds: 10 * HangBound.scale)).get().data == file)
            #expect(try #require(await whole.nextResult(seconds: 10 * HangBound.scale)).get().data == file)
            let received = chunks.withLock { $0 }
            #expect(received.count > 1)
            #expect(received.flatMap { $0 } == file)
            let lines = server.requests(matching: "/slow/large.bin", atLeast: 1)
            #expect(lines.count == 1, "\(lines)")
        }

        @Test func cancellingOneCallerLeavesTheOthersAndTheLastCancelStopsTheTransfer() async throws {
            let downloader = downloader()
            let url = server.http + "/slow/medium.bin"  // 10 seconds at nginx's limit_rate
            let first = Completions()
            let second = Completions()
            let firstToken = downloader.download(DownloadRequest(url: url), completion: first.record)
            let secondToken = downloader.download(DownloadRequest(url: url), completion: second.record)
            try await Task.sleep(for: .milliseconds(200))
            firstToken.cancel()
            #expect(await first.next()?.kind == .cancelled)
            #expect(downloader.activeCount == 1)
            secondToken.cancel()
            #expect(await second.next()?.kind == .cancelled)
            #expect(downloader.activeCount == 0)
            // A new request after the cancel starts afresh: a second transfer reaches nginx and
            // brings the whole file (resuming the bytes the cancelled one kept, if any).
            let saved = ContinuousClock.now + .seconds(10)
            while downloader.resumableByteCount(for: url) == nil, ContinuousClock.now < saved {
                try await Task.sleep(for: .milliseconds(20))
            }
            let third = Completions()
            downloader.download(DownloadRequest(url: url), completion: third.record)
            // 10 s at nginx's 20 KB/s if no bytes were kept; a bound, not a timing check.
            switch try #require(await third.nextResult(seconds: 60)) {
            case .success(let download): #expect(download.data == server.files["medium.bin"])
            case .failure(let error): Issue.record("the request after the cancel failed: \(error)")
            }
            // nginx logs a request when it ends, the cancelled one when it notices the close.
            #expect(server.requests(matching: "/slow/medium.bin", atLeast: 2, within: .seconds(30)).count == 2)
        }

        @Test func cancelWhileQueuedNeverReachesTheServerNorTakesAToken() async throws {
            let serial = downloader {
                $0.maxConcurrentDownloads = 1
                $0.rateLimit = TokenBucket.Rate(perSecond: 0.001, burst: 2)
            }
            let blocker = Completions()
            let queued = Completions()
            let next = Completions()
            let blockerToken = serial.download(
                DownloadRequest(url: server.http + "/slow/slow.bin?queued"), completion: blocker.record)
            let queuedToken = serial.download(
                DownloadRequest(url: server.http + "/static/small.bin?cancelled"), completion: queued.record)
            queuedToken.cancel()
            #expect(await queued.next()?.kind == .cancelled)
            // The second token of the burst is still there for the next request.
            serial.download(DownloadRequest(url: server.http + "/static/small.bin?next"), completion: next.record)
            blockerToken.cancel()
            #expect(await blocker.next()?.kind == .cancelled)
            #expect(await next.next(seconds: 10) == nil)
            #expect(server.requests(matching: "/static/small.bin?next", atLeast: 1).count == 1)
            #expect(server.requests(matching: "/static/small.bin?cancelled", atLeast: 0).isEmpty)
        }

        @Test func asyncDownloadHonoursTaskCancellation() async throws {
            let downloader = downloader()
            let task = Task { try await downloader.download(DownloadRequest(url: server.http + "/slow/slow.bin")) }
            // The download is under way (slow.bin takes 3 s at nginx's 20 kB/s) once the downloader has it.
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(60)
            while downloader.activeCount == 0 && clock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(downloader.activeCount == 1)
            task.cancel()
            do {
                _ = try await task.value
                Issue.record("the cancelled download finished")
            } catch let error as ImageLoadingError {
                #expect(error.kind == .cancelled)
            }
        }

        @Test func badStatusKeepsTheCodeAndHeaders() async {
            let error = await failure { () async throws(ImageLoadingError) in
                try await downloader().download(DownloadRequest(url: server.http + "/static/none.png"))
            }
            #expect(error?.kind == .badStatus)
            #expect(error?.statusCode == 404)
            #expect(error?.headers?["Server"]?.hasPrefix("nginx") == true)
        }

        @Test func serverErrorsAreRetriedWithBackoff() async {
            let retrying = downloader { $0.retry = RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(50)) }
            let error = await failure { () async throws(ImageLoadingError) in
                try await retrying.download(DownloadRequest(url: server.http + "/unavailable"))
            }
            #expect(error?.kind == .badStatus)
            #expect(error?.statusCode == 503)
            #expect(server.requests(matching: "/unavailable", atLeast: 3).count == 3)
        }

        @Test func clientErrorsAreNotRetried() async {
            let retrying = downloader { $0.retry = RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(50)) }
            let error = await failure { () async throws(ImageLoadingError) in
                try await retrying.download(DownloadRequest(url: server.http + "/static/none-retry.png"))
            }
            #expect(error?.statusCode == 404)
            try? await Task.sleep(for: .milliseconds(200))
            #expect(server.requests(matching: "/static/none-retry.png", atLeast: 1).count == 1)
        }

        @Test func unacceptableContentType() async {
            let strict = downloader { $0.acceptableContentTypes = ["image/png"] }
            let error = await failure { () async throws(ImageLoadingError) in
                try await strict.download(DownloadRequest(url: server.http + "/static/text.txt"))
            }
            #expect(error?.kind == .badContentType)
            #expect(error?.statusCode == 200)
            #expect(error?.headers?["Content-Type"] == "text/plain")
        }

        @Test func responseLargerThanTheLimit() async {
            let limited = downloader { $0.maxResponseSize = 100_000 }
            let error = await failure { () async throws(ImageLoadingError) in
                try await limited.download(DownloadRequest(url: server.http + "/static/large.bin"))
            }
            #expect(error?.kind == .tooLarge)
            #expect(error?.message == "Content-Length exceeds the limit of 100000 bytes")
        }

        @Test func conditionalRequestIsNotModified() async throws {
            let downloader = downloader()
            let first = try await downloader.download(DownloadRequest(url: server.http + "/static/small.bin"))
            var conditional = DownloadRequest(url: server.http + "/static/small.bin")
            conditional.validators = .init(etag: first.response.headers["ETag"])
            let error = await failure { () async throws(ImageLoadingError) in try await downloader.download(conditional)
            }
            #expect(error?.kind == .notModified)
            #expect(error?.statusCode == 304)
            let etag = try #require(first.response.headers["ETag"])
            #expect(
                server.requests(matching: "/static/small.bin", atLeast: 2).last
                    == "/static/small.bin|image/*,*/*;q=0.8|\(etag.replacingOccurrences(of: "\"", with: "\\x22"))|304")
        }

        @Test func interruptedDownloadResumesWithRangeAndIfRange() async throws {
            let downloader = downloader()
            let url = server.http + "/slow/medium.bin"
            let first = Completions()
            let token = downloader.download(DownloadRequest(url: url), completion: first.record)
            try await Task.sleep(for: .milliseconds(1500))
            token.cancel()
            #expect(await first.next()?.kind == .cancelled)
            // The transfer's end saves its bytes, after the caller's completion.
            let deadline = ContinuousClock.now + .seconds(10)
            while downloader.resumableByteCount(for: url) == nil, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let kept = try #require(downloader.resumableByteCount(for: url))
            #expect(kept > 0 && kept < 200_000)
            let result = try await downloader.download(DownloadRequest(url: url))
            #expect(result.data == server.files["medium.bin"])
            #expect(result.response.statusCode == 200)
            #expect(result.response.expectedContentLength == 200_000)
            #expect(downloader.resumableByteCount(for: url) == nil)
            // nginx logs the cancelled request when it notices, which may be after the resumed one.
            let statuses = server.requests(matching: "/slow/medium.bin", atLeast: 2).map {
                $0.split(separator: "|").last
            }
            #expect(statuses.count == 2)
            #expect(statuses.filter { $0 == "206" }.count == 1)
        }

        @Test("denyPrivateAddresses refuses the loopback server with one typed error; no request reaches it")
        func destinationPolicyRefusesLoopback() async {
            let guarded = downloader { $0.destinationPolicy.denyPrivateAddresses = true }
            let error = await failure { () async throws(ImageLoadingError) in
                try await guarded.download(DownloadRequest(url: server.http + "/static/small.bin?guarded"))
            }
            #expect(
                error
                    == ImageLoadingError(.destinationRefused, "127.0.0.1 is a loopback address", nativeCode: 7)
            )
            #expect(server.requests(matching: "/static/small.bin?guarded", atLeast: 0).isEmpty)
        }

        @Test("allowedURLPrefixes: a redirect outside them is one typed error, its target never requested")
        func redirectOutsideAllowedPrefixesIsRefused() async {
            let guarded = downloader { $0.destinationPolicy.allowedURLPrefixes = [server.http + "/redirect"] }
            let error = await failure { () async throws(ImageLoadingError) in
                try await guarded.download(DownloadRequest(url: server.http + "/redirect-twice"))
            }
            #expect(
                error
                    == ImageLoadingError(
                        .destinationRefused,
                        "the redirect to \(server.http)/static/small.bin is not under an allowed source prefix",
                        nativeCode: 42))
            #expect(server.requests(matching: "/redirect", atLeast: 2).count == 2)
            #expect(server.requests(matching: "/static/small.bin", atLeast: 0).isEmpty)
        }

        @Test("deniedAddresses refuses nginx's address and port; allowedNetworks admits it under denyPrivateAddresses")
        func deniedAddressesAndAllowedNetworks() async throws {
            let nginx = try IPNetwork("127.0.0.1:\(server.httpPort)")
            let loopback = try IPNetwork("127.0.0.0/8")
            let denied = downloader { $0.destinationPolicy.deniedAddresses = [nginx] }
            let error = await failure { () async throws(ImageLoadingError) in
                try await denied.download(DownloadRequest(url: server.http + "/static/small.bin?denied"))
            }
            #expect(
                error
                    == ImageLoadingError(
                        .destinationRefused, "127.0.0.1 port \(server.httpPort) is a denied address", nativeCode: 7))
            #expect(server.requests(matching: "/static/small.bin?denied", atLeast: 0).isEmpty)
            let allowed = downloader {
                $0.destinationPolicy.denyPrivateAddresses = true
                $0.destinationPolicy.allowedNetworks = [loopback]
            }
            let result = try await allowed.download(DownloadRequest(url: server.http + "/static/small.bin?allowed"))
            #expect(result.data == server.files["small.bin"])
        }

        @Test("a header value with CR/LF is an invalid header naming it, not an invalid URL")
        func headerWithLineBreakIsAnInvalidHeader() async {
            var request = DownloadRequest(url: server.http + "/static/small.bin")
            request.headers["X-Split"] = "a\r\nHost: other"
            let error = await failure { () async throws(ImageLoadingError) in try await downloader().download(request) }
            #expect(
                error
                    == ImageLoadingError(
                        .invalidHeader, "the value of the header 'X-Split' contains a line break or NUL"))
        }

        @Test("a data: URL longer than maxDataURLLength fails before decoding, its URL cut in the message")
        func dataURLOverTheLengthLimit() async {
            let limited = downloader { $0.maxDataURLLength = 300 }
            let url = "data:," + String(repeating: "x", count: 400)
            let error = await failure { () async throws(ImageLoadingError) in
                try await limited.download(DownloadRequest(url: url))
            }
            #expect(
                error
                    == ImageLoadingError(
                        .invalidURL,
                        "the URL is 406 bytes long, more than the limit of 300 for data: URLs"
                    ))
        }

        @Test func requestModifierReturningNothingFails() async {
            let refusing = downloader { $0.requestModifier = { _ in nil } }
            let error = await failure { () async throws(ImageLoadingError) in
                try await refusing.download(DownloadRequest(url: server.http + "/static/small.bin"))
            }
            #expect(error?.kind == .requestModifierFailed)
        }

        @Test func decryptorTurnsTheBodyIntoImageBytes() async throws {
            let encoded = Array(Data(server.files["small.bin"]!).base64EncodedString().utf8)
            let folder = try TemporaryDirectory()
            let path = try folder.write("encoded.b64", encoded)
            let decrypting = downloader { configuration in
                configuration.decryptor = { body, _ in Data(base64Encoded: Data(body)).map { [UInt8]($0) } }
                configuration.destinationPolicy.allowFile = true
            }
            let result = try await decrypting.download(DownloadRequest(url: "file://" + path))
            #expect(result.data == server.files["small.bin"])
        }

        @Test func queueOrderFollowsPriorityThenFIFOOrLIFO() async throws {
            for order in [ImageDownloaderConfiguration.ExecutionOrder.fifo, .lifo] {
                let serial = downloader {
                    $0.maxConcurrentDownloads = 1
                    $0.executionOrder = order
                }
                let tag = order == .fifo ? "fifo" : "lifo"
                let done = Completions()
                let blocker = serial.download(
                    DownloadRequest(url: server.http + "/slow/slow.bin?\(tag)"), completion: done.record)
                var tokens = [blocker]
                for index in 1...3 {
                    tokens.append(
                        serial.download(
                            DownloadRequest(url: server.http + "/static/small.bin?\(tag)\(index)"),
                            completion: done.record))
                }
                tokens.append(
                    serial.download(
                        DownloadRequest(url: server.http + "/static/small.bin?\(tag)low", priority: .low),
                        completion: done.record))
                tokens[1].setPriority(.low)
                tokens.append(
                    serial.download(
                        DownloadRequest(url: server.http + "/static/small.bin?\(tag)high", priority: .high),
                        completion: done.record))
                for _ in 0..<6 { _ = await done.next(seconds: 10) }
                let order = server.requests(matching: "/static/small.bin?\(tag)", atLeast: 5).map {
                    String($0.split(separator: "|")[0].dropFirst("/static/small.bin?".count + 4))
                }
                #expect(order == (tag == "fifo" ? ["high", "2", "3", "1", "low"] : ["high", "3", "2", "low", "1"]))
            }
        }

        @Test func progressIsThrottledAndEndsAtTheFullSize() async throws {
            let throttled = downloader { $0.minimumProgressInterval = .milliseconds(500) }
            var reports: [DownloadProgress] = []
            for try await event in throttled.events(for: DownloadRequest(url: server.http + "/slow/slow.bin")) {
                if case .progress(let progress) = event { reports.append(progress) }
            }
            #expect(reports.last == DownloadProgress(receivedBytes: 60_000, expectedBytes: 60_000))
            #expect(reports.count >= 2)
            #expect(reports.count <= 8)  // about 3 seconds of body at one report per 0.5 s, plus the last
        }

        @Test func rateLimiterSpacesStarts() async throws {
            let limited = downloader { $0.rateLimit = TokenBucket.Rate(perSecond: 10, burst: 2) }
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        _ = try await limited.download(
                            DownloadRequest(url: server.http + "/static/small.bin?rate\(index)"))
                    }
                }
                try await group.waitForAll()
            }
            // 2 from the burst, then 4 more at 10 per second: at least 0.3 s.
            #expect(ContinuousClock.now - started >= .milliseconds(300))
        }

        @Test func aFinishedTransfersTaskIsReleasedOutsideTheDownloadersLock() async throws {
            let probe = LockProbeLoader(CurlLoaderFactory.loader)
            let probed = ImageDownloader(loaders: [probe], configuration: ImageDownloaderConfiguration())
            probe.downloader.withLock { $0 = probed }
            let result = try await probed.download(DownloadRequest(url: server.http + "/static/small.bin"))
            #expect(result.data == server.files["small.bin"])
            #expect(probe.releases.withLock { $0 } == [true])
        }
    }
}

/// Completions of token-based downloads, awaited by a test without blocking a thread.
final class Completions: Sendable {
    private let results = TrackedMutex<(all: [Result<DownloadResult, ImageLoadingError>], taken: Int)>(([], 0))

    var record: @Sendable (Result<DownloadResult, ImageLoadingError>) -> Void {
        { [self] result in results.withLock { $0.all.append(result) } }
    }

    /// The next completion not yet taken, polled every 10 ms for at most `seconds`; returns
    /// its error (nil for a success or when none came).
    @discardableResult
    func next(seconds: Double = 5) async -> ImageLoadingError? {
        if case .failure(let error) = await nextResult(seconds: seconds) { return error }
        return nil
    }

    /// The next completion not yet taken, polled every 10 ms for at most `seconds`; nil when
    /// none came.
    func nextResult(seconds: Double = 5) async -> Result<DownloadResult, ImageLoadingError>? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            let result = results.withLock { state -> Result<DownloadResult, ImageLoadingError>? in
                guard state.taken < state.all.count else { return nil }
                state.taken += 1
                return state.all[state.taken - 1]
            }
            if let result { return result }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}

/// A loader over another whose tasks, when released, record whether the downloader's lock was
/// free then (a downloader must not run a loader's code while it holds its lock). A task
/// released under the lock records false after 2 s instead of waiting for it.
final class LockProbeLoader: ImageLoader {
    let base: any ImageLoader
    let downloader = TrackedMutex<ImageDownloader?>(nil)
    let releases = TrackedMutex<[Bool]>([])
    var schemes: [String] { base.schemes }

    init(_ base: any ImageLoader) { self.base = base }

    func start(_ request: LoadRequest, handler: @escaping @Sendable (LoadEvent) -> Void)
        throws(ImageLoadingError) -> any LoadTask
    {
        ProbedTask(task: try base.start(request, handler: handler), probe: self)
    }

    /// Called by a task's deinit: true when the downloader answered within 2 s.
    fileprivate func released() {
        let answered = DispatchSemaphore(value: 0)
        let downloader = downloader.withLock { $0 }
        DispatchQueue.global().async {
            _ = downloader?.activeCount
            answered.signal()
        }
        let free = answered.wait(timeout: .now() + 2) == .success
        releases.withLock { $0.append(free) }
    }
}

private final class ProbedTask: LoadTask {
    let task: any LoadTask
    let probe: LockProbeLoader

    init(task: any LoadTask, probe: LockProbeLoader) {
        self.task = task
        self.probe = probe
    }

    func cancel() { task.cancel() }

    deinit { probe.released() }
}
