import CWebImagePlugin
import WebImageCoding

/// The frame-by-frame animation encoding functions of an exported coder table. The opaque
/// `webimage_animation_encoder` is a retained ``EncoderBox``.
enum AnimationEncoderTableFunctions {
    final class EncoderBox {
        let encoder: any AnimationFrameEncoder
        init(_ encoder: any AnimationFrameEncoder) { self.encoder = encoder }
    }

    static func box(_ pointer: OpaquePointer) -> EncoderBox {
        Unmanaged<EncoderBox>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    static let create:
        @convention(c) (
            UInt32, UInt32, UInt32, UnsafePointer<webimage_encode_options>, UnsafeMutablePointer<OpaquePointer?>,
            UnsafeMutablePointer<webimage_error>
        ) -> webimage_status = { width, height, frameCount, options, encoder, error in
            reportingErrors(error) {
                let exported = ExportedCoder.installed
                guard let coder = exported.coder as? any StreamingAnimationCoder else {
                    throw ImageCodingError(.unsupportedOperation, "this coder cannot encode animations frame by frame")
                }
                let request = EncodeRequest(options, formats: coder.formats, allocator: exported.allocator)
                let made = try coder.makeAnimationEncoder(
                    width: Int(width), height: Int(height), frameCount: Int(frameCount), request: request)
                encoder.pointee = OpaquePointer(Unmanaged.passRetained(EncoderBox(made)).toOpaque())
            }
        }

    static let add:
        @convention(c) (OpaquePointer, UnsafePointer<webimage_frame_view>, UnsafeMutablePointer<webimage_error>) ->
            webimage_status = { encoder, frame, error in
                reportingErrors(error) {
                    let image = try PixelBuffer(borrowing: frame.pointee.image)
                    try box(encoder).encoder.add(
                        AnimationFrame(image: image, durationMilliseconds: Int(frame.pointee.duration_ms)))
                }
            }

    static let finish:
        @convention(c) (OpaquePointer, UnsafeMutablePointer<webimage_buffer>, UnsafeMutablePointer<webimage_error>) ->
            webimage_status = { encoder, output, error in
                reportingErrors(error) { try handOver(try box(encoder).encoder.finish(), to: output) }
            }

    static let destroy: @convention(c) (OpaquePointer?) -> Void = { encoder in
        guard let encoder else { return }
        Unmanaged<EncoderBox>.fromOpaque(UnsafeRawPointer(encoder)).release()
    }
}
