import FoundationEssentials

/// The source part of a request path: `plain/{percent-encoded URL}[@ext]`, or the URL in
/// URL-safe base64 (padding optional), which may be split by `/`, with `[.ext]`.
/// Only `http` and `https` URLs with a host are taken.
struct ProcessingSource {
    /// The segment that starts a plain source.
    static let plainPrefix = "plain"

    /// The source URL.
    let url: URL
    /// The extension after `@` (plain) or `.` (base64), lowercased; nil without one.
    let fileExtension: String?

    /// The source the path's remaining `segments` spell.
    /// - Throws: ``ProcessingURLError`` `.invalidSource` (`.invalidArgument` for a bad extension).
    init(segments: [String]) throws(ProcessingURLError) {
        var text: String
        var fileExtension: String?
        if segments[0] == Self.plainPrefix {
            text = segments.dropFirst().joined(separator: "/")
            if let at = text.lastIndex(of: "@") {
                fileExtension = String(text[text.index(after: at)...])
                text = String(text[..<at])
            }
            guard let decoded = text.percentDecoded, !decoded.isEmpty else {
                throw ProcessingURLError(.invalidSource, "the plain source '\(text)' is not percent-encoded text")
            }
            text = decoded
        } else {
            var encoded = segments.joined()
            if let dot = encoded.lastIndex(of: ".") {
                fileExtension = String(encoded[encoded.index(after: dot)...])
                encoded = String(encoded[..<dot])
            }
            guard let bytes = URLSafeBase64.decode(encoded), let decoded = String(validating: bytes, as: UTF8.self)
            else {
                throw ProcessingURLError(.invalidSource, "the source '\(encoded)' is not URL-safe base64 of a URL")
            }
            text = decoded
        }
        if let given = fileExtension {
            fileExtension = try ProcessingOptions.fileExtension(given) { reason in
                ProcessingURLError(.invalidArgument, "invalid source extension: \(reason)")
            }
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw ProcessingURLError(.invalidSource, "the source '\(text)' is not a URL")
        }
        guard scheme == "http" || scheme == "https" else {
            throw ProcessingURLError(.invalidSource, "the source '\(text)' is not http or https")
        }
        guard let host = url.host, !host.isEmpty else {
            throw ProcessingURLError(.invalidSource, "the source '\(text)' has no host")
        }
        self.url = url
        self.fileExtension = fileExtension
    }
}
