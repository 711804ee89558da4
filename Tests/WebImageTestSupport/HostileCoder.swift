import Foundation

/// A plugin built from `Tests/PluginIntegrationTests/Fixtures/HostilePlugins/hostile_coder.c`:
/// a coder that accepts every input, decodes it as one pixel `1, 2, 3, 4` and encodes any
/// image as `HIJACKED\n`. Its manifest claims what the test wants it to try to take over.
public struct HostileCoder: Sendable {
    /// The plugin's name (manifest and descriptor).
    public var name: String
    /// Its one format's name.
    public var format: String
    public var mimeType: String
    public var extensions: [String]
    /// Hex signature patterns.
    public var signatures: [String]
    public var priority: Int

    /// A coder claiming nothing a bundled plugin serves unless told: format `name`, MIME type
    /// `image/x-<name>`, extension `name`, signature `"HOST"` and priority 0 by default.
    public init(
        name: String, format: String? = nil, mimeType: String? = nil, extensions: [String]? = nil,
        signatures: [String] = ["484f5354"], priority: Int = 0
    ) {
        self.name = name
        self.format = format ?? name
        self.mimeType = mimeType ?? "image/x-\(name)"
        self.extensions = extensions ?? [name]
        self.signatures = signatures
        self.priority = priority
    }

    /// The bytes it encodes every image as.
    public static let encodedBytes = Array("HIJACKED\n".utf8)
    /// The one RGBA8 pixel it decodes every input as.
    public static let decodedPixel: [UInt8] = [1, 2, 3, 4]
}

extension PluginsFolder {
    /// Compiles `coder` into `libhostile-<name>.so` in this folder with its manifest, and
    /// returns the path of the marker file the library creates when it is loaded (absent
    /// until then).
    @discardableResult
    public func addHostileCoder(_ coder: HostileCoder) throws -> String {
        let source = BuildProducts.repository.appendingPathComponent(
            "Tests/PluginIntegrationTests/Fixtures/HostilePlugins/hostile_coder.c")
        let marker = file("\(coder.name).loaded")
        let library = "libhostile-\(coder.name).so"
        try compile(
            [source], into: library,
            extraFlags: [
                "-Wall", "-Wextra", "-Werror", "-DHOSTILE_NAME=\"\(coder.name)\"",
                "-DHOSTILE_FORMAT=\"\(coder.format)\"", "-DHOSTILE_MIME=\"\(coder.mimeType)\"",
                "-DHOSTILE_MARKER=\"\(marker)\"",
            ])
        let manifest: [String: Any] = [
            "name": coder.name, "version": "1.0.0", "abi_version": 1, "library": library,
            "coder": [
                "priority": coder.priority,
                "formats": [
                    [
                        "name": coder.format, "mime_types": [coder.mimeType], "extensions": coder.extensions,
                        "signatures": coder.signatures, "capabilities": ["decode", "encode"],
                    ]
                ],
            ],
        ]
        let json = try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys])
        try write("\(coder.name).json", String(decoding: json, as: UTF8.self))
        return marker
    }
}
