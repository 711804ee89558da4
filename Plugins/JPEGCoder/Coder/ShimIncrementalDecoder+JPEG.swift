import CJPEGShim
import WebImageCoding

extension ShimIncrementalDecoder {
    /// An incremental JPEG decode: the rows so far for sequential files, the image as of the
    /// last complete scan for progressive files.
    static func jpeg(request: DecodeRequest) throws -> ShimIncrementalDecoder {
        guard
            let state = jpeg_shim_incremental_create(
                UInt64(max(0, request.maxPixelCount)), UInt64(max(0, request.maxByteCount)))
        else {
            throw ImageCodingError(.outOfMemory, "could not start an incremental JPEG decode")
        }
        return ShimIncrementalDecoder(
            state: state, request: request, call: .jpeg,
            append: { jpeg_shim_incremental_append($0, $1, $2, $3, &$4) },
            canvas: { state in
                var canvas = jpeg_shim_canvas()
                jpeg_shim_incremental_canvas(state, &canvas)
                return ShimCanvas(
                    pixels: canvas.pixels, stride: canvas.stride, info: canvas.header.imageInfo, format: .rgba8,
                    isComplete: canvas.complete != 0)
            },
            destroy: { jpeg_shim_incremental_destroy($0) })
    }
}
