import CWebImagePlugin

/// An incremental decode running inside a plugin.
final class PluginIncrementalDecoder: IncrementalImageDecoder {
    private let coder: PluginCoder
    private let request: DecodeRequest
    private let state: OpaquePointer

    init(coder: PluginCoder, request: DecodeRequest) throws {
        var options = webimage_decode_options(request)
        var state: OpaquePointer?
        let message = ErrorMessageBuffer()
        let status = coder.call { message.withError { coder.table.incremental_create!(&options, &state, $0) } }
        guard status == WEBIMAGE_STATUS_OK, let state else {
            throw message.error(
                for: status == WEBIMAGE_STATUS_OK ? WEBIMAGE_STATUS_INTERNAL_ERROR : status,
                operation: "incremental decode")
        }
        self.coder = coder
        self.request = request
        self.state = state
    }

    deinit {
        coder.call { coder.table.incremental_destroy!(state) }
    }

    func append(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) throws {
        let message = ErrorMessageBuffer()
        let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let status = coder.call {
            message.withError { coder.table.incremental_append!(state, start, bytes.count, isFinal, $0) }
        }
        guard status == WEBIMAGE_STATUS_OK else { throw message.error(for: status, operation: "incremental append") }
    }

    func currentImage() throws -> DecodedImage? {
        var image = PluginCoder.emptyImage()
        let message = ErrorMessageBuffer()
        let status = coder.call { message.withError { coder.table.incremental_copy_image!(state, &image, $0) } }
        if status == WEBIMAGE_STATUS_NEED_MORE_DATA { return nil }
        return try coder.adopt(
            image, status: status, message: message, operation: "incremental decode", request: request)
    }
}
