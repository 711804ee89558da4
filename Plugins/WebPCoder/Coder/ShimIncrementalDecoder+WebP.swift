import CWebPShim
import WebImageCoding

extension ShimIncrementalDecoder {
    /// An incremental WebP decode on libwebp's `WebPIDecoder`: the rows so far (the rest
    /// transparent black, trait `.partial`), then the whole image. Animations show their first
    /// frame once the last bytes arrive.
    static func webp(request: DecodeRequest) throws -> ShimIncrementalDecoder {
        guard
            let state = webp_shim_incremental_create(
                UInt64(max(0, request.maxPixelCount)), UInt64(max(0, request.maxByteCount)))
        else {
            throw ImageCodingError(.outOfMemory, "could not start an incremental WebP decode")
        }
        return ShimIncrementalDecoder(
            state: state, request: request, call: .webp,
            append: { webp_shim_incremental_append($0, $1, $2, $3, &$4) },
            canvas: { state in
                var canvas = webp_shim_canvas()
                webp_shim_incremental_canvas(state, &canvas)
                return ShimCanvas(
                    pixels: canvas.pixels, stride: canvas.stride, info: canvas.header.imageInfo, format: .rgba8,
                    isComplete: canvas.complete != 0)
            },
            destroy: { webp_shim_incremental_destroy($0) })
    }
}
