import Testing
import WebImageCore
import WebImageTestSupport

extension CurlLoaderTests {
    @Suite("Curl loader against a misbehaving server", .ownThread)
    struct MisbehavingServerTests {
        let loader = CurlLoaderFactory.loader
        let server: MisbehavingServer

        init() throws {
            server = try MisbehavingServer()
        }

        /// Loads `path` and checks it failed within `limit` (cancelled when it has not).
        func failure(_ path: String, configure: (inout LoadRequest) -> Void = { _ in }, within limit: Duration)
            async -> (LoadResult, Duration)
        {
            var request = LoadRequest(url: server.base + path)
            configure(&request)
            let started = ContinuousClock.now
            let result = await HangBound.cancelling(after: limit) { [loader, request] in
                await LoadResult.collect(loader, request)
            }
            let elapsed = ContinuousClock.now - started
            #expect(elapsed < limit)
            return (result, elapsed)
        }

        /// A chunked body of chunks from 1 byte to 150 KB, which libcurl hands over in pieces of
        /// at most 16 KB that the shim gathers: whole and in order, as events and through the
        /// downloader (which takes the gathered bytes in place).
        @Test func chunkedBodyArrivesWholeAndInOrder() async throws {
            let request = LoadRequest(url: server.base + "/pieces")
            let result = await HangBound.cancelling(after: .seconds(20)) { [loader, request] in
                await LoadResult.collect(loader, request)
            }
            #expect(result.error == nil)
            #expect(result.body == MisbehavingServer.piecesBody)
            let downloader = ImageDownloader(loaders: [loader])
            let download = try await downloader.download(DownloadRequest(url: server.base + "/pieces"))
            #expect(download.data == MisbehavingServer.piecesBody)
        }

        @Test func droppedConnectionMidBodyIsTruncated() async {
            let (result, _) = await failure("/drop", within: .seconds(5))
            #expect(result.error?.kind == .networkError)
            #expect(result.error?.nativeCode == 18)  // CURLE_PARTIAL_FILE
        }

        @Test func shortBodyIsNeverComplete() async {
            let (result, _) = await failure("/lie", within: .seconds(5))
            #expect(result.response?.statusCode == 200)
            #expect(result.error?.kind == .networkError)
            #expect(result.error?.nativeCode == 18)  // CURLE_PARTIAL_FILE
            #expect(result.body.count <= 1200)
        }

        @Test func stallAfterHeadersTimesOut() async {
            let (result, elapsed) = await failure(
                "/stall", configure: { $0.idleTimeout = .seconds(1) }, within: .seconds(6))
            #expect(result.error?.kind == .timedOut)
            #expect(result.error?.nativeCode == 28)  // CURLE_OPERATION_TIMEDOUT
            #expect(elapsed >= .seconds(1))
            server.stop()
        }

        /// 2 bytes a second never trips the idle timeout (1 byte a second over 30 s here): the
        /// total deadline ends it.
        @Test func dripIsEndedByTheTotalDeadline() async {
            let (result, _) = await failure(
                "/drip",
                configure: {
                    $0.idleTimeout = .seconds(30)
                    $0.maxTransferTime = .seconds(2)
                }, within: .seconds(10))
            #expect(result.error?.kind == .timedOut)
            #expect(result.error?.message == "transfer took longer than 2 s (--max-time)")
            #expect(result.error?.nativeCode == 28)  // CURLE_OPERATION_TIMEDOUT
            #expect(result.response?.statusCode == 200)
            #expect((1..<MisbehavingServer.dripLength).contains(result.body.count))
            #expect(result.body.allSatisfy { $0 == UInt8(ascii: "d") })
        }

        @Test func dripIsEndedByTheLowSpeedLimit() async {
            let (result, _) = await failure(
                "/drip",
                configure: {
                    $0.idleTimeout = .seconds(2)
                    $0.minimumBytesPerSecond = 1024
                }, within: .seconds(10))
            #expect(result.error?.kind == .timedOut)
            #expect(result.error?.message == "slower than 1024 B/s for 2 s")
            #expect(result.error?.nativeCode == 28)  // CURLE_OPERATION_TIMEDOUT
            #expect(result.response?.statusCode == 200)
            #expect((1..<MisbehavingServer.dripLength).contains(result.body.count))
        }

        @Test func malformedResponseIsANetworkError() async {
            let (result, _) = await failure("/malformed", within: .seconds(5))
            #expect(result.error?.kind == .networkError)
            #expect(result.error?.nativeCode == 1)  // CURLE_UNSUPPORTED_PROTOCOL: "Received HTTP/0.9 when not allowed"
            #expect(result.body.isEmpty)
        }

        @Test func gzipBombStopsAtTheSizeLimit() async {
            let (result, _) = await failure(
                "/bomb", configure: { $0.maxBodySize = 10_000_000 }, within: .seconds(10))
            #expect(result.error?.kind == .tooLarge)
            #expect(result.error?.message == "the body exceeds the limit of 10000000 bytes")
            #expect(result.body.count <= 10_000_000)
        }
    }
}
