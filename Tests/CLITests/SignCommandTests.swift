import Foundation
import Testing
import WebImageTestSupport

@Suite("webimage sign", .ownThread)
struct SignCommandTests {
    static let key = "736563726574"
    static let salt = "68656C6C6F"
    static let path = "/rs:fit:256:256/plain/http://127.0.0.1/photo.jpg@webp"

    /// Runs `webimage arguments...` with the signing variables removed, then `environment` set.
    private func sign(_ arguments: [String], environment: [String: String] = [:]) async throws -> CommandResult {
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return try await WebImageProcess.run(
            ["-u", "WEBIMAGE_SERVE_KEY", "-u", "WEBIMAGE_SERVE_SALT"] + assignments
                + [try BuildProducts.executable.path, "sign"] + arguments,
            executable: URL(fileURLWithPath: "/usr/bin/env"))
    }

    @Test("prints the path signed as openssl signs it, with the flags or the environment")
    func signs() async throws {
        let signature = try OpenSSLSignature.signature(of: Self.path, keyHex: Self.key, saltHex: Self.salt)
        let expected = ["/\(signature)\(Self.path)"]
        let byFlags = try await sign([Self.path, "--key", Self.key, "--salt", Self.salt])
        #expect(byFlags.status == 0)
        #expect(byFlags.standardError == "")
        #expect(byFlags.outputLines == expected)
        let byEnvironment = try await sign(
            [Self.path], environment: ["WEBIMAGE_SERVE_KEY": Self.key, "WEBIMAGE_SERVE_SALT": Self.salt])
        #expect(byEnvironment.outputLines == expected)
        let flagsWin = try await sign(
            [Self.path, "--key", Self.key, "--salt", Self.salt],
            environment: ["WEBIMAGE_SERVE_KEY": "00", "WEBIMAGE_SERVE_SALT": "00"])
        #expect(flagsWin.outputLines == expected)
    }

    @Test(
        "a missing key or salt, bad hexadecimal or a relative path is one error line",
        arguments: [
            (
                ["/x"], [:],
                "error: no signing key: give --key HEX and --salt HEX, or set WEBIMAGE_SERVE_KEY and WEBIMAGE_SERVE_SALT"
            ),
            (["/x", "--key", "00"], [:], "error: no salt: give --salt HEX or set WEBIMAGE_SERVE_SALT"),
            (["/x", "--key", "zz", "--salt", "00"], [:], "error: cannot sign: the key is not hexadecimal: 'zz'"),
            (
                ["/x"], ["WEBIMAGE_SERVE_KEY": "00", "WEBIMAGE_SERVE_SALT": "123"],
                "error: cannot sign: the salt has an odd number of hexadecimal digits (3)"
            ),
            (["x", "--key", "00", "--salt", "00"], [:], "error: the path 'x' does not start with '/'"),
        ] as [([String], [String: String], String)])
    func errors(arguments: [String], environment: [String: String], line: String) async throws {
        let result = try await sign(arguments, environment: environment)
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.errorLines == [line])
    }
}
