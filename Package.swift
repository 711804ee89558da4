// swift-tools-version: 6.0
import PackageDescription

/// A coder plugin: C shim over the native library, Swift logic target, entry target that
/// exports the C symbol, and the `.so` product.
struct CoderPlugin {
    let folder: String
    let shim: String
    let logic: String
    let entry: String
    let product: String
    let nativeLibraries: [String]
    /// What the plugin's test target needs besides WebImageCore and the logic target.
    var testDependencies: [Target.Dependency] = []

    var targets: [Target] {
        [
            .target(
                name: shim, path: "Plugins/\(folder)/Shim",
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

let png = CoderPlugin(
    folder: "PNGCoder", shim: "CPNGShim", logic: "PNGCoder", entry: "PNGCoderPlugin",
    product: "WebImagePNG", nativeLibraries: ["png16", "z", "deflate"], testDependencies: ["CReferenceDecoders"])
let jpeg = CoderPlugin(
    folder: "JPEGCoder", shim: "CJPEGShim", logic: "JPEGCoder", entry: "JPEGCoderPlugin",
    product: "WebImageJPEG", nativeLibraries: ["jpeg"], testDependencies: ["CReferenceDecoders"])
let gif = CoderPlugin(
    folder: "GIFCoder", shim: "CGIFShim", logic: "GIFCoder", entry: "GIFCoderPlugin",
    product: "WebImageGIF", nativeLibraries: ["gif"])
let webp = CoderPlugin(
    folder: "WebPCoder", shim: "CWebPShim", logic: "WebPCoder", entry: "WebPCoderPlugin",
    product: "WebImageWebP", nativeLibraries: ["webp", "webpdemux", "webpmux"],
    testDependencies: ["CReferenceDecoders"])
let heif = CoderPlugin(
    folder: "HEIFCoder", shim: "CHEIFShim", logic: "HEIFCoder", entry: "HEIFCoderPlugin",
    product: "WebImageHEIF", nativeLibraries: ["heif"])
let plugins = [png, jpeg, gif, webp, heif]

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
    .executableTarget(
        name: "WebImageCLI",
        dependencies: [
            "WebImageCore", "WebImageCoderVerifier", "CWebImagePlugin", "CReferenceDecoders",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
    .testTarget(
        name: "WebImageCoreTests",
        dependencies: [
            "WebImageCore", "WebImagePluginKit", "CWebImagePlugin", "WebImageTestSupport", "WebImageCoderVerifier",
        ]),
    .testTarget(
        name: "PluginIntegrationTests", dependencies: ["WebImageCore", "WebImageTestSupport", "WebImageCoderVerifier"],
        exclude: ["Fixtures"]),
    .testTarget(name: "CLITests", dependencies: ["WebImageCore", "WebImageTestSupport"]),
]

let package = Package(
    name: "WebImage",
    products: [
        .library(name: "WebImageCore", targets: ["WebImageCore"]),
        .library(name: "WebImagePluginKit", targets: ["WebImagePluginKit"]),
        .library(name: "WebImageCoderVerifier", targets: ["WebImageCoderVerifier"]),
        .executable(name: "webimage", targets: ["WebImageCLI"]),
    ] + plugins.map(\.library),
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: coreTargets + plugins.flatMap(\.targets) + plugins.map(\.testTarget)
)
