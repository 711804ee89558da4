import CWebImagePlugin
import WebImageCoding

/// The animation functions of an exported coder table. The opaque `webimage_animation`
/// is a retained ``AnimationBox``.
enum AnimationTableFunctions {
    final class AnimationBox {
        let source: any AnimatedImageSource
        init(_ source: any AnimatedImageSource) { self.source = source }
    }

    static func box(_ pointer: OpaquePointer) -> AnimationBox {
        Unmanaged<AnimationBox>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    static let open:
        @convention(c) (
            UnsafePointer<UInt8>, Int, UnsafeMutablePointer<OpaquePointer?>, UnsafeMutablePointer<webimage_image_info>,
            UnsafeMutablePointer<webimage_error>
        ) -> webimage_status = { bytes, size, animation, info, error in
            reportingErrors(error) {
                guard let coder = ExportedCoder.installed.coder as? any AnimatedImageCoder else {
                    throw ImageCodingError(.unsupportedOperation, "this coder cannot decode animations")
                }
                // The host keeps `bytes` until close, so the coder may read them in place.
                let source = try coder.openAnimation(reading: UnsafeRawBufferPointer(start: bytes, count: size))
                info.pointee = source.info.cInfo(formats: coder.formats)
                animation.pointee = OpaquePointer(Unmanaged.passRetained(AnimationBox(source)).toOpaque())
            }
        }

    static let frameDuration: @convention(c) (OpaquePointer, UInt32) -> UInt32 = { animation, index in
        UInt32(clamping: box(animation).source.frameDuration(at: Int(index)))
    }

    static let decodeFrame:
        @convention(c) (
            OpaquePointer, UInt32, UnsafePointer<webimage_decode_options>, UnsafeMutablePointer<webimage_image>,
            UnsafeMutablePointer<webimage_error>
        ) -> webimage_status = { animation, index, options, image, error in
            reportingErrors(error) {
                let request = DecodeRequest(options, allocator: ExportedCoder.installed.allocator)
                let frame = try box(animation).source.decodeFrame(at: Int(index), request: request)
                handOver(frame, to: image)
            }
        }

    static let close: @convention(c) (OpaquePointer?) -> Void = { animation in
        guard let animation else { return }
        Unmanaged<AnimationBox>.fromOpaque(UnsafeRawPointer(animation)).release()
    }
}
