import WebImageCore

/// An open GIF animation: frames decoded lazily by index, each a fully composited canvas.
/// Only the canvas of the last decoded frame is kept, so going forward is cheapest.
///
/// A file cut inside a frame opens with the frames complete before the cut (as browsers
/// show them), the same count ``GIFImageCoder/probe(_:)`` reports; a file without one
/// complete frame is `.truncatedData`.
final class GIFAnimationSource: AnimatedImageSource {
    private let file: GIFFile
    let info: ImageInfo

    init(bytes: [UInt8]) throws {
        file = try bytes.withUnsafeBytes { try GIFFile(copying: $0, allowPartial: true, maxPixelCount: 0) }
        guard file.info.frame_count > 0 else {
            throw ImageCodingError(.truncatedData, "truncated GIF: the file has no complete frame")
        }
        info = file.info.imageInfo
    }

    func frameDuration(at index: Int) -> Int {
        guard index >= 0, index < info.frameCount else { return 0 }
        return file.duration(of: index)
    }

    func decodeFrame(at index: Int, request: DecodeRequest) throws -> DecodedImage {
        let pixelCount = info.width.multipliedReportingOverflow(by: info.height)
        if pixelCount.overflow || (request.maxPixelCount > 0 && pixelCount.partialValue > request.maxPixelCount) {
            throw ImageCodingError.tooLarge(width: info.width, height: info.height, limit: request.maxPixelCount)
        }
        return try file.decodeFrame(index, request: request)
    }
}
