import WebImageCoding

/// An open GIF animation: frames decoded lazily by index, each a fully composited canvas.
/// Only the canvas of the last decoded frame is kept, so going forward is cheapest.
///
/// The file's bytes are read in place, never copied: pinned by the source when they come as
/// an array, kept by the host until close when they cross the plugin ABI.
///
/// A file cut inside a frame opens with the frames complete before the cut (as browsers
/// show them), the same count ``GIFImageCoder/probe(_:)`` reports; a file without one
/// complete frame is `.truncatedData`.
final class GIFAnimationSource: AnimatedImageSource {
    let file: GIFFile
    let info: ImageInfo

    /// Opens the animation over `file`'s bytes, read in place for the source's life.
    init(_ file: GIFFile) throws {
        self.file = file
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
