import DiskCache
import Foundation
import WebImageCore
import WebImageTestSupport

/// A disk cache in a temporary directory, opened through the plugin's C table and the host's adapter.
struct DiskCacheFixture {
    let directory: TemporaryDirectory
    let cache: PluginDiskCache

    /// Bytes each entry file adds to its data: the footer.
    static let footer: UInt64 = 32

    init(_ options: [String: String] = [:], namespace: String = "default") throws {
        directory = try TemporaryDirectory()
        cache = try Self.open(directory.path, namespace: namespace, options)
    }

    /// Another cache on `directory` (a second instance, as another process would open it).
    static func open(_ directory: String, namespace: String = "default", _ options: [String: String] = [:]) throws
        -> PluginDiskCache
    {
        var configuration: CacheConfiguration = ["directory": directory, "namespace": namespace]
        for (key, value) in options.sorted(by: { $0.key < $1.key }) { configuration[key] = value }
        return try DiskCachePlugin.backend().open(configuration)
    }

    /// The folder of the namespace.
    var folder: String { directory.path + "/default" }

    /// The entry file of `key`.
    func file(_ key: String) -> String { folder + "/" + DiskCachePlugin.fileName(forKey: key) }

    /// The entry file names in the namespace folder (no lock, index or temporary files).
    func entryFiles() throws -> [String] {
        try directory.names(in: "default").filter { !$0.hasPrefix(".") }
    }
}

/// `count` bytes that differ for each `seed`.
func testBytes(_ count: Int, seed: UInt8 = 1) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) })
}

/// Sets a file's access and modification times to `seconds` since the epoch.
func setFileTimes(_ path: String, access: Int, modification: Int) {
    var times = [
        timespec(tv_sec: access, tv_nsec: 0), timespec(tv_sec: modification, tv_nsec: 0),
    ]
    _ = utimensat(AT_FDCWD, path, &times, 0)
}

/// Seconds since the epoch now.
func now() -> Int { Int(Date().timeIntervalSince1970) }
