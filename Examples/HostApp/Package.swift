// swift-tools-version: 6.0
import Foundation
import PackageDescription

// A host app: depends on WebImage by path, and on the bundled plugins it uses, which SwiftPM
// builds into this package's .build/<config>/ beside the executable; WebImageCore finds them
// there with their manifests (the WebImagePluginManifests resources), trusted, in-process.
let webImage = "WebImage"
let plugins = [
    "WebImagePNG", "WebImageJPEG", "WebImageGIF", "WebImageWebP", "WebImageHEIF", "WebImageMemory", "WebImageDisk",
    "WebImageCurl",
]
let package = Package(
    name: "HostApp",
    dependencies: [.package(name: webImage, path: "../..")],
    targets: [
        .executableTarget(
            name: "HostApp",
            dependencies: (["WebImageCore"] + plugins).map { .product(name: $0, package: webImage) })
    ]
)

// The README's "Using it from Swift" snippet, as a second executable, when a test has put it in
// Sources/ReadmeSnippet/main.swift (Tests/HostAppTests, which builds and runs both).
if FileManager.default.fileExists(atPath: Context.packageDirectory + "/Sources/ReadmeSnippet/main.swift") {
    package.targets.append(
        .executableTarget(
            name: "ReadmeSnippet",
            dependencies: (["WebImageCore"] + plugins).map { .product(name: $0, package: webImage) }))
}
