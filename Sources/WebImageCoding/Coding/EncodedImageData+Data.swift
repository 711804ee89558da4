import FoundationEssentials

extension EncodedImageData {
    /// A copy of the bytes as `Data`.
    public var data: Data { withUnsafeBytes { Data($0) } }
}
