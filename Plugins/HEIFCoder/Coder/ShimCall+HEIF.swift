import WebImageCoding

extension ShimCall {
    /// How the HEIF shim's failures read: "truncated HEIF: ...", "corrupt HEIF: ...", and
    /// "libheif failed" when the shim gives no reason.
    static let heif = ShimCall(format: "HEIF", library: "libheif")
}
