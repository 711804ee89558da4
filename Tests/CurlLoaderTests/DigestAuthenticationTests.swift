import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

extension CurlLoaderTests {
    /// Digest authentication against a server that refuses every other scheme (nginx has no
    /// digest module, so the tests run their own, ``DigestAuthServer``).
    @Suite("Curl loader digest authentication", .ownThread)
    struct DigestAuthenticationTests {
        let loader = CurlLoaderFactory.loader
        let server: DigestAuthServer

        init() throws {
            server = try DigestAuthServer()
        }

        func request(user: String? = DigestAuthServer.user, password: String = DigestAuthServer.password)
            -> LoadRequest
        {
            var request = LoadRequest(url: server.url)
            if let user { request.credential = .init(user: user, password: password) }
            return request
        }

        /// libcurl sends no credentials first, reads the challenge, then answers it with a digest.
        @Test func credentialsAnswerTheDigestChallenge() async throws {
            let (response, body, _) = try await loader.load(request())
            #expect(response.statusCode == 200)
            #expect(body == Array("digest authorized".utf8))
            #expect(try server.log() == ["401 none", "200 Digest"])
        }

        @Test func withoutCredentialsTheChallengeReachesTheCaller() async throws {
            let (response, body, _) = try await loader.load(request(user: nil))
            #expect(response.statusCode == 401)
            #expect(response.headers["WWW-Authenticate"]?.hasPrefix("Digest realm=\"webimage-digest\"") == true)
            #expect(body == Array("unauthorized".utf8))
            #expect(try server.log() == ["401 none"])
        }

        @Test func aWrongPasswordEndsWithTheServersRefusal() async throws {
            let (response, _, _) = try await loader.load(request(password: "wrong"))
            #expect(response.statusCode == 401)
            #expect(try server.log() == ["401 none", "401 Digest"])
        }
    }
}
