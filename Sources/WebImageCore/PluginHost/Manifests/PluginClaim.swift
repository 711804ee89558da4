/// One thing a plugin's manifest says the plugin serves: its name, a coder format's name,
/// MIME type, extension or magic signature, a loader scheme or a transformer name.
///
/// Trusted plugins protect their claims from untrusted ones (see ``PluginPolicy``).
public struct PluginClaim: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case pluginName = "plugin name"
        case format
        case mimeType = "MIME type"
        case fileExtension = "extension"
        case signature
        case loaderScheme = "loader scheme"
        case transformerName = "transformer name"
    }

    public let kind: Kind
    /// The value as the manifest writes it (a signature as its hex pattern).
    public let value: String

    public init(_ kind: Kind, _ value: String) {
        self.kind = kind
        self.value = value
    }

    /// True when both claims would select the same thing: equal values ignoring case; for
    /// signatures, patterns that agree on every byte both fix (`??` matching any byte) and
    /// that fix at least one byte in common, or one of which fixes no byte at all (it matches
    /// every file).
    ///
    /// Patterns that only meet where one of them has `??` do not collide: PNM's `5036` and
    /// HEIF's `????????6674797068656963` could both match only a file whose first box claims
    /// 1.3 GB. The price is that a pattern fixing only bytes another leaves open (for example
    /// `00000018`, a common HEIF box size) is not caught.
    public func collides(with other: PluginClaim) -> Bool {
        guard kind == other.kind else { return false }
        guard kind == .signature else { return value.lowercased() == other.value.lowercased() }
        guard let mine = MagicSignature(pattern: value), let theirs = MagicSignature(pattern: other.value) else {
            return false
        }
        var sharesFixedByte = false
        for (byte, otherByte) in zip(mine.bytes, theirs.bytes) {
            guard let byte, let otherByte else { continue }
            guard byte == otherByte else { return false }
            sharesFixedByte = true
        }
        let matchesEverything = mine.bytes.allSatisfy { $0 == nil } || theirs.bytes.allSatisfy { $0 == nil }
        return sharesFixedByte || matchesEverything
    }

    public var description: String {
        kind == .signature ? "signature \(value)" : "\(kind.rawValue) '\(value)'"
    }
}

extension PluginManifest {
    /// Everything the manifest claims, in manifest order: the plugin's name, then each coder
    /// format's name, MIME types, extensions and signatures, then loader schemes and
    /// transformer names.
    public var claims: [PluginClaim] {
        var claims = [PluginClaim(.pluginName, name)]
        for format in formats {
            claims.append(PluginClaim(.format, format.name))
            claims += format.mimeTypes.map { PluginClaim(.mimeType, $0) }
            claims += format.extensions.map { PluginClaim(.fileExtension, $0) }
            claims += format.signatures.map { PluginClaim(.signature, $0) }
        }
        claims += (loader?.schemes ?? []).map { PluginClaim(.loaderScheme, $0) }
        claims += (transformer?.names ?? []).map { PluginClaim(.transformerName, $0) }
        return claims
    }
}
