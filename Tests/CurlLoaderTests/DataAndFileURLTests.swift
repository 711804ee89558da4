import CurlLoader
import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

extension CurlLoaderTests {
    @Suite("Curl loader: data: and file: URLs")
    struct DataAndFileURLTests {
        let loader = CurlLoaderFactory.loader

        /// A request for `url` with `file:` URLs allowed.
        static func fileRequest(_ url: String) -> LoadRequest {
            var request = LoadRequest(url: url)
            request.destinationPolicy.allowFile = true
            return request
        }

        @Test func base64DataURL() async throws {
            let (response, body, _) = try await loader.load(LoadRequest(url: "data:image/png;base64,iVBORw0KGgo="))
            #expect(response.statusCode == 200)
            #expect(response.headers["Content-Type"] == "image/png")
            #expect(response.headers["Content-Length"] == "8")
            #expect(body == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        }

        @Test func percentEncodedDataURL() async throws {
            let (response, body, _) = try await loader.load(LoadRequest(url: "data:,a%20b%2C"))
            #expect(response.mimeType == "text/plain")
            #expect(body == Array("a b,".utf8))
        }

        @Test func malformedDataURLIsInvalid() async {
            await #expect(throws: ImageLoadingError(.invalidURL, "invalid data: URL: bad base64")) {
                _ = try await loader.load(LoadRequest(url: "data:;base64,@@@"))
            }
            await #expect(throws: ImageLoadingError(.invalidURL, "invalid data: URL: no ',' before the data")) {
                _ = try await loader.load(LoadRequest(url: "data:text/plain"))
            }
        }

        @Test func dataURLOverTheSizeLimit() async {
            var request = LoadRequest(url: "data:,0123456789")
            request.maxBodySize = 4
            await #expect(throws: ImageLoadingError(.tooLarge, "the body exceeds the limit of 4 bytes")) {
                _ = try await loader.load(request)
            }
        }

        @Test func fileURL() async throws {
            let folder = try TemporaryDirectory()
            let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let path = try folder.write("image.bin", bytes)
            let (response, body, metrics) = try await loader.load(Self.fileRequest("file://\(path)"))
            #expect(response.statusCode == 200)
            #expect(response.expectedContentLength == 100_000)
            #expect(body == bytes)
            #expect(metrics.bytesReceived == 100_000)
        }

        @Test func missingFileIsANetworkErrorWithCurlsCode() async {
            do {
                _ = try await loader.load(Self.fileRequest("file:///nonexistent/webimage-missing.png"))
                Issue.record("a missing file loaded")
            } catch {
                #expect(error.kind == .networkError)
                #expect(error.nativeCode == 37)  // CURLE_FILE_COULDNT_READ_FILE
            }
        }

        @Test("file: URLs are refused unless the policy allows them, and nothing is read")
        func fileURLRefusedByDefault() async throws {
            let folder = try TemporaryDirectory()
            let path = try folder.write("secret.txt", "root:x:0:0")
            await #expect(
                throws: ImageLoadingError(.destinationRefused, "file: URLs are not allowed")
            ) {
                _ = try await loader.load(LoadRequest(url: "file://\(path)"))
            }
        }

        @Test("a FIFO, a folder and a device are refused at once: only regular files are served")
        func onlyRegularFiles() async throws {
            let folder = try TemporaryDirectory()
            let fifo = folder.file("pipe")
            #expect(mkfifo(fifo, 0o600) == 0)
            for path in [fifo, folder.path, "/dev/zero"] {
                let load = Task { [loader] in _ = try await loader.load(Self.fileRequest("file://\(path)")) }
                let deadline = ContinuousClock.now + HangBound.scaled(.seconds(10))
                let finished = TrackedMutex(false)
                Task {
                    _ = await load.result
                    finished.withLock { $0 = true }
                }
                while !finished.withLock({ $0 }), ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(10))
                }
                if !finished.withLock({ $0 }) {
                    Issue.record("file://\(path) did not end within the bound")
                    // A reader blocked in open(2) on the FIFO returns once a writer opens it.
                    let writer = open(fifo, O_WRONLY | O_NONBLOCK)
                    if writer >= 0 { close(writer) }
                }
                let error = await load.result.failure as? ImageLoadingError
                #expect(error == ImageLoadingError(.destinationRefused, "\(path) is not a regular file"))
            }
        }

        @Test func unsupportedSchemeIsRefusedAtStart() {
            #expect(throws: ImageLoadingError.self) {
                _ = try loader.start(LoadRequest(url: "gopher://127.0.0.1/")) { _ in }
            }
            do {
                _ = try loader.start(LoadRequest(url: "gopher://127.0.0.1/")) { _ in }
            } catch {
                #expect(error.kind == .invalidURL)
            }
        }
    }
}

extension Result {
    /// The error of a failure; nil for a success.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
