import Foundation

/// Files under `Tests/Fixtures`, named by their path below it, such as `png/rgba8.png`.
public enum Fixture {
    /// The `Tests/Fixtures` folder of this checkout.
    public static let directory = BuildProducts.repository.appendingPathComponent("Tests/Fixtures")

    /// The URL of `Tests/Fixtures/<path>`.
    public static func url(_ path: String) -> URL {
        directory.appendingPathComponent(path)
    }

    /// The file system path of `Tests/Fixtures/<path>`.
    public static func path(_ path: String) -> String {
        url(path).path
    }

    /// The bytes of `Tests/Fixtures/<path>`.
    public static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(path)))
    }
}
