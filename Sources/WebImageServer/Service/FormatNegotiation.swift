import FoundationEssentials
import WebImageCore

/// The output format of a request without an extension, chosen from the client's `Accept`:
/// AVIF when enabled and accepted, then WebP when accepted, then the source's own family:
/// JPEG for an opaque still, PNG for a still with transparency, and for an animation its
/// own format when that holds animations (GIF, APNG, WebP), else GIF.
///
/// A format counts as accepted when `Accept` names its media type with a quality above 0;
/// `image/*` and `*/*` do not count, as imgproxy reads them, because clients that send only
/// those (curl, old browsers) may not decode WebP or AVIF.
public struct FormatNegotiation: Sendable, Hashable {
    /// The client accepts AVIF, and the server offers it.
    public var avif: Bool
    /// The client accepts WebP.
    public var webp: Bool

    /// What `accept` (an `Accept` header; nil when absent) allows, AVIF only when `offersAVIF`.
    public init(accept: String?, offersAVIF: Bool) {
        let accepted = Self.acceptedTypes(accept ?? "")
        avif = offersAVIF && accepted.contains("image/avif")
        webp = accepted.contains("image/webp")
    }

    /// A short name of what was accepted, part of a negotiated result's cache key, so clients
    /// that accept the same formats share one entry: `auto`, `auto+webp`, `auto+avif+webp`.
    public var keyPart: String {
        "auto" + (avif ? "+avif" : "") + (webp ? "+webp" : "")
    }

    /// The format name (a coder's) for an image of `sourceFormat` that `isAnimated` or
    /// `hasAlpha`, among the formats `coders` encode. `hasAlpha` is asked only when the
    /// choice is between PNG and JPEG (it may scan every pixel).
    public func format(
        sourceFormat: String, isAnimated: Bool, hasAlpha: @autoclosure () -> Bool, coders: CodersManager
    ) -> String {
        func encodes(_ name: String, animation: Bool = false) -> Bool {
            coders.encodableFormat(name, animation: animation) != nil
        }
        if avif && encodes("avif", animation: isAnimated) { return "avif" }
        if webp && encodes("webp", animation: isAnimated) { return "webp" }
        if isAnimated {
            return encodes(sourceFormat, animation: true) ? sourceFormat : "gif"
        }
        return hasAlpha() ? "png" : "jpeg"
    }

    /// The media types `accept` lists with a quality above 0, lowercased, parameters dropped.
    static func acceptedTypes(_ accept: String) -> Set<String> {
        var types = Set<String>()
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingWhitespace }
            guard let type = parts.first?.lowercased(), !type.isEmpty else { continue }
            let quality = parts.dropFirst().first { $0.lowercased().hasPrefix("q=") }.flatMap {
                Double($0.dropFirst(2))
            }
            if (quality ?? 1) > 0 { types.insert(type) }
        }
        return types
    }
}
