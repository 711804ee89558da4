import Foundation
import HEIFCoder
import WebImageCore

/// Files under `Tests/Fixtures`.
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The path of `Tests/Fixtures/heif/<name>`.
    static func path(_ name: String) -> String {
        directory.appendingPathComponent("heif/\(name)").path
    }

    /// The bytes of `Tests/Fixtures/heif/<name>`.
    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// Decodes `Tests/Fixtures/heif/<name>` with `request`.
    static func decode(_ name: String, request: DecodeRequest = DecodeRequest()) throws -> DecodedImage {
        try bytes(name).withUnsafeBytes { try HEIFImageCoder().decode($0, request: request) }
    }

    /// The pixel a fixture's source pattern has at (`x`, `y`): see `make-fixtures.sh`.
    static func pattern(x: Int, y: Int) -> [Int] {
        [x * 2 % 256, y * 4 % 256, 96, (x * 2 + 3) % 256]
    }
}
