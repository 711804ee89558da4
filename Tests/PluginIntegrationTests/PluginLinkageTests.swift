import Foundation
import Testing
import WebImageTestSupport

/// What the bundled plugin libraries link (issue #24): a cache or loader library links the C
/// ABI and `WebImagePluginDescriptor`, a coder library `WebImageCoding` and
/// `WebImagePluginKit` besides; none links the core, so the core's symbols are not in it.
/// And what the executables link: no full Foundation, and the server's modules in
/// `webimage-serve` only.
@Suite struct PluginLinkageTests {
    /// The libraries whose tables are written in C.
    static let cTableLibraries = [
        "libWebImageMemory.so", "libWebImageDisk.so", "libWebImageRedis.so", "libWebImageCurl.so",
    ]

    /// The coder libraries, with the plugin name their logic and entry modules start with.
    static let coderLibraries = ["PNG", "JPEG", "GIF", "WebP", "HEIF"]

    /// The type descriptor of the core's `PluginHost`, present in every library that links the core.
    static let coreSymbol = "$s12WebImageCore10PluginHostCMn"

    @Test(arguments: cTableLibraries) func cTableLibraryDoesNotLinkTheCore(library: String) throws {
        let path = try BuildProducts.library(library).path
        // Never closed: the Swift runtime keeps the library's type records, as the host does.
        let handle = try #require(dlopen(path, RTLD_NOW | RTLD_LOCAL))
        #expect(dlsym(handle, "webimage_plugin_entry") != nil)
        #expect(dlsym(handle, Self.coreSymbol) == nil)
    }

    /// A coder library defines Swift symbols of exactly its own logic and entry modules,
    /// `WebImageCoding`, `WebImagePluginKit` and `WebImagePluginDescriptor` (no pipeline, plugin
    /// host, supervisor or worker: those are the core's), and needs none of the core's.
    @Test(arguments: coderLibraries) func coderLibraryLinksOnlyTheCodingModules(name: String) async throws {
        let path = try BuildProducts.library("libWebImage\(name).so").path
        let defined = try await onOwnThread { try Self.swiftModules(in: path, ["--defined-only"]) }
        let needed = try await onOwnThread { try Self.swiftModules(in: path, ["--undefined-only"]) }
        #expect(
            defined == [
                "\(name)Coder", "\(name)CoderEntry", "WebImageCoding", "WebImagePluginKit", "WebImagePluginDescriptor",
            ])
        #expect(!needed.contains("WebImageCore"))
        let handle = try #require(dlopen(path, RTLD_NOW | RTLD_LOCAL))
        #expect(dlsym(handle, "webimage_plugin_entry") != nil)
    }

    /// Every bundled library exports one C symbol, its entry: the shims' functions are hidden
    /// (their headers' `#pragma GCC visibility`), so nothing outside the library binds to them
    /// (a test executable that links the same shim, another plugin with a like-named function).
    @Test(arguments: cTableLibraries + coderLibraries.map { "libWebImage\($0).so" })
    func onlyTheEntryIsExportedFromC(library: String) async throws {
        let path = try BuildProducts.library(library).path
        let listing = try await onOwnThread {
            try ChildProcess.output(of: "/usr/bin/nm", ["-D", "-j", "--defined-only", path])
        }
        // Swift symbols start with `$s`; the toolchain's own (`_init`, `__bss_start`...) with `_`.
        let cSymbols = String(decoding: listing, as: UTF8.self).split(separator: "\n")
            .filter { !$0.hasPrefix("$s") && !$0.hasPrefix("_") }
        #expect(cSymbols == ["webimage_plugin_entry"])
    }

    /// The tool, its plugin worker and every bundled library need no Foundation beyond
    /// `FoundationEssentials`: loading `libFoundation.so` and `libFoundationInternationalization.so`
    /// (with ICU) cost every process about 6 MiB of its peak memory and 10 M instructions at
    /// start (docs/performance.md, "The process floor").
    @Test(
        arguments: ["webimage", "webimage-serve", "webimage-plugin-worker"] + cTableLibraries
            + coderLibraries.map { "libWebImage\($0).so" }
    )
    func needsNoFullFoundation(product: String) async throws {
        let path =
            product.hasSuffix(".so")
            ? try BuildProducts.library(product).path
            : try BuildProducts.requiredDirectory.appendingPathComponent(product).path
        let dynamicSection = try await onOwnThread { try ChildProcess.output(of: "/usr/bin/readelf", ["-d", path]) }
        let needed = String(decoding: dynamicSection, as: UTF8.self).split(separator: "\n")
            .filter { $0.contains("(NEEDED)") }
            .compactMap { line in line.split(separator: "[").last?.split(separator: "]").first.map(String.init) }
        #expect(!needed.isEmpty)
        #expect(!needed.contains("libFoundation.so"))
        #expect(!needed.contains("libFoundationInternationalization.so"))
    }

    /// The image server's modules, which only `webimage-serve` links: `webimage` hands `serve`
    /// and `sign` over to it, so every other command starts without them (docs/performance.md,
    /// "The process floor").
    static let serverModules: Set<String> = [
        "WebImageServer", "Hummingbird", "HummingbirdCore", "NIOCore", "NIOPosix", "NIOHTTP1", "Crypto",
        "ServiceLifecycle", "Prometheus",
    ]

    @Test func toolLinksNoServerModule() async throws {
        let tool = try BuildProducts.executable.path
        let server = try BuildProducts.serveExecutable.path
        let toolModules = try await onOwnThread { try Self.swiftModules(in: tool, ["--defined-only"], dynamic: false) }
        let serverModules = try await onOwnThread {
            try Self.swiftModules(in: server, ["--defined-only"], dynamic: false)
        }
        #expect(toolModules.isSuperset(of: ["WebImageCLI", "WebImageCore", "ArgumentParser"]))
        #expect(toolModules.isDisjoint(with: Self.serverModules))
        #expect(serverModules.isSuperset(of: Self.serverModules))
        // BoringSSL's C functions, which swift-crypto links, carry its prefix.
        let toolSymbols = try await onOwnThread { try ChildProcess.output(of: "/usr/bin/nm", ["-j", tool]) }
        #expect(!String(decoding: toolSymbols, as: UTF8.self).contains("CCryptoBoringSSL_"))
    }

    /// The modules of the Swift symbols (`$s<length><module>...`) in the dynamic symbol table
    /// of the library at `path` (the whole symbol table when not `dynamic`), as `nm` lists them
    /// with `options`.
    static func swiftModules(in path: String, _ options: [String], dynamic: Bool = true) throws -> Set<String> {
        let listing = try ChildProcess.output(of: "/usr/bin/nm", (dynamic ? ["-D"] : []) + ["-j"] + options + [path])
        var modules: Set<String> = []
        for line in String(decoding: listing, as: UTF8.self).split(separator: "\n") where line.hasPrefix("$s") {
            let mangled = line.dropFirst(2)
            let digits = mangled.prefix { $0.isASCII && $0.isNumber }
            guard let length = Int(digits), length > 0 else { continue }
            modules.insert(String(mangled.dropFirst(digits.count).prefix(length)))
        }
        return modules
    }
}
