import CJPEGShim

/// Calls the JPEG shim directly (at 1/8 scale unless told otherwise), with or without the DC
/// fast path, to compare the two and to see which route the fast path took.
enum EighthScaleDecoder {
    struct Result: Equatable {
        var status: webimage_status
        var width: Int
        var height: Int
        var pixels: [UInt8]
    }

    /// Decodes `bytes` at `scaleEighths` / 8 (default 1/8); returns the result and the route the decode took.
    static func decode(_ bytes: [UInt8], allowingFastPath: Bool, scaleEighths: UInt32 = 1)
        -> (result: Result, route: jpeg_shim_dc_route)
    {
        var message = [CChar](repeating: 0, count: 256)
        return bytes.withUnsafeBufferPointer { input in
            message.withUnsafeMutableBufferPointer { buffer in
                var error = webimage_error(message: buffer.baseAddress!, message_capacity: buffer.count)
                var reader: OpaquePointer?
                var header = jpeg_shim_header()
                var width: UInt32 = 0
                var height: UInt32 = 0
                let opened = jpeg_shim_open(
                    input.baseAddress!, input.count, scaleEighths, &reader, &header, &width, &height, &error)
                guard opened == WEBIMAGE_STATUS_OK, let reader else {
                    return (Result(status: opened, width: 0, height: 0, pixels: []), JPEG_SHIM_DC_NOT_USED)
                }
                defer { jpeg_shim_close(reader) }
                jpeg_shim_allow_dc_path(reader, allowingFastPath)
                var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
                let status = pixels.withUnsafeMutableBytes {
                    jpeg_shim_read_image(reader, $0.baseAddress!, Int(width) * 4, 0, &error)
                }
                let result = Result(status: status, width: Int(width), height: Int(height), pixels: pixels)
                return (result, jpeg_shim_last_dc_route(reader))
            }
        }
    }
}
