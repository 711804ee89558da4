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
}

let png = CoderPlugin(
    folder: "PNGCoder", shim: "CPNGShim", logic: "PNGCoder", entry: "PNGCoderPlugin",
    product: "WebImagePNG", nativeLibraries: ["png16", "z"])
let jpeg = CoderPlugin(
    folder: "JPEGCoder", shim: "CJPEGShim", logic: "JPEGCoder", entry: "JPEGCoderPlugin",
    product: "WebImageJPEG", nativeLibraries: ["jpeg"])

let coreTargets: [Target] = [
    .target(name: "CWebImagePlugin", exclude: ["webimage-plugin.pc.in"]),
    .target(
        name: "WebImageCore",
        dependencies: ["CWebImagePlugin", .product(name: "Logging", package: "swift-log")]),
    .target(name: "WebImagePluginKit", dependencies: ["WebImageCore", "CWebImagePlugin"]),
    .target(name: "CReferenceDecoders", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]),
    .executableTarget(
        name: "WebImageCLI",
        dependencies: [
            "WebImageCore", "CWebImagePlugin", "CReferenceDecoders",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
    .testTarget(name: "WebImageCoreTests", dependencies: ["WebImageCore", "WebImagePluginKit"]),
    .testTarget(name: "PNGCoderTests", dependencies: ["WebImageCore", .target(name: png.logic), "CReferenceDecoders"]),
    .testTarget(
        name: "JPEGCoderTests", dependencies: ["WebImageCore", .target(name: jpeg.logic), "CReferenceDecoders"]),
    .testTarget(name: "PluginIntegrationTests", dependencies: ["WebImageCore"], exclude: ["Fixtures"]),
    .testTarget(name: "CLITests", dependencies: ["WebImageCore"]),
]

let package = Package(
    name: "WebImage",
    products: [
        .library(name: "WebImageCore", targets: ["WebImageCore"]),
        .library(name: "WebImagePluginKit", targets: ["WebImagePluginKit"]),
        .library(name: png.product, type: .dynamic, targets: [png.entry]),
        .library(name: jpeg.product, type: .dynamic, targets: [jpeg.entry]),
        .executable(name: "webimage", targets: ["WebImageCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: coreTargets + png.targets + jpeg.targets
)
