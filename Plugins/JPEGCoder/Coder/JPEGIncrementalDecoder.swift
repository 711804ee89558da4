import CJPEGShim
import WebImageCore

/// An incremental JPEG decode: the rows so far for sequential files, the image as of the
/// last complete scan for progressive files.
final class JPEGIncrementalDecoder: IncrementalImageDecoder {
    private let request: DecodeRequest
    private let decoder: OpaquePointer

    init(request: DecodeRequest) throws {
        guard let decoder = jpeg_shim_incremental_create(UInt64(max(0, request.maxPixelCount))) else {
            throw ImageCodingError(.outOfMemory, "could not start an incremental JPEG decode")
        }
        self.request = request
        self.decoder = decoder
    }

    deinit { jpeg_shim_incremental_destroy(decoder) }

    func append(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) throws {
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        try ShimCall.jpeg.run { jpeg_shim_incremental_append(decoder, base, bytes.count, isFinal ? 1 : 0, &$0) }
    }

    func currentImage() throws -> DecodedImage? {
        var canvas = jpeg_shim_canvas()
        jpeg_shim_incremental_canvas(decoder, &canvas)
        guard let source = canvas.pixels else { return nil }
        let width = Int(canvas.header.width)
        let height = Int(canvas.header.height)
        let pixels = try request.makeBuffer(
            copying: source, stride: canvas.stride, width: width, height: height, format: .rgba8)
        let info = canvas.header.imageInfo
        var traits = info.traits
        if canvas.complete == 0 { traits.insert(.partial) }
        return DecodedImage(
            pixels: pixels, format: JPEGImageCoder.format.name, orientation: info.orientation, sourceWidth: width,
            sourceHeight: height, traits: traits)
    }
}
