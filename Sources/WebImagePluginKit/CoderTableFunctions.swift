import CWebImagePlugin
import WebImageCoding

/// The C functions of an exported coder table. Each finds the coder through
/// ``ExportedCoder/installed``; C function pointers cannot capture context.
enum CoderTableFunctions {
    static let canDecode: @convention(c) (UnsafePointer<UInt8>, Int) -> Bool = { bytes, size in
        ExportedCoder.installed.coder.canDecode(UnsafeRawBufferPointer(start: bytes, count: size))
    }

    static let probe:
        @convention(c) (
            UnsafePointer<UInt8>, Int, UnsafeMutablePointer<webimage_image_info>, UnsafeMutablePointer<webimage_error>
        ) -> webimage_status = { bytes, size, info, error in
            reportingErrors(error) {
                let coder = ExportedCoder.installed.coder
                let result = try coder.probe(UnsafeRawBufferPointer(start: bytes, count: size))
                info.pointee = result.cInfo(formats: coder.formats)
            }
        }

    static let decode:
        @convention(c) (
            UnsafePointer<UInt8>, Int, UnsafePointer<webimage_decode_options>, UnsafeMutablePointer<webimage_image>,
            UnsafeMutablePointer<webimage_error>
        ) -> webimage_status = { bytes, size, options, image, error in
            reportingErrors(error) {
                let exported = ExportedCoder.installed
                let request = DecodeRequest(options, allocator: exported.allocator)
                let decoded = try exported.coder.decode(
                    UnsafeRawBufferPointer(start: bytes, count: size), request: request)
                handOver(decoded, to: image)
            }
        }

    static let encode:
        @convention(c) (
            UnsafePointer<webimage_image_view>, UnsafePointer<webimage_encode_options>,
            UnsafeMutablePointer<webimage_buffer>, UnsafeMutablePointer<webimage_error>
        ) -> webimage_status = { view, options, output, error in
            reportingErrors(error) {
                let exported = ExportedCoder.installed
                let coder = exported.coder
                let pixels = try PixelBuffer(borrowing: view.pointee)
                let bytes = try coder.encode(
                    pixels, request: EncodeRequest(options, formats: coder.formats, allocator: exported.allocator))
                try handOver(bytes, to: output)
            }
        }

    static let encodeAnimation:
        @convention(c) (
            UnsafePointer<webimage_frame_view>, UInt32, UnsafePointer<webimage_encode_options>,
            UnsafeMutablePointer<webimage_buffer>, UnsafeMutablePointer<webimage_error>
        ) -> webimage_status = { frames, count, options, output, error in
            reportingErrors(error) {
                let exported = ExportedCoder.installed
                guard let coder = exported.coder as? any AnimatedImageCoder else {
                    throw ImageCodingError(.unsupportedOperation, "this coder cannot encode animations")
                }
                let animation = try (0..<Int(count)).map {
                    AnimationFrame(
                        image: try PixelBuffer(borrowing: frames[$0].image),
                        durationMilliseconds: Int(frames[$0].duration_ms))
                }
                let bytes = try coder.encodeAnimation(
                    animation, request: EncodeRequest(options, formats: coder.formats, allocator: exported.allocator))
                try handOver(bytes, to: output)
            }
        }
}
