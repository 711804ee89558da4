import CPNGShim
import WebImageCoding

extension ShimIncrementalDecoder {
    /// An incremental PNG decode on libpng's progressive reader: rows appear as their bytes
    /// arrive; for Adam7, each pass fills in more of the image.
    static func png(request: DecodeRequest) throws -> ShimIncrementalDecoder {
        guard
            let state = png_shim_incremental_create(
                request.pixelFormat == .rgba16, UInt64(max(0, request.maxPixelCount)),
                UInt64(max(0, request.maxByteCount)))
        else { throw ImageCodingError(.outOfMemory, "could not start an incremental PNG decode") }
        return ShimIncrementalDecoder(
            state: state, request: request, call: .png,
            append: { png_shim_incremental_append($0, $1, $2, $3, &$4) },
            canvas: { state in
                var canvas = png_shim_canvas()
                png_shim_incremental_canvas(state, &canvas)
                return ShimCanvas(
                    pixels: canvas.pixels, stride: canvas.stride, info: canvas.header.imageInfo,
                    format: canvas.sixteen_bit != 0 ? .rgba16 : .rgba8, isComplete: canvas.complete != 0)
            },
            destroy: { png_shim_incremental_destroy($0) })
    }
}
