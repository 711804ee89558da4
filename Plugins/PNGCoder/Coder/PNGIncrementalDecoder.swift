import CPNGShim
import WebImageCore

/// An incremental PNG decode on libpng's progressive reader: rows appear as their bytes
/// arrive; for Adam7, each pass fills in more of the image.
final class PNGIncrementalDecoder: IncrementalImageDecoder {
    private let request: DecodeRequest
    private let decoder: OpaquePointer

    init(request: DecodeRequest) throws {
        guard
            let decoder = png_shim_incremental_create(
                request.pixelFormat == .rgba16 ? 1 : 0, UInt64(max(0, request.maxPixelCount)))
        else { throw ImageCodingError(.outOfMemory, "could not start an incremental PNG decode") }
        self.request = request
        self.decoder = decoder
    }

    deinit { png_shim_incremental_destroy(decoder) }

    func append(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) throws {
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        try ShimCall.png.run { png_shim_incremental_append(decoder, base, bytes.count, isFinal ? 1 : 0, &$0) }
    }

    func currentImage() throws -> DecodedImage? {
        var canvas = png_shim_canvas()
        png_shim_incremental_canvas(decoder, &canvas)
        guard let source = canvas.pixels else { return nil }
        let width = Int(canvas.header.width)
        let height = Int(canvas.header.height)
        let format: PixelFormat = canvas.sixteen_bit != 0 ? .rgba16 : .rgba8
        let pixels = try request.makeBuffer(
            copying: source, stride: canvas.stride, width: width, height: height, format: format)
        var traits = canvas.header.imageInfo.traits
        if canvas.complete == 0 { traits.insert(.partial) }
        return DecodedImage(
            pixels: pixels, format: PNGImageCoder.format.name, orientation: .up, sourceWidth: width,
            sourceHeight: height, traits: traits)
    }
}
