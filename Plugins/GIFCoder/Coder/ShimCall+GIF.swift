import WebImageCoding

extension ShimCall {
    /// How the GIF shim's failures read: "truncated GIF: ...", "corrupt GIF: ...", and
    /// "giflib failed" when the shim gives no reason.
    static let gif = ShimCall(format: "GIF", library: "giflib")
}
