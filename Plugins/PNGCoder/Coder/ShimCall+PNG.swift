import WebImageCoding

extension ShimCall {
    /// How the PNG shim's failures read: "truncated PNG: ...", "corrupt PNG: ...", and
    /// "libpng failed" when the shim gives no reason.
    static let png = ShimCall(format: "PNG", library: "libpng")
}
