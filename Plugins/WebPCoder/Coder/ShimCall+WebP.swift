import WebImageCoding

extension ShimCall {
    /// How the WebP shim's failures read: "truncated WebP: ...", "corrupt WebP: ...", and
    /// "libwebp failed" when the shim gives no reason.
    static let webp = ShimCall(format: "WebP", library: "libwebp")
}
