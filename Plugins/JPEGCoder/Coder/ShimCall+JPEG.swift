import WebImageCoding

extension ShimCall {
    /// How the JPEG shim's failures read: "truncated JPEG: ...", "corrupt JPEG: ...", and
    /// "libjpeg failed" when the shim gives no reason.
    static let jpeg = ShimCall(format: "JPEG", library: "libjpeg")
}
