import WebImageCore

/// Parsing of `--thumbnail WxH`.
public enum ThumbnailArgument {
    /// The thumbnail box `text` describes, such as `128x96`.
    /// - Throws: ``CLIError`` unless `text` is two positive integers joined by `x`.
    public static func parse(_ text: String, preservesAspectRatio: Bool = true) throws -> ThumbnailSize {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            throw CLIError(
                "invalid --thumbnail '\(text)': expected WIDTHxHEIGHT with positive whole numbers, such as 128x128")
        }
        return ThumbnailSize(width: width, height: height, preservesAspectRatio: preservesAspectRatio)
    }
}
