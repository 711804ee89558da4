import CWebImagePlugin

/// One transformer made by a plugin, seen as an ``ImageTransformer``.
///
/// Its ``transformerKey`` is the plugin's key behind the plugin's name and a dot
/// (`effects.sepia(0.80)`), so two plugins, or a plugin and a built-in transformer, never
/// share a cache key. A plugin without `WEBIMAGE_TRANSFORMER_RGBA16` is given RGBA8 and its
/// result is widened back, so the output keeps the input's pixel format as every
/// transformer's does. The plugin's instance is destroyed with this object.
public final class PluginTransformer: ImageTransformer, @unchecked Sendable {
    // @unchecked: `instance` is only passed to the plugin's functions, which are serialised
    // by the factory unless the plugin declares them thread-safe; the key is copied at init.
    private let factory: PluginTransformerFactory
    private let instance: OpaquePointer
    public let transformerKey: String

    init(factory: PluginTransformerFactory, instance: OpaquePointer) {
        self.factory = factory
        self.instance = instance
        self.transformerKey = factory.pluginName + "." + String(cString: factory.table.key(instance))
    }

    deinit { factory.table.destroy(instance) }

    /// The plugin does not say what it allocates: its output is counted at the input's size,
    /// with the 8-bit copy and the 8-bit result when a 16-bit image is narrowed for it. Its
    /// own scratch is not counted.
    public func footprint(width: Int, height: Int, format: PixelFormat) -> TransformFootprint {
        guard format == .rgba16, !factory.acceptsRGBA16 else {
            return .output(width: width, height: height, format: format)
        }
        let eightBit = TransformFootprint.bytes(
            width: width, height: height, bytesPerPixel: PixelFormat.rgba8.bytesPerPixel)
        return .output(
            width: width, height: height, format: format, scratchByteCount: TransformFootprint.sum(eightBit, eightBit))
    }

    public func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
        let input: PixelBuffer
        do {
            input = factory.acceptsRGBA16 ? image : try image.eightBit()
        } catch {
            throw ImageTransformError(.outOfMemory, "cannot convert the image to 8 bits for '\(transformerKey)'")
        }
        var view = webimage_image_view(input)
        var output = webimage_image()
        output.struct_size = UInt32(MemoryLayout<webimage_image>.size)
        let message = ErrorMessageBuffer()
        let status = withExtendedLifetime(input) {
            factory.call { message.withError { factory.table.transform(instance, &view, &output, $0) } }
        }
        guard status == WEBIMAGE_STATUS_OK else {
            if let pixels = output.pixels { HostServices.deallocate(pixels) }
            throw PluginStatus(status).transformError(
                message.message(or: "'\(transformerKey)' failed with status \(status)"))
        }
        guard let pixels = output.pixels else {
            throw ImageTransformError(.internalError, "'\(transformerKey)' returned no pixels")
        }
        guard output.pixel_format == input.format.rawValue, output.width > 0, output.height > 0,
            output.stride >= Int(output.width) * input.format.bytesPerPixel
        else {
            HostServices.deallocate(pixels)
            throw ImageTransformError(
                .internalError,
                "'\(transformerKey)' returned an invalid image (\(output.width)×\(output.height), format \(output.pixel_format))"
            )
        }
        let result = PixelBuffer(
            adopting: pixels, width: Int(output.width), height: Int(output.height), bytesPerRow: output.stride,
            format: input.format, deallocate: HostServices.deallocate)
        guard image.format == .rgba16, input.format == .rgba8 else { return result }
        do {
            return try result.sixteenBit()
        } catch {
            throw ImageTransformError(.outOfMemory, "cannot widen the result of '\(transformerKey)' to 16 bits")
        }
    }
}
