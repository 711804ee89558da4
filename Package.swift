// swift-tools-version: 6.1
import PackageDescription

/// A bundled plugin of one kind (`Coder`, `Cache`, `Loader`). Its five names follow one rule
/// (docs/architecture.md, "Plugin names"), derived here from `name` and `kind` so they cannot
/// drift: folder and logic target `<name><kind>` (the logic in the folder's `<kind>/`), C shim
/// `C<name>Shim`, entry target `<name><kind>Entry`, product `WebImage<name>` (the file
/// `libWebImage<name>.so`), manifest name `<name>` in lowercase.
struct BundledPlugin {
    let name: String
    let kind: String
    let nativeLibraries: [String]
    /// What the plugin's test target needs besides WebImageCore, the test support and the logic target.
    var testDependencies: [Target.Dependency] = []

    var folder: String { name + kind }
    var shim: String { "C\(name)Shim" }
    var logic: String { name + kind }
    var entry: String { "\(name)\(kind)Entry" }
    var product: String { "WebImage\(name)" }

    /// What the logic and entry targets export the plugin with, so that the `.so` links only
    /// that (issue #24): caches and loaders are C tables, which `WebImagePluginDescriptor`
    /// publishes over the C ABI alone; coders are written in Swift against the coder protocol
    /// and image types of `WebImageCoding`, which `WebImagePluginKit` exports over the C ABI.
    var kit: Target.Dependency { kind == "Coder" ? "WebImagePluginKit" : "WebImagePluginDescriptor" }
    /// The logic's Swift dependency: `WebImageCoding` for coders, the descriptor module otherwise.
    var logicKit: Target.Dependency { kind == "Coder" ? "WebImageCoding" : "WebImagePluginDescriptor" }

    var targets: [Target] {
        [
            .target(
                name: shim, dependencies: ["CWebImagePlugin"], path: "Plugins/\(folder)/Shim",
                linkerSettings: nativeLibraries.map { .linkedLibrary($0) }),
            .target(
                name: logic, dependencies: [logicKit, "CWebImagePlugin", .target(name: shim)],
                path: "Plugins/\(folder)/\(kind)"),
            .target(
                name: entry, dependencies: [kit, .target(name: logic)],
                path: "Plugins/\(folder)/Entry"),
        ]
    }

    /// The `.so` that the plugins folder holds.
    var library: Product { .library(name: product, type: .dynamic, targets: [entry]) }

    /// Tests of the logic target, `<name><kind>Tests` (they never link the entry target: its
    /// C symbol would clash with the other plugins' entry symbols).
    var testTarget: Target {
        .testTarget(
            name: "\(logic)Tests",
            dependencies: ["WebImageCore", .target(name: logic), "WebImageTestSupport"] + testDependencies)
    }
}

let diskCache = BundledPlugin(name: "Disk", kind: "Cache", nativeLibraries: ["crypto", "xxhash"])
let memoryCache = BundledPlugin(name: "Memory", kind: "Cache", nativeLibraries: ["xxhash"])
let redisCache = BundledPlugin(name: "Redis", kind: "Cache", nativeLibraries: ["hiredis", "xxhash"])
let cachePlugins = [diskCache, memoryCache, redisCache]

let png = BundledPlugin(
    name: "PNG", kind: "Coder", nativeLibraries: ["png16", "z", "deflate"],
    testDependencies: ["CReferenceDecoders", "WebImageCoderVerifier"])
let jpeg = BundledPlugin(
    name: "JPEG", kind: "Coder", nativeLibraries: ["jpeg"],
    testDependencies: ["CReferenceDecoders", "WebImageCoderVerifier"])
let gif = BundledPlugin(
    name: "GIF", kind: "Coder", nativeLibraries: ["gif"],
    testDependencies: ["CReferenceDecoders", "WebImageCoderVerifier"])
let webp = BundledPlugin(
    name: "WebP", kind: "Coder", nativeLibraries: ["webp", "webpdemux", "webpmux"],
    testDependencies: ["CReferenceDecoders", "WebImageCoderVerifier"])
let heif = BundledPlugin(
    name: "HEIF", kind: "Coder", nativeLibraries: ["heif"], testDependencies: ["WebImageCoderVerifier"])
let plugins = [png, jpeg, gif, webp, heif]

let curl = BundledPlugin(name: "Curl", kind: "Loader", nativeLibraries: ["curl"])
let loaderPlugins = [curl]

let coreTargets: [Target] = [
    .target(name: "CWebImagePlugin", exclude: ["webimage-plugin.pc.in"]),
    // The bundled plugins' manifests as resources, so that an app built with SwiftPM finds them
    // beside the plugin products of its own build (PluginSearchPath.application).
    .target(
        name: "WebImagePluginManifests", path: "plugin-manifests",
        resources: (plugins + cachePlugins + loaderPlugins).map { .copy("\($0.name.lowercased()).json") }),
    .target(name: "CWebImageIsolation"),
    .target(name: "CWebImageImaging"),
    // The plugin descriptor's builder over the C ABI alone: what a cache or loader plugin links.
    .target(name: "WebImagePluginDescriptor", dependencies: ["CWebImagePlugin"]),
    // The coder protocol, image and pixel types, and the C-ABI helpers that coders use: what a
    // coder plugin links instead of the core, which re-exports it.
    .target(name: "WebImageCoding", dependencies: ["CWebImagePlugin"]),
    .target(
        name: "WebImageCore",
        dependencies: [
            "CWebImagePlugin", "WebImagePluginDescriptor", "WebImageCoding", "CWebImageIsolation", "CWebImageImaging",
            "WebImagePluginManifests",
            .product(name: "Logging", package: "swift-log"),
        ]),
    .executableTarget(name: "WebImagePluginWorker", dependencies: ["WebImageCore"]),
    .target(
        name: "WebImagePluginKit", dependencies: ["WebImageCoding", "CWebImagePlugin", "WebImagePluginDescriptor"]),
    .target(name: "WebImageCoderVerifier", dependencies: ["WebImageCore"]),
    .target(name: "WebImageTestSupport", dependencies: ["WebImageCore"], path: "Tests/WebImageTestSupport"),
    .target(
        name: "CReferenceDecoders",
        linkerSettings: ["png16", "jpeg", "gif", "webp", "webpdemux", "heif"].map { .linkedLibrary($0) }),
    .target(
        name: "WebImageCLISupport",
        dependencies: [
            "WebImageCore", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
    .executableTarget(
        name: "WebImageCLI",
        dependencies: [
            "WebImageCore", "WebImageCoderVerifier", "CWebImagePlugin", "WebImageCLISupport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
    // `webimage serve` and `webimage sign`, which `webimage` execs: the server's libraries stay
    // out of the tool that every other command starts.
    .executableTarget(
        name: "WebImageServe",
        dependencies: [
            "WebImageCore", "WebImageCLISupport", "WebImageServer",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
    .executableTarget(
        name: "WebImageBench",
        dependencies: [
            "WebImageCore", "CReferenceDecoders", "WebImageCLISupport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
    .testTarget(
        name: "WebImageCoreTests",
        dependencies: [
            "WebImageCore", "WebImagePluginKit", "CWebImagePlugin", "CWebImageImaging", "WebImageTestSupport",
            "WebImageCoderVerifier",
        ]),
    .testTarget(
        name: "PluginIntegrationTests",
        dependencies: [
            "WebImageCore", "WebImageTestSupport", "WebImageCoderVerifier",
            .product(name: "Logging", package: "swift-log"),
        ],
        exclude: ["Fixtures"]),
    .testTarget(
        name: "CLITests",
        dependencies: ["WebImageCore", "WebImageCLISupport", "WebImageTestSupport", "WebImageCoderVerifier"]),
    .testTarget(name: "ImageManagerTests", dependencies: ["WebImageCore", "WebImageTestSupport"]),
    .executableTarget(
        name: "DiskCacheWriter", dependencies: ["WebImageCore", "DiskCache"], path: "Tests/DiskCacheWriter"),
    .testTarget(
        name: "DiskCacheTests", dependencies: ["WebImageCore", "DiskCache", "CDiskShim", "WebImageTestSupport"]),
    .testTarget(name: "MemoryCacheTests", dependencies: ["WebImageCore", "MemoryCache", "CMemoryShim"]),
    .target(name: "CCacheReferences", linkerSettings: [.linkedLibrary("hiredis")]),
    .executableTarget(
        name: "WebImageCacheBench",
        dependencies: [
            "WebImageCore", "CCacheReferences", "MemoryCache", "DiskCache", "RedisCache",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
    .testTarget(
        name: "RedisCacheTests", dependencies: ["WebImageCore", "RedisCache", "CWebImagePlugin", "WebImageTestSupport"]),
    // The image server's library: imgproxy-style signed URLs parsed into processing requests,
    // answered over HTTP (Hummingbird 2) with metrics (Prometheus) and graceful shutdown.
    .target(
        name: "WebImageServer",
        dependencies: [
            "WebImageCore", .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "Logging", package: "swift-log"),
        ]),
    .testTarget(
        name: "WebImageServerTests",
        dependencies: [
            "WebImageServer", "WebImageCore", "WebImageTestSupport", .product(name: "Logging", package: "swift-log"),
        ]),
    .testTarget(
        name: "ImageCacheTests",
        dependencies: ["WebImageCore", "MemoryCache", "DiskCache", "PNGCoder", "JPEGCoder", "GIFCoder"]),
]

let package = Package(
    name: "WebImage",
    products: [
        .library(name: "WebImageCore", targets: ["WebImageCore"]),
        .library(name: "WebImagePluginKit", targets: ["WebImagePluginKit"]),
        .library(name: "WebImagePluginDescriptor", targets: ["WebImagePluginDescriptor"]),
        .library(name: "WebImageCoding", targets: ["WebImageCoding"]),
        .library(name: "WebImageCoderVerifier", targets: ["WebImageCoderVerifier"]),
        .library(name: "WebImageServer", targets: ["WebImageServer"]),
        .executable(name: "webimage", targets: ["WebImageCLI"]),
        .executable(name: "webimage-serve", targets: ["WebImageServe"]),
        .executable(name: "webimage-bench", targets: ["WebImageBench"]),
        .executable(name: "webimage-plugin-worker", targets: ["WebImagePluginWorker"]),
        .executable(name: "webimage-cache-bench", targets: ["WebImageCacheBench"]),
    ] + plugins.map(\.library) + cachePlugins.map(\.library) + loaderPlugins.map(\.library),
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", "4.5.2"..<"5.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: coreTargets + plugins.flatMap(\.targets) + plugins.map(\.testTarget) + cachePlugins.flatMap(\.targets)
        + loaderPlugins.flatMap(\.targets) + loaderPlugins.map(\.testTarget)
)
