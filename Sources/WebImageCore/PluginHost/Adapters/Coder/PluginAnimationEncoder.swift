import CWebImagePlugin

/// An animation a plugin encodes frame by frame (`animation_encoder_*`).
final class PluginAnimationEncoder: AnimationFrameEncoder {
    private let coder: PluginCoder
    private let encoder: OpaquePointer

    init(coder: PluginCoder, width: Int, height: Int, frameCount: Int, request: EncodeRequest) throws {
        var options = webimage_encode_options(request, formats: coder.formats)
        var encoder: OpaquePointer?
        let message = ErrorMessageBuffer()
        let status = coder.call {
            message.withError {
                coder.table.animation_encoder_create!(
                    UInt32(clamping: width), UInt32(clamping: height), UInt32(clamping: frameCount), &options,
                    &encoder, $0)
            }
        }
        guard status == WEBIMAGE_STATUS_OK, let encoder else {
            throw message.error(
                for: status == WEBIMAGE_STATUS_OK ? WEBIMAGE_STATUS_INTERNAL_ERROR : status,
                operation: "encode animation")
        }
        self.coder = coder
        self.encoder = encoder
    }

    deinit {
        coder.call { coder.table.animation_encoder_destroy!(encoder) }
    }

    func add(_ frame: AnimationFrame) throws {
        var view = webimage_frame_view(
            image: webimage_image_view(frame.image), duration_ms: UInt32(clamping: frame.durationMilliseconds),
            reserved: 0)
        let message = ErrorMessageBuffer()
        let status = withExtendedLifetime(frame) {
            coder.call { message.withError { coder.table.animation_encoder_add!(encoder, &view, $0) } }
        }
        guard status == WEBIMAGE_STATUS_OK else { throw message.error(for: status, operation: "encode animation") }
    }

    func finish() throws -> EncodedImageData {
        try coder.encodedBytes(operation: "encode animation") { output, error in
            coder.table.animation_encoder_finish!(encoder, output, error)
        }
    }
}

extension PluginCoder: StreamingAnimationCoder {
    /// True when the plugin's table has the `animation_encoder_*` functions (an older plugin,
    /// or one that encodes animations only from all frames at once, has none).
    public func encodesAnimationFrameByFrame(format: String) -> Bool {
        table.animation_encoder_create != nil && formats.contains { $0.name == format }
    }

    /// The plugin's frame-by-frame encoder.
    public func makeAnimationEncoder(width: Int, height: Int, frameCount: Int, request: EncodeRequest) throws
        -> any AnimationFrameEncoder
    {
        guard table.animation_encoder_create != nil else {
            throw ImageCodingError(
                .unsupportedOperation, "plugin '\(pluginName)' cannot encode animations frame by frame")
        }
        return try PluginAnimationEncoder(
            coder: self, width: width, height: height, frameCount: frameCount, request: request)
    }
}
