import Foundation
import Testing
import WebImageTestSupport

/// The repository is formatted as `make format` leaves it: Swift by the toolchain's
/// `swift format` (`.swift-format`, strict: a lint warning fails), C by clang-format
/// (`.clang-format`). A change that is not formatted fails here, with the linter's lines.
@Suite("formatting")
struct FormattingTests {
    static let folders = ["Package.swift", "Sources", "Plugins", "Tests", "Examples"]

    @Test("swift format lint --strict finds nothing")
    func swiftFormatted() async throws {
        let swift = try DocumentationTests.which("swift")
        let result = try await WebImageProcess.run(
            ["format", "lint", "--strict", "-r"]
                + Self.folders.map { BuildProducts.repository.appendingPathComponent($0).path },
            executable: URL(fileURLWithPath: swift))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
    }

    @Test("clang-format --dry-run --Werror finds nothing in any C file")
    func cFormatted() async throws {
        let files = Self.folders.dropFirst().flatMap { folder -> [String] in
            let root = BuildProducts.repository.appendingPathComponent(folder)
            let found = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            return (found?.allObjects as? [URL] ?? []).map(\.path).filter { $0.hasSuffix(".c") || $0.hasSuffix(".h") }
        }
        #expect(files.count > 100)
        let result = try await WebImageProcess.run(
            ["--dry-run", "--Werror"] + files.sorted(), executable: URL(fileURLWithPath: "/usr/bin/clang-format"))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
    }
}
