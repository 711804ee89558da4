import CurlLoader
import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

extension CurlLoaderTests {
    @Suite("Curl loader: data: and file: URLs")
    struct DataAndFileURLTests {
        let loader = CurlLoaderFactory.loader

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
            let (response, body, metrics) = try await loader.load(LoadRequest(url: "file://\(path)"))
            #expect(response.statusCode == 200)
            #expect(response.expectedContentLength == 100_000)
            #expect(body == bytes)
            #expect(metrics.bytesReceived == 100_000)
        }

        @Test func missingFileIsANetworkErrorWithCurlsCode() async {
            do {
                _ = try await loader.load(LoadRequest(url: "file:///nonexistent/webimage-missing.png"))
                Issue.record("a missing file loaded")
            } catch {
                #expect(error.kind == .networkError)
                #expect(error.nativeCode == 37)  // CURLE_FILE_COULDNT_READ_FILE
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
