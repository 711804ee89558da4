import CWebImagePlugin

/// An animation opened inside a plugin, which reads the caller's bytes in place: they are
/// pinned (not copied) until the plugin has closed the animation.
final class PluginAnimationSource: AnimatedImageSource {
    private let coder: PluginCoder
    private let bytes: PinnedBytes
    private let state: OpaquePointer
    let info: ImageInfo

    init(coder: PluginCoder, bytes source: [UInt8]) throws {
        guard !source.isEmpty else { throw ImageCodingError(.truncatedData, "no data (0 bytes)") }
        let bytes = PinnedBytes(source)
        let start = bytes.buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var info = webimage_image_info()
        info.struct_size = UInt32(MemoryLayout<webimage_image_info>.size)
        var state: OpaquePointer?
        let message = ErrorMessageBuffer()
        let status = coder.call {
            message.withError { coder.table.animation_open!(start, bytes.buffer.count, &state, &info, $0) }
        }
        guard status == WEBIMAGE_STATUS_OK, let state else {
            throw message.error(
                for: status == WEBIMAGE_STATUS_OK ? WEBIMAGE_STATUS_INTERNAL_ERROR : status, operation: "open animation"
            )
        }
        self.coder = coder
        self.bytes = bytes
        self.state = state
        self.info = ImageInfo(info, formats: coder.formats)
    }

    deinit {
        coder.call { coder.table.animation_close!(state) }
    }

    func frameDuration(at index: Int) -> Int {
        guard index >= 0, index < info.frameCount else { return 0 }
        return Int(coder.call { coder.table.animation_frame_duration!(state, UInt32(index)) })
    }

    func decodeFrame(at index: Int, request: DecodeRequest) throws -> DecodedImage {
        guard index >= 0, index < info.frameCount else {
            throw ImageCodingError(
                .invalidArgument, "frame \(index) does not exist; the animation has \(info.frameCount) frames")
        }
        var options = webimage_decode_options(request)
        var image = PluginCoder.emptyImage()
        let message = ErrorMessageBuffer()
        let status = coder.call {
            message.withError { coder.table.animation_decode_frame!(state, UInt32(index), &options, &image, $0) }
        }
        return try coder.adopt(
            image, status: status, message: message, operation: "decode frame \(index)", request: request)
    }
}
