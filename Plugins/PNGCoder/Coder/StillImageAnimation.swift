import WebImageCoding

/// A still PNG seen as a one-frame animation.
final class StillImageAnimation: AnimatedImageSource {
    let info: ImageInfo
    private let bytes: [UInt8]

    init(bytes: [UInt8], info: ImageInfo) {
        self.bytes = bytes
        self.info = info
    }

    func frameDuration(at index: Int) -> Int { 0 }

    func decodeFrame(at index: Int, request: DecodeRequest) throws -> DecodedImage {
        guard index == 0 else {
            throw ImageCodingError(.invalidArgument, "frame \(index) does not exist; the PNG has 1 frame")
        }
        return try bytes.withUnsafeBytes { try PNGImageCoder().decode($0, request: request) }
    }
}
