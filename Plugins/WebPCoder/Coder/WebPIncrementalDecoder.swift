import CWebPShim
import WebImageCore

/// An incremental WebP decode on libwebp's `WebPIDecoder`: the rows so far (the rest
/// transparent black, trait `.partial`), then the whole image. Animations show their first
/// frame once the last bytes arrive.
final class WebPIncrementalDecoder: IncrementalImageDecoder {
    private let request: DecodeRequest
    private let decoder: OpaquePointer

    init(request: DecodeRequest) throws {
        guard let decoder = webp_shim_incremental_create(UInt64(max(0, request.maxPixelCount))) else {
            throw ImageCodingError(.outOfMemory, "could not start an incremental WebP decode")
        }
        self.request = request
        self.decoder = decoder
    }

    deinit { webp_shim_incremental_destroy(decoder) }

    func append(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) throws {
        try ShimCall.webp.run {
            webp_shim_incremental_append(decoder, bytes.bytePointer, bytes.count, isFinal ? 1 : 0, &$0)
        }
    }

    func currentImage() throws -> DecodedImage? {
        var canvas = webp_shim_canvas()
        webp_shim_incremental_canvas(decoder, &canvas)
        guard let source = canvas.pixels else { return nil }
        let width = Int(canvas.header.width)
        let height = Int(canvas.header.height)
        let pixels = try request.makeBuffer(
            copying: source, stride: canvas.stride, width: width, height: height, format: .rgba8)
        var traits = canvas.header.imageInfo.traits
        if canvas.complete == 0 { traits.insert(.partial) }
        return DecodedImage(
            pixels: pixels, format: WebPImageCoder.format.name, orientation: .up, sourceWidth: width,
            sourceHeight: height, traits: traits)
    }
}
