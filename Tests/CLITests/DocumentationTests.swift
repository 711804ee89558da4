import Foundation
import Testing
import WebImageTestSupport

/// Every `sh` and `swift` code block of README.md and docs/*.md is checked, so the docs
/// cannot go stale. A block says how with an HTML comment on the line before its fence:
///
/// - `<!-- doc-test: synopsis -->`: lines starting with `webimage` or `webimage-bench` (joined over `\`): the
///   subcommand exists and every `--flag` shown is in `webimage <subcommand> --help` (for
///   `a|b` alternatives, the first one's).
/// - `<!-- doc-test: run [setup=S1,S2...] -->` (sh): runs with `sh -e` in a new folder that
///   is also `HOME`, holding the sources of `Examples/ThirdPartyCoder` and `picture.ppm`,
///   `gray.pgm`, `ascii.pgm`, `photo.jpg`; `webimage` of this build is on `PATH`, its cache in
///   `./cache` (`WEBIMAGE_CACHE_DIR`); `pkg-config` finds a `webimage-plugin` whose header is
///   this repository's and whose `plugindir` is `./plugindir`, which `WEBIMAGE_PLUGIN_PATH`
///   lists before a folder of every bundled plugin. The block must exit with 0. Setups:
///   `transformer`: the sources of `Examples/ThirdPartyTransformer` instead; `pnm`: the PNM
///   example built, `libwebimage-pnm.so` in the folder and the plugin on `WEBIMAGE_PLUGIN_PATH`;
///   `nginx`: a local nginx serving `photo.jpg` and `anim.gif` (a GIF animation) under
///   `$SERVER` (`http://127.0.0.1:PORT/static`).
/// - `<!-- doc-test: make -->` (sh): every line is `make TARGET [VAR=value]...` of a target
///   the Makefile defines.
/// - `<!-- doc-test: typecheck [preamble=NAME] [module=NAME] -->` (swift): `swiftc -typecheck`
///   against the built modules, as a `main.swift` after the named preamble of
///   ``DocumentationTests/preambles`` (declarations the snippet uses, such as `bytes`);
///   `module=NAME` first compiles the preamble as a module of that name for the snippet to import.
/// - `<!-- doc-test: skip: REASON -->`: not checked, for what cannot run here (benchmarks,
///   package manifests); the reason is required.
///
/// Output samples are `text` blocks. A `sh` or `swift` block without a directive fails the test.
@Suite("documentation code blocks", .ownThread)
struct DocumentationTests {
    /// A fenced code block of a Markdown file.
    struct Block: CustomStringConvertible, Sendable {
        let file: String
        /// The line of the opening fence, from 1.
        let line: Int
        let language: String
        /// The words after `doc-test:` in the comment before the fence; nil without one.
        let directive: [String]?
        let text: String

        var description: String { "\(file):\(line)" }
        var kind: String? { directive?.first }

        /// The value of `key=value` in the directive.
        func option(_ key: String) -> String? {
            directive?.dropFirst().first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
    }

    /// The documents checked, relative to the repository.
    static let documents: [String] = {
        let docs = BuildProducts.repository.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    /// Every fenced block of every document, in order.
    static let blocks: [Block] = documents.flatMap { file -> [Block] in
        let url = BuildProducts.repository.appendingPathComponent(file)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        let lines = text.components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let fence = lines[index].trimmingCharacters(in: .whitespaces)
            guard fence.hasPrefix("```") else {
                index += 1
                continue
            }
            let language = String(fence.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            var end = index + 1
            while end < lines.count && !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("```") { end += 1 }
            let before = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
            var directive: [String]?
            if before.hasPrefix("<!-- doc-test:") && before.hasSuffix("-->") {
                let words = before.dropFirst("<!-- doc-test:".count).dropLast("-->".count)
                directive = words.split(separator: " ").map(String.init)
            }
            blocks.append(
                Block(
                    file: file, line: index + 1, language: language, directive: directive,
                    text: lines[(index + 1)..<min(end, lines.count)].joined(separator: "\n")))
            index = end + 1
        }
        return blocks
    }

    /// Blocks the test runs or compiles.
    static let checkedLanguages: Set<String> = ["sh", "swift"]

    static func blocks(_ kind: String) -> [Block] {
        blocks.filter { checkedLanguages.contains($0.language) && $0.kind == kind }
    }

    @Test("every sh and swift block has a directive this test knows")
    func everyBlockIsChecked() {
        let known: [String: Set<String>] = [
            "sh": ["synopsis", "run", "make", "skip:"], "swift": ["typecheck", "skip:"],
        ]
        let wrong = Self.blocks.filter { block in
            guard let kinds = known[block.language] else { return false }
            guard let kind = block.kind, kinds.contains(kind) else { return true }
            return kind == "skip:" && block.directive!.count < 2
        }
        #expect(wrong.map(\.description) == [], "add <!-- doc-test: ... --> before these blocks")
        #expect(!Self.blocks(("synopsis")).isEmpty && !Self.blocks("typecheck").isEmpty)
    }

    // MARK: synopsis

    /// The `webimage` command lines of a block, `\` continuations joined, comments removed.
    static func commandLines(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\\\n", with: " ").components(separatedBy: "\n")
            .map { line in line.range(of: "  #").map { String(line[..<$0.lowerBound]) } ?? line }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("webimage ") || $0.hasPrefix("webimage-bench ") }
    }

    /// The `--flags` of `text`.
    static func flags(in text: String) -> [String] {
        text.matches(of: /--[a-z0-9][a-z0-9-]*/).map { String($0.output) }
    }

    @Test("every flag of a synopsis is in the subcommand's --help", arguments: blocks("synopsis"))
    func synopsisFlagsExist(_ block: Block) async throws {
        for line in Self.commandLines(block.text) {
            let words = line.split(separator: " ").map(String.init)
            let tool = words[0]
            let subcommand = words.dropFirst().prefix { $0.first?.isLetter == true && !$0.contains(".") }
                .map { String($0.split(separator: "|").first ?? "") }
            let help = try await WebImageProcess.run(
                subcommand + ["--help"],
                executable: tool == "webimage-bench" ? try BuildProducts.benchExecutable : nil)
            #expect(help.status == 0, "\(block): \(tool) \(subcommand.joined(separator: " ")) --help failed")
            let known = Set(Self.flags(in: help.standardOutput))
            let missing = Self.flags(in: line).filter { !known.contains($0) }
            #expect(missing == [], "\(block): not in \(tool) \(subcommand.joined(separator: " ")) --help")
        }
    }

    // MARK: make

    @Test("every make line names a target of the Makefile", arguments: blocks("make"))
    func makeTargetsExist(_ block: Block) throws {
        let makefile = try String(
            contentsOf: BuildProducts.repository.appendingPathComponent("Makefile"), encoding: .utf8)
        let targets = Set(
            makefile.components(separatedBy: "\n").compactMap { line in
                line.firstMatch(of: /^([a-zA-Z0-9_.-]+( [a-zA-Z0-9_.-]+)*):([^=]|$)/).map { String($0.output.1) }
            }.flatMap { $0.split(separator: " ").map(String.init) })
        for line in block.text.components(separatedBy: "\n") where !line.isEmpty {
            let words = line.split(separator: "#").first?.split(separator: " ").map(String.init) ?? []
            #expect(words.first == "make", "\(block): '\(line)' is not a make line")
            let named = words.dropFirst().filter { !$0.contains("=") }
            #expect(named.allSatisfy(targets.contains), "\(block): '\(line)' names a target the Makefile lacks")
        }
    }

    // MARK: run

    /// What a `run` block runs in, as ``DocumentationTests`` describes; the folders and the
    /// server last as long as the value.
    struct RunFolder {
        let folder: TemporaryDirectory
        let plugins: [PluginsFolder]
        let server: NginxServer?
        let environment: [String: String]

        init(for block: Block) throws {
            let setups = Set((block.option("setup") ?? "").split(separator: ",").map(String.init))
            folder = try TemporaryDirectory()
            let example = setups.contains("transformer") ? "ThirdPartyTransformer" : "ThirdPartyCoder"
            let source = BuildProducts.repository.appendingPathComponent("Examples/\(example)")
            for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
                try FileManager.default.copyItem(
                    at: source.appendingPathComponent(name), to: folder.url.appendingPathComponent(name))
            }
            try folder.write("picture.ppm", [UInt8]("P6 2 1 255\n".utf8) + [255, 0, 0, 0, 0, 255])
            try folder.write("gray.pgm", [UInt8]("P5 2 2 255\n".utf8) + [0, 85, 170, 255])
            try folder.write("ascii.pgm", "P2\n# two by one\n2 1\n15\n0 15\n")
            try folder.write("photo.jpg", try Fixture.bytes("jpeg/baseline.jpg"))
            let plugindir = try folder.folder("plugindir")
            try folder.write(
                "pkgconfig/webimage-plugin.pc",
                """
                plugindir=\(plugindir)
                Name: webimage-plugin
                Description: this repository's plugin header, for the documentation tests
                Version: 1.0.0
                Cflags: -I\(BuildProducts.pluginHeaderDirectory.path)

                """)
            var plugins = [try PluginsFolder.make()]
            if setups.contains("pnm") {
                let pnm = try PluginsFolder()
                try pnm.addThirdPartyExample()
                try FileManager.default.copyItem(
                    at: pnm.url.appendingPathComponent("libwebimage-pnm.so"),
                    to: folder.url.appendingPathComponent("libwebimage-pnm.so"))
                plugins.insert(pnm, at: 0)
            }
            self.plugins = plugins
            server =
                setups.contains("nginx")
                ? try NginxServer(files: [
                    "photo.jpg": try Fixture.bytes("jpeg/baseline.jpg"), "anim.gif": try Fixture.bytes("gif/anim.gif"),
                ]) : nil
            var environment = [
                "HOME": folder.path, "PKG_CONFIG_PATH": folder.file("pkgconfig"),
                "PATH": try BuildProducts.requiredDirectory.path + ":"
                    + (ProcessInfo.processInfo.environment["PATH"] ?? ""),
                "WEBIMAGE_PLUGIN_PATH": ([plugindir] + plugins.map(\.path)).joined(separator: ":"),
                "WEBIMAGE_CACHE_DIR": folder.file("cache"),
            ]
            if let server { environment["SERVER"] = server.http + "/static" }
            self.environment = environment
        }
    }

    @Test("every run block exits with 0", arguments: blocks("run"))
    func runBlocksSucceed(_ block: Block) async throws {
        let run = try RunFolder(for: block)
        let result = try await WebImageProcess.run(
            ["-e", "-c", "cd '\(run.folder.path)'\n" + block.text], environment: run.environment,
            executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(result.status == 0, "\(block): \(result.standardError)")
        run.server?.stop()
    }

    // MARK: typecheck

    /// Declarations a snippet uses without declaring them, by the name its directive gives.
    static let preambles: [String: String] = [
        "bytes": """
        import WebImageCore
        let bytes: [UInt8] = []
        """,
        "manager": """
        import Foundation
        import WebImageCore
        let host = PluginHost(searchPath: .standard(hostDirectories: []))
        let url = URL(string: "http://127.0.0.1/a.png")!
        let urls = [url]
        """,
        "my-coder": """
        import WebImageCore
        public struct MyCoder: ImageCoder {
            public init() {}
            public var formats: [ImageFormat] { [] }
            public func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool { false }
            public func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo { fatalError() }
            public func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage {
                fatalError()
            }
            public func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData {
                fatalError()
            }
        }
        public func sampleBytes() throws -> [UInt8] { [] }
        """,
    ]

    /// `swiftc` arguments that find the built Swift modules and the C modules they import,
    /// the dependencies' too (a module loads the C modules of what it imports): each C
    /// target's module map, the one SwiftPM generated in the build folder or, for a target
    /// that brings its own, the one in its package's checkout.
    static func moduleArguments() throws -> [String] {
        let build = try BuildProducts.requiredDirectory
        let modules = build.appendingPathComponent("Modules")
        let files = FileManager.default
        var maps: [String: String] = [:]
        for entry in try files.contentsOfDirectory(atPath: build.path) where entry.hasSuffix(".build") {
            let map = build.appendingPathComponent(entry).appendingPathComponent("module.modulemap").path
            if files.fileExists(atPath: map) { maps[String(entry.dropLast(".build".count))] = map }
        }
        var root = build
        while !files.fileExists(atPath: root.appendingPathComponent("checkouts").path) && root.path != "/" {
            root.deleteLastPathComponent()
        }
        let checkouts = root.appendingPathComponent("checkouts")
        for package in (try? files.contentsOfDirectory(atPath: checkouts.path)) ?? [] {
            let sources = checkouts.appendingPathComponent(package).appendingPathComponent("Sources")
            for target in (try? files.contentsOfDirectory(atPath: sources.path)) ?? [] where maps[target] == nil {
                let map = sources.appendingPathComponent(target).appendingPathComponent("include/module.modulemap").path
                if files.fileExists(atPath: map) { maps[target] = map }
            }
        }
        return ["-I", modules.path] + maps.keys.sorted().flatMap { ["-Xcc", "-fmodule-map-file=\(maps[$0]!)"] }
    }

    static func swiftc(_ arguments: [String]) async throws -> CommandResult {
        let toolchain = ProcessInfo.processInfo.environment["SWIFTC"] ?? "/usr/bin/swiftc"
        let swiftc = FileManager.default.isExecutableFile(atPath: toolchain) ? toolchain : try which("swiftc")
        return try await WebImageProcess.run(arguments, executable: URL(fileURLWithPath: swiftc))
    }

    /// The first `name` on `PATH`.
    static func which(_ name: String) throws -> String {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        guard let found = folders.map({ "\($0)/\(name)" }).first(where: FileManager.default.isExecutableFile)
        else { throw HarnessError("no \(name) on PATH") }
        return found
    }

    @Test("every swift snippet typechecks against the built modules", arguments: blocks("typecheck"))
    func swiftSnippetsTypecheck(_ block: Block) async throws {
        let folder = try TemporaryDirectory()
        var arguments = try Self.moduleArguments()
        var preamble = ""
        if let name = block.option("preamble") {
            preamble = try #require(Self.preambles[name], "\(block): no preamble '\(name)'")
        }
        if let module = block.option("module") {
            let source = try folder.write("\(module).swift", preamble)
            let emitted = try await Self.swiftc(
                arguments + [
                    "-parse-as-library", "-emit-module", "-module-name", module, "-o",
                    folder.file("\(module).swiftmodule"), source,
                ])
            try #require(emitted.status == 0, "\(block): \(emitted.standardError)")
            arguments += ["-I", folder.path]
            preamble = ""
        }
        let main = try folder.write("main.swift", preamble + "\n" + block.text + "\n")
        let result = try await Self.swiftc(arguments + ["-typecheck", main])
        #expect(result.status == 0, "\(block): \(result.standardError)")
    }
}
