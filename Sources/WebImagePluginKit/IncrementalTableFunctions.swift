import CWebImagePlugin
import WebImageCoding

/// The incremental-decoding functions of an exported coder table. The opaque
/// `webimage_incremental_decoder` is a retained ``IncrementalBox``.
enum IncrementalTableFunctions {
    final class IncrementalBox {
        let decoder: any IncrementalImageDecoder
        init(_ decoder: any IncrementalImageDecoder) { self.decoder = decoder }
    }

    static func box(_ pointer: OpaquePointer) -> IncrementalBox {
        Unmanaged<IncrementalBox>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    static let create:
        @convention(c) (
            UnsafePointer<webimage_decode_options>, UnsafeMutablePointer<OpaquePointer?>,
            UnsafeMutablePointer<webimage_error>
        ) -> webimage_status = { options, decoder, error in
            reportingErrors(error) {
                let exported = ExportedCoder.installed
                guard let coder = exported.coder as? any ProgressiveImageCoder else {
                    throw ImageCodingError(.unsupportedOperation, "this coder cannot decode incrementally")
                }
                let made = try coder.makeIncrementalDecoder(
                    request: DecodeRequest(options, allocator: exported.allocator))
                decoder.pointee = OpaquePointer(Unmanaged.passRetained(IncrementalBox(made)).toOpaque())
            }
        }

    static let append:
        @convention(c) (OpaquePointer, UnsafePointer<UInt8>?, Int, Bool, UnsafeMutablePointer<webimage_error>)
            -> webimage_status = { decoder, bytes, size, isFinal, error in
                reportingErrors(error) {
                    try box(decoder).decoder.append(UnsafeRawBufferPointer(start: bytes, count: size), isFinal: isFinal)
                }
            }

    static let copyImage:
        @convention(c) (OpaquePointer, UnsafeMutablePointer<webimage_image>, UnsafeMutablePointer<webimage_error>)
            -> webimage_status = { decoder, image, error in
                reportingErrors(error) {
                    guard let current = try box(decoder).decoder.currentImage() else {
                        throw ImageCodingError(.needMoreData, "no pixels yet")
                    }
                    handOver(current, to: image)
                }
            }

    static let destroy: @convention(c) (OpaquePointer?) -> Void = { decoder in
        guard let decoder else { return }
        Unmanaged<IncrementalBox>.fromOpaque(UnsafeRawPointer(decoder)).release()
    }
}
