import Foundation

/// The built `webimage` tool with a plugins folder holding the bundled `redis` plugin.
struct WebImageTool {
    /// The build folder: where this test binary, `webimage` and the plugin libraries are.
    static let buildFolder: URL = {
        let testBinary =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: testBinary).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("webimage").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: testBinary).deletingLastPathComponent()
    }()

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    let plugins: String

    /// Makes the plugins folder (the manifest copied, the library linked).
    init() throws {
        plugins = NSTemporaryDirectory() + "webimage-redis-plugins-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Self.repository.appendingPathComponent("plugin-manifests/redis.json").path,
            toPath: plugins + "/redis.json")
        try FileManager.default.createSymbolicLink(
            atPath: plugins + "/libWebImageRedis.so",
            withDestinationPath: Self.buildFolder.appendingPathComponent("libWebImageRedis.so").path)
    }

    func remove() { try? FileManager.default.removeItem(atPath: plugins) }

    /// Runs `webimage arguments... --plugin-path <plugins>`; returns the exit status, standard output and error.
    func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = Self.buildFolder.appendingPathComponent("webimage")
        process.arguments = arguments + ["--plugin-path", plugins]
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outputData, as: UTF8.self),
            String(decoding: errorData, as: UTF8.self)
        )
    }
}
