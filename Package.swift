// swift-tools-version: 6.0
import PackageDescription

/// A coder plugin. Its five names follow one rule (docs/architecture.md, "Plugin names"), derived
/// here from `name` so they cannot drift: folder and logic target `<name>Coder`, C shim
/// `C<name>Shim`, entry target `<name>CoderEntry`, product `WebImage<name>` (the file
/// `libWebImage<name>.so`), manifest name `<name>` in lowercase.
struct CoderPlugin {
    let name: String
    let nativeLibraries: [String]
    /// What the plugin's test target needs besides WebImageCore and the logic target.
    var testDependencies: [Target.Dependency] = []

    var folder: String { "\(name)Coder" }
    var shim: String { "C\(name)Shim" }
    var logic: String { "\(name)Coder" }
    var entry: String { "\(name)CoderEntry" }
    var product: String { "WebImage\(name)" }

    var targets: [Target] {
        [
            .target(
                name: shim, dependencies: ["CWebImagePlugin"], path: "Plugins/\(folder)/Shim",
                linkerSettings: nativeLibraries.map { .linkedLibrary($0) }),
            .target(
                name: logic, dependencies: ["WebImageCore", .target(name: shim)],
                path: "Plugins/\(folder)/Coder"),
            .target(
                name: entry, dependencies: ["WebImagePluginKit", .target(name: logic)],
                path: "Plugins/\(folder)/Entry"),
        ]
    }

    /// The `.so` that the plugins folder holds.
    var library: Product { .library(name: product, type: .dynamic, targets: [entry]) }

    /// Unit tests of the logic target (they never link the entry target: its C symbol
    /// would clash with the other plugins' entry symbols).
    var testTarget: Target {
        .testTarget(
            name: "\(logic)Tests",
            dependencies: ["WebImageCore", .target(name: logic), "WebImageTestSupport", "WebImageCoderVerifier"]
                + testDependencies)
    }
}

/// A cache plugin (memory or disk cache kind), named by the same rule as coders with the kind
/// `Cache`: folder and logic target `<name>Cache`, C shim `C<name>Shim`, entry target
/// `<name>CacheEntry`, product `WebImage<name>`, manifest name `<name>` in lowercase.
struct CachePlugin {
    let name: String
    let nativeLibraries: [String]

    var folder: String { "\(name)Cache" }
    var shim: String { "C\(name)Shim" }
    var logic: String { "\(name)Cache" }
    var entry: String { "\(name)CacheEntry" }
    var product: String { "WebImage\(name)" }

    var targets: [Target] {
        [
            .target(
                name: shim, dependencies: ["CWebImagePlugin"], path: "Plugins/\(folder)/Shim",
                linkerSettings: nativeLibraries.map { .linkedLibrary($0) }),
            .target(
                name: logic, dependencies: ["WebImageCore", .target(name: shim)], path: "Plugins/\(folder)/Cache"),
            .target(
                name: entry, dependencies: ["WebImagePluginKit", .target(name: logic)],
                path: "Plugins/\(folder)/Entry"),
        ]
    }

    var library: Product { .library(name: product, type: .dynamic, targets: [entry]) }
}

let diskCache = CachePlugin(name: "Disk", nativeLibraries: ["crypto", "xxhash"])
let memoryCache = CachePlugin(name: "Memory", nativeLibraries: ["xxhash"])
let redisCache = CachePlugin(name: "Redis", nativeLibraries: ["hiredis"])
let cachePlugins = [diskCache, memoryCache, redisCache]

let png = CoderPlugin(
    name: "PNG", nativeLibraries: ["png16", "z", "deflate"], testDependencies: ["CReferenceDecoders"])
let jpeg = CoderPlugin(name: "JPEG", nativeLibraries: ["jpeg"], testDependencies: ["CReferenceDecoders"])
let gif = CoderPlugin(name: "GIF", nativeLibraries: ["gif"])
let webp = CoderPlugin(
    name: "WebP", nativeLibraries: ["webp", "webpdemux", "webpmux"], testDependencies: ["CReferenceDecoders"])
let heif = CoderPlugin(name: "HEIF", nativeLibraries: ["heif"])
let plugins = [png, jpeg, gif, webp, heif]

/// A loader plugin, named by the same rule as ``CoderPlugin`` with the kind `Loader`: folder
/// and logic target `<name>Loader`, C shim `C<name>Shim`, entry target `<name>LoaderEntry`,
/// product `WebImage<name>`, manifest name `<name>` in lowercase.
struct LoaderPlugin {
    let name: String
    let nativeLibraries: [String]

    var folder: String { "\(name)Loader" }
    var shim: String { "C\(name)Shim" }
    var logic: String { "\(name)Loader" }
    var entry: String { "\(name)LoaderEntry" }
    var product: String { "WebImage\(name)" }

    var targets: [Target] {
        [
            .target(
                name: shim, dependencies: ["CWebImagePlugin"], path: "Plugins/\(folder)/Shim",
                linkerSettings: nativeLibraries.map { .linkedLibrary($0) }),
            .target(
                name: logic, dependencies: ["WebImageCore", .target(name: shim)], path: "Plugins/\(folder)/Loader"),
            .target(
                name: entry, dependencies: ["WebImagePluginKit", .target(name: logic)],
                path: "Plugins/\(folder)/Entry"),
        ]
    }

    var library: Product { .library(name: product, type: .dynamic, targets: [entry]) }

    /// Tests of the logic target against real servers (the entry target is never linked).
    var testTarget: Target {
        .testTarget(name: "\(logic)Tests", dependencies: ["WebImageCore", .target(name: logic)])
    }
}

let curl = LoaderPlugin(name: "Curl", nativeLibraries: ["curl"])
let loaderPlugins = [curl]

let coreTargets: [Target] = [
    .target(name: "CWebImagePlugin", exclude: ["webimage-plugin.pc.in"]),
    .target(
        name: "WebImageCore",
        dependencies: ["CWebImagePlugin", .product(name: "Logging", package: "swift-log")]),
    .target(name: "WebImagePluginKit", dependencies: ["WebImageCore", "CWebImagePlugin"]),
    .target(name: "WebImageCoderVerifier", dependencies: ["WebImageCore"]),
    .target(name: "WebImageTestSupport", path: "Tests/WebImageTestSupport"),
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
    .executableTarget(
        name: "WebImageBench",
        dependencies: [
            "WebImageCore", "CReferenceDecoders", "WebImageCLISupport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
    .testTarget(
        name: "WebImageCoreTests",
        dependencies: [
            "WebImageCore", "WebImagePluginKit", "CWebImagePlugin", "WebImageTestSupport", "WebImageCoderVerifier",
        ]),
    .testTarget(
        name: "PluginIntegrationTests", dependencies: ["WebImageCore", "WebImageTestSupport", "WebImageCoderVerifier"],
        exclude: ["Fixtures"]),
    .testTarget(name: "CLITests", dependencies: ["WebImageCore", "WebImageCLISupport", "WebImageTestSupport"]),
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
    .testTarget(
        name: "ImageCacheTests",
        dependencies: ["WebImageCore", "MemoryCache", "DiskCache", "PNGCoder", "JPEGCoder", "GIFCoder"]),
]

let package = Package(
    name: "WebImage",
    products: [
        .library(name: "WebImageCore", targets: ["WebImageCore"]),
        .library(name: "WebImagePluginKit", targets: ["WebImagePluginKit"]),
        .library(name: "WebImageCoderVerifier", targets: ["WebImageCoderVerifier"]),
        .executable(name: "webimage", targets: ["WebImageCLI"]),
        .executable(name: "webimage-bench", targets: ["WebImageBench"]),
        .executable(name: "webimage-cache-bench", targets: ["WebImageCacheBench"]),
    ] + plugins.map(\.library) + cachePlugins.map(\.library) + loaderPlugins.map(\.library),
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: coreTargets + plugins.flatMap(\.targets) + plugins.map(\.testTarget) + cachePlugins.flatMap(\.targets)
        + loaderPlugins.flatMap(\.targets) + loaderPlugins.map(\.testTarget)
)
