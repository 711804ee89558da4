import CWebImagePlugin

/// A plugin's `webimage_coder` table seen as an ``ImageCoder``.
///
/// Pixels the plugin allocates with the host allocator become ``PixelBuffer``s without a
/// copy. When the plugin does not declare `WEBIMAGE_CODER_THREAD_SAFE`, calls are serialised.
public final class PluginCoder: ProgressiveImageCoder, AnimatedImageCoder, @unchecked Sendable {
    let table: webimage_coder
    public let pluginName: String
    public let formats: [ImageFormat]
    /// True when the plugin may be called from several threads at once.
    public let isThreadSafe: Bool
    private let serialiser = TrackedMutex(())

    /// Wraps a coder table; reads only the fields its `struct_size` covers.
    /// - Throws: ``ImageCodingError`` `.invalidArgument` for a malformed table.
    public init(table pointer: UnsafePointer<webimage_coder>, pluginName: String) throws {
        let minimumSize = MemoryLayout<webimage_coder>.offset(of: \.encode)!
        let declared = ABIStruct.declaredSize(pointer)
        guard declared >= minimumSize else {
            throw ImageCodingError(
                .invalidArgument, "the coder table is \(declared) bytes, at least \(minimumSize) needed")
        }
        let raw = UnsafeRawPointer(pointer)
        for field in [\webimage_coder.can_decode, \.probe, \.decode] as [PartialKeyPath<webimage_coder>] {
            let offset = MemoryLayout<webimage_coder>.offset(of: field)!
            guard raw.load(fromByteOffset: offset, as: UInt.self) != 0 else {
                throw ImageCodingError(.invalidArgument, "the coder table lacks can_decode, probe or decode")
            }
        }
        let table = ABIStruct.read(pointer)
        guard table.format_count > 0 else {
            throw ImageCodingError(.invalidArgument, "the coder declares no formats")
        }
        let incremental = [
            table.incremental_create != nil, table.incremental_append != nil,
            table.incremental_copy_image != nil, table.incremental_destroy != nil,
        ]
        let animation = [
            table.animation_open != nil, table.animation_frame_duration != nil,
            table.animation_decode_frame != nil, table.animation_close != nil,
        ]
        let animationEncoder = [
            table.animation_encoder_create != nil, table.animation_encoder_add != nil,
            table.animation_encoder_finish != nil, table.animation_encoder_destroy != nil,
        ]
        guard Set(incremental).count == 1, Set(animation).count == 1, Set(animationEncoder).count == 1 else {
            throw ImageCodingError(
                .invalidArgument, "incremental, animation or animation encoder functions are only partly set")
        }
        self.table = table
        self.pluginName = pluginName
        self.isThreadSafe = table.flags & WEBIMAGE_CODER_THREAD_SAFE != 0
        self.formats = (0..<Int(table.format_count)).map { index in
            let format = table.formats[index]
            return ImageFormat(
                name: String(cString: format.name), mimeType: String(cString: format.mime_type),
                capabilities: ImageFormat.Capabilities(rawValue: format.capabilities))
        }
    }

    /// Runs `body` alone when the plugin is not thread-safe.
    func call<Result>(_ body: () throws -> Result) rethrows -> Result {
        if isThreadSafe { return try body() }
        return try serialiser.withLock { _ in try body() }
    }

    public func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return false }
        return call { table.can_decode(start.assumingMemoryBound(to: UInt8.self), bytes.count) }
    }

    public func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo {
        let start = try Self.start(of: bytes)
        var info = webimage_image_info()
        info.struct_size = UInt32(MemoryLayout<webimage_image_info>.size)
        let message = ErrorMessageBuffer()
        let status = call { message.withError { table.probe(start, bytes.count, &info, $0) } }
        guard status == WEBIMAGE_STATUS_OK else { throw message.error(for: status, operation: "probe") }
        return ImageInfo(info, formats: formats)
    }

    public func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage {
        let start = try Self.start(of: bytes)
        var options = webimage_decode_options(request)
        let message = ErrorMessageBuffer()
        var image = Self.emptyImage()
        let status = call { message.withError { table.decode(start, bytes.count, &options, &image, $0) } }
        return try adopt(image, status: status, message: message, operation: "decode", request: request)
    }

    public func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData {
        guard let encode = table.encode else {
            throw ImageCodingError(.unsupportedOperation, "plugin '\(pluginName)' cannot encode")
        }
        var view = webimage_image_view(image)
        var options = webimage_encode_options(request, formats: formats)
        return try withExtendedLifetime(image) {
            try encodedBytes(operation: "encode") { output, error in encode(&view, &options, output, error) }
        }
    }

    public func encodeAnimation(_ frames: [AnimationFrame], request: EncodeRequest) throws -> EncodedImageData {
        guard let encodeAnimation = table.encode_animation else {
            throw ImageCodingError(.unsupportedOperation, "plugin '\(pluginName)' cannot encode animations")
        }
        var views = frames.map {
            webimage_frame_view(
                image: webimage_image_view($0.image), duration_ms: UInt32(clamping: $0.durationMilliseconds),
                reserved: 0)
        }
        var options = webimage_encode_options(request, formats: formats)
        return try withExtendedLifetime(frames) {
            try encodedBytes(operation: "encode animation") { output, error in
                encodeAnimation(&views, UInt32(views.count), &options, output, error)
            }
        }
    }

    public func makeIncrementalDecoder(request: DecodeRequest) throws -> any IncrementalImageDecoder {
        guard table.incremental_create != nil else {
            throw ImageCodingError(.unsupportedOperation, "plugin '\(pluginName)' cannot decode incrementally")
        }
        return try PluginIncrementalDecoder(coder: self, request: request)
    }

    public func openAnimation(_ bytes: [UInt8]) throws -> any AnimatedImageSource {
        guard table.animation_open != nil else {
            throw ImageCodingError(.unsupportedOperation, "plugin '\(pluginName)' cannot decode animations")
        }
        return try PluginAnimationSource(coder: self, bytes: bytes)
    }

    // MARK: - Shared conversions

    static func start(of bytes: UnsafeRawBufferPointer) throws -> UnsafePointer<UInt8> {
        guard let start = bytes.baseAddress, !bytes.isEmpty else {
            throw ImageCodingError(.truncatedData, "no data (0 bytes)")
        }
        return start.assumingMemoryBound(to: UInt8.self)
    }

    static func emptyImage() -> webimage_image {
        var image = webimage_image()
        image.struct_size = UInt32(MemoryLayout<webimage_image>.size)
        return image
    }

    /// Turns a plugin's output image into a ``DecodedImage`` that owns the pixels.
    func adopt(
        _ image: webimage_image, status: webimage_status, message: borrowing ErrorMessageBuffer, operation: String,
        request: DecodeRequest
    ) throws -> DecodedImage {
        guard status == WEBIMAGE_STATUS_OK else {
            if let pixels = image.pixels { HostServices.deallocate(pixels) }
            throw message.error(for: status, operation: operation)
        }
        guard let pixels = image.pixels else {
            throw ImageCodingError(.internalError, "plugin '\(pluginName)' returned no pixels from \(operation)")
        }
        let format: PixelFormat
        do {
            format = try PluginImageOutput.pixelFormat(of: image, pluginName: pluginName)
        } catch {
            HostServices.deallocate(pixels)
            throw error
        }
        let buffer = PixelBuffer(
            adopting: pixels, width: Int(image.width), height: Int(image.height), bytesPerRow: image.stride,
            format: format, deallocate: HostServices.deallocate)
        return try PluginImageOutput.decodedImage(
            image, pixels: buffer, formats: formats, pluginName: pluginName, request: request)
    }

    /// Runs an encode call and adopts the host-allocated bytes the plugin wrote, without a copy.
    func encodedBytes(
        operation: String,
        _ body: (UnsafeMutablePointer<webimage_buffer>, UnsafeMutablePointer<webimage_error>) -> webimage_status
    ) throws -> EncodedImageData {
        var output = webimage_buffer(bytes: nil, size: 0)
        let message = ErrorMessageBuffer()
        let status = call { message.withError { body(&output, $0) } }
        guard status == WEBIMAGE_STATUS_OK, let bytes = output.bytes, output.size > 0 else {
            if let bytes = output.bytes { HostServices.deallocate(bytes) }
            guard status == WEBIMAGE_STATUS_OK else { throw message.error(for: status, operation: operation) }
            throw ImageCodingError(.internalError, "plugin '\(pluginName)' returned no bytes from \(operation)")
        }
        return EncodedImageData(taking: bytes, count: output.size, deallocate: HostServices.deallocate)
    }
}
