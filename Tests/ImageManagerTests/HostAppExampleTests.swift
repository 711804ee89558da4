import Foundation
import Testing
import WebImageTestSupport

/// `Examples/HostApp`, a SwiftPM package that depends on this one by path, built afresh as a
/// new user would build it (`swift build --package-path … --scratch-path <temporary folder>`)
/// with the README's "Using it from Swift" snippet, taken from README.md, as its second
/// executable. Both run from that build folder, which holds the plugin products the app
/// depends on and nothing installed: no `lib/webimage/plugins`, no `webimage-plugin-worker`.
/// One build for both keeps the suite's cost to one dependent build of the core (about two
/// minutes on two cores).
@Suite("Examples/HostApp", .ownThread)
struct HostAppExampleTests {
    /// The images nginx serves (paths in the repository), and the thumbnail (256x256 at most,
    /// aspect kept, oriented) the app prints for each.
    static let images: [(fixture: String, thumbnail: String)] = [
        ("Examples/sample-images/landscape.jpg", "256x171"),
        ("Examples/sample-images/portrait-exif6.jpg", "192x256"),
        ("Examples/sample-images/badge.png", "256x256"),
        ("Examples/sample-images/orbit.gif", "256x160"),
        ("Tests/Fixtures/jpeg/baseline.jpg", "61x43"), ("Tests/Fixtures/jpeg/progressive.jpg", "61x43"),
        ("Tests/Fixtures/jpeg/gray.jpg", "61x43"),
        ("Tests/Fixtures/jpeg/cmyk.jpg", "61x43"), ("Tests/Fixtures/jpeg/orientation-6.jpg", "43x61"),
        ("Tests/Fixtures/gif/anim.gif", "8x6"), ("Tests/Fixtures/gif/static.gif", "8x6"),
        ("Tests/Fixtures/webp/lossy.webp", "61x43"), ("Tests/Fixtures/webp/lossless.webp", "61x43"),
        ("Tests/Fixtures/webp/lossy-alpha.webp", "61x43"),
        ("Tests/Fixtures/webp/animated.webp", "40x30"),
        ("Tests/Fixtures/heif/rgb.heic", "96x64"), ("Tests/Fixtures/heif/rgb.avif", "96x64"),
        ("Tests/Fixtures/apng/anim.apng", "12x10"),
        ("Tests/Fixtures/png/rgb8.png", "13x7"), ("Tests/Fixtures/png/rgba8.png", "13x7"),
    ]

    @Test("20 URLs into thumbnails from nginx, then again from the disk cache; the README snippet runs")
    func hostAppLoadsThumbnailsTwice() async throws {
        let work = try TemporaryDirectory()
        let package = try HostAppPackage(in: work)
        let build = try await package.build()
        // Not installed beside any plugins: what the app finds is its own build's.
        #expect(!FileManager.default.fileExists(atPath: build.appendingPathComponent("../lib/webimage/plugins").path))
        #expect(!FileManager.default.fileExists(atPath: build.appendingPathComponent("webimage-plugin-worker").path))

        var files: [String: [UInt8]] = [:]
        for image in Self.images {
            let file = BuildProducts.repository.appendingPathComponent(image.fixture)
            files[file.lastPathComponent] = [UInt8](try Data(contentsOf: file))
        }
        try #require(files.count == 20)
        let nginx = try NginxServer(files: files)
        let urls = Self.images.map { "\(nginx.http)/static/\(URL(fileURLWithPath: $0.fixture).lastPathComponent)" }
        let list = try work.write("urls.txt", urls.joined(separator: "\n") + "\n")
        let cache = work.file("cache")
        // No plugin folder from the environment: only what the app finds itself.
        let environment = ["WEBIMAGE_PLUGIN_PATH": "", "WEBIMAGE_CACHE_DIR": work.file("unused-cache")]
        let app = build.appendingPathComponent("HostApp").path

        let first = try await MeasuredProcess.run(app, [list, cache], environment: environment)
        #expect(first.exitStatus == 0, "\(first.standardError)")
        #expect(first.standardError == "")
        #expect(first.standardOutput == Self.expectedLines(urls, source: "network"))
        for url in urls {
            let path = String(url.dropFirst(nginx.http.count))
            #expect(nginx.requests(matching: path, atLeast: 1).count == 1, "\(path)")
        }

        let second = try await MeasuredProcess.run(app, [list, cache], environment: environment)
        #expect(second.exitStatus == 0, "\(second.standardError)")
        #expect(second.standardError == "")
        #expect(second.standardOutput == Self.expectedLines(urls, source: "disk"))
        #expect(nginx.requests(matching: "/static/", atLeast: 0).count == 20)

        // The README's snippet, verbatim: the shared manager, one line.
        let snippet = try await MeasuredProcess.run(
            build.appendingPathComponent("ReadmeSnippet").path, [urls[2]],
            environment: ["WEBIMAGE_PLUGIN_PATH": "", "WEBIMAGE_CACHE_DIR": work.file("snippet-cache")])
        #expect(snippet.exitStatus == 0, "\(snippet.standardError)")
        #expect(snippet.standardError == "")
        #expect(snippet.standardOutput == "none 512 512\n")
        #expect(nginx.requests(matching: "/static/badge.png", atLeast: 2).count == 2)
    }

    /// One `<url> <source> <width>x<height>` line per image, in the list's order.
    static func expectedLines(_ urls: [String], source: String) -> String {
        zip(urls, images).map { "\($0) \(source) \($1.thumbnail)\n" }.joined()
    }
}

/// A copy of `Examples/HostApp` in a temporary folder, depending on this repository by its
/// absolute path instead of `../..`, with the README's first Swift snippet of "Using it from
/// Swift" as `Sources/ReadmeSnippet/main.swift` (which the example's manifest then builds).
/// The repository's own dependencies resolve from the clones of its build folder (SwiftPM
/// mirrors), so the build reaches no network.
struct HostAppPackage {
    let root: URL
    let scratch: URL

    init(in work: TemporaryDirectory) throws {
        let repository = BuildProducts.repository
        let example = repository.appendingPathComponent("Examples/HostApp")
        root = work.url.appendingPathComponent("webimage-host-app")
        scratch = work.url.appendingPathComponent("scratch")
        let manifest = try String(contentsOf: example.appendingPathComponent("Package.swift"), encoding: .utf8)
        let dependency = #"path: "../..""#
        try #require(manifest.components(separatedBy: dependency).count == 2)
        try work.write(
            "webimage-host-app/Package.swift",
            manifest.replacingOccurrences(of: dependency, with: "path: \"\(repository.path)\""))
        try FileManager.default.copyItem(
            at: example.appendingPathComponent("Sources"), to: root.appendingPathComponent("Sources"))
        try work.write("webimage-host-app/Sources/ReadmeSnippet/main.swift", try Self.readmeSnippet())
        try work.write("webimage-host-app/.swiftpm/configuration/mirrors.json", try Self.mirrors())
    }

    /// Builds both executables (debug) and returns the folder they are in.
    func build() async throws -> URL {
        let swift = ["/usr/bin/env", "swift", "build", "--package-path", root.path, "--scratch-path", scratch.path]
        let run = try await MeasuredProcess.run(
            swift[0], Array(swift.dropFirst()), timeLimit: HangBound.scaled(.seconds(1800)),
            addressSpaceLimit: 1 << 40)
        try #require(run.exitStatus == 0, "swift build failed:\n\(run.standardOutput)\n\(run.standardError)")
        return scratch.appendingPathComponent("debug")
    }

    /// The first ```swift block after README.md's "## Using it from Swift".
    static func readmeSnippet() throws -> String {
        let readme = try String(
            contentsOf: BuildProducts.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## Using it from Swift\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```swift\n").dropFirst().first)
        return try #require(block.components(separatedBy: "\n```").first) + "\n"
    }

    /// SwiftPM's mirrors file mapping every package the repository's build cloned (its
    /// dependencies and theirs) to its clone in the build folder's `repositories/`.
    static func mirrors() throws -> String {
        var folder = try BuildProducts.requiredDirectory
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("repositories").path) {
            try #require(folder.path != "/", "no repositories/ folder above the build folder")
            folder.deleteLastPathComponent()
        }
        let repositories = folder.appendingPathComponent("repositories")
        let clones = try FileManager.default.contentsOfDirectory(atPath: repositories.path).sorted()
        // Every package of the graph, under both spellings of its URL (with and without
        // `.git`, as manifests name them), so each package has one identity, the mirror's.
        var entries: [String] = []
        for clone in clones {
            let mirror = repositories.appendingPathComponent(clone).path
            let origin = String(
                decoding: try ChildProcess.output(
                    of: "/usr/bin/git", ["-C", mirror, "config", "--get", "remote.origin.url"]),
                as: UTF8.self
            ).trimmingCharacters(in: .whitespacesAndNewlines)
            let bare = origin.hasSuffix(".git") ? String(origin.dropLast(4)) : origin
            for url in [bare, bare + ".git"] {
                entries.append(#"{"mirror": "\#(mirror)", "original": "\#(url)"}"#)
            }
        }
        return #"{"object": ["# + entries.joined(separator: ", ") + #"], "version": 1}"# + "\n"
    }
}
