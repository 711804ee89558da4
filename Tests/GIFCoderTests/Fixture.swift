import Foundation

/// Files under `Tests/Fixtures`.
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The bytes of `Tests/Fixtures/<path>`.
    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(path)))
    }
}
