import HEIFCoder
import WebImageCore
import WebImageTestSupport

extension Fixture {
    /// Decodes `Tests/Fixtures/heif/<name>` with `request`.
    static func decode(_ name: String, request: DecodeRequest = DecodeRequest()) throws -> DecodedImage {
        try bytes("heif/\(name)").withUnsafeBytes { try HEIFImageCoder().decode($0, request: request) }
    }

    /// The pixel a fixture's source pattern has at (`x`, `y`): see `make-fixtures.sh`.
    static func pattern(x: Int, y: Int) -> [Int] {
        [x * 2 % 256, y * 4 % 256, 96, (x * 2 + 3) % 256]
    }
}
