/// How URLs appear in messages: whole up to ``messageLength`` characters, else cut with their
/// length in bytes, so a huge URL (a `data:` URL of megabytes) never fills a log or a terminal.
public enum URLText {
    /// Characters of a URL a message shows whole: 200.
    public static let messageLength = 200

    /// `url` itself when it has at most `limit` characters, else its first `limit` characters
    /// followed by `…(N bytes)`, N being the URL's UTF-8 length. Default limit
    /// ``messageLength``.
    public static func abbreviated(_ url: String, limit: Int = messageLength) -> String {
        // Only the first `limit` characters are walked: counting all of a huge URL's would not be.
        let head = url.prefix(limit)
        guard url.utf8.count > limit, head.endIndex < url.endIndex else { return url }
        return "\(head)…(\(url.utf8.count) bytes)"
    }
}
