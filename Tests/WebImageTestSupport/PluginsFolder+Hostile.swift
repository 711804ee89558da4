import Foundation

/// How a plugin built from `Tests/Fixtures/HostilePlugins/hostile.c` misbehaves.
public struct HostileBehaviour: Sendable {
    /// The `-D` flags that select it.
    public let flags: [String]

    /// A write through NULL (SIGSEGV) in `place`.
    public static func segfault(in place: Place) -> HostileBehaviour { HostileBehaviour(flags: [place.flag]) }
    /// `abort()` (SIGABRT) in `place`.
    public static func abort(in place: Place) -> HostileBehaviour {
        HostileBehaviour(flags: [place.flag, "-DHOSTILE_ABORT"])
    }
    /// Sleeps forever in `place`.
    public static func hang(in place: Place) -> HostileBehaviour {
        HostileBehaviour(flags: [place.flag, "-DHOSTILE_HANG"])
    }
    /// Writes two lines to standard error in every decode, then decodes normally.
    public static let chatty = HostileBehaviour(flags: ["-DHOSTILE_CHATTY"])

    /// Where the plugin misbehaves: the entry function always; probe and decode on input
    /// starting `HOSTX`; encode and `animation_encoder_add` on an image 3 pixels wide.
    public enum Place: String, Sendable {
        case entry = "ENTRY"
        case probe = "PROBE"
        case decode = "DECODE"
        case encode = "ENCODE"
        case animationAdd = "ANIMATION_ADD"

        var flag: String { "-DHOSTILE_IN_\(rawValue)" }
    }
}

extension PluginsFolder {
    /// Compiles `Tests/Fixtures/HostilePlugins/hostile.c` as the plugin `name` (format
    /// `hostile`, magic `HOST`) with `behaviour`, into `lib<name>.so` with its manifest.
    public func addHostile(_ name: String, _ behaviour: HostileBehaviour) throws {
        let source = BuildProducts.repository.appendingPathComponent("Tests/Fixtures/HostilePlugins/hostile.c")
        try compile(
            [source], into: "lib\(name).so",
            extraFlags: ["-Wall", "-Wextra", "-Werror", "-DHOSTILE_NAME=\(name)"] + behaviour.flags)
        try write(
            "\(name).json",
            """
            { "name": "\(name)", "version": "1.0.0", "abi_version": 1, "library": "lib\(name).so",
              "coder": { "priority": 0,
                         "formats": [{ "name": "hostile", "mime_types": ["image/x-hostile"], "extensions": ["hostile"],
                                       "signatures": ["484f5354"], "capabilities": ["decode", "encode"] }] } }
            """)
    }
}
