import CWebPShim
import WebImageCoding

/// An open WebP animation. Frames are decoded forward from the last one asked for; an
/// earlier frame starts again from the first. Only the canvas after the last frame is kept.
/// A frame that fails to decode throws for that frame alone.
final class WebPAnimationSource: AnimatedImageSource {
    let info: ImageInfo
    private let animation: OpaquePointer

    init(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { throw WebPImageCoder.emptyInput }
        var header = webp_shim_header()
        var opened: OpaquePointer?
        try bytes.withUnsafeBufferPointer { buffer in
            try ShimCall.webp.run {
                webp_shim_animation_open(buffer.baseAddress!, buffer.count, 0, &opened, &header, &$0)
            }
        }
        self.animation = opened!
        self.info = header.imageInfo
    }

    deinit { webp_shim_animation_close(animation) }

    func frameDuration(at index: Int) -> Int {
        guard index >= 0, index < info.frameCount else { return 0 }
        return Int(webp_shim_animation_duration(animation, UInt32(index)))
    }

    /// The composited canvas of frame `index` at full canvas size (thumbnail boxes are left
    /// to the host). The shim's canvas, its scratch canvas and the output (4 bytes a pixel
    /// each) are checked against `request.maxByteCount` first.
    func decodeFrame(at index: Int, request: DecodeRequest) throws -> DecodedImage {
        guard index >= 0, index < info.frameCount else {
            throw ImageCodingError(.invalidArgument, "no frame \(index) in an animation of \(info.frameCount) frames")
        }
        try request.checkPixelCount(width: info.width, height: info.height)
        try request.checkByteCount(
            (info.width * info.height).multipliedReportingOverflow(by: 12), what: "the canvases and a frame")
        try request.checkDeadline("before frame \(index)")
        let pixels = try request.makeBuffer(width: info.width, height: info.height, format: .rgba8)
        do {
            try ShimCall.webp.run {
                webp_shim_animation_render(animation, UInt32(index), pixels.baseAddress, pixels.bytesPerRow, &$0)
            }
        } catch {
            throw ImageCodingError(error.kind, "frame \(index): \(error.message)")
        }
        return DecodedImage(
            pixels: pixels, format: WebPImageCoder.format.name, orientation: .up, sourceWidth: info.width,
            sourceHeight: info.height, traits: info.traits)
    }
}
