import CWebImagePlugin

/// What an in-process and an isolated coder check alike in a `webimage_image` a plugin
/// returned, and the ``DecodedImage`` they make of it.
enum PluginImageOutput {
    /// The image's pixel format, when its size, format and stride are sound.
    /// - Throws: ``ImageCodingError`` (`.internalError`) naming `pluginName`.
    static func pixelFormat(of image: webimage_image, pluginName: String) throws -> PixelFormat {
        guard let format = PixelFormat(rawValue: image.pixel_format), image.width > 0, image.height > 0,
            image.stride >= Int(image.width) * format.bytesPerPixel
        else {
            throw ImageCodingError(
                .internalError,
                "plugin '\(pluginName)' returned an invalid image (\(image.width)×\(image.height), format \(image.pixel_format))"
            )
        }
        return format
    }

    /// The decoded image over `buffer` (the pixels of `image`), named after the plugin's
    /// format at `image.format_index` (else its first, else `pluginName`).
    /// - Throws: ``ImageCodingError/tooLarge(width:height:limit:)`` over `request.maxPixelCount`.
    static func decodedImage(
        _ image: webimage_image, pixels buffer: PixelBuffer, formats: [ImageFormat], pluginName: String,
        request: DecodeRequest
    ) throws -> DecodedImage {
        let limit = request.maxPixelCount
        if limit > 0 && buffer.width * buffer.height > limit {
            throw ImageCodingError.tooLarge(width: buffer.width, height: buffer.height, limit: limit)
        }
        return DecodedImage(
            pixels: buffer,
            format: formats.indices.contains(Int(image.format_index))
                ? formats[Int(image.format_index)].name : formats.first?.name ?? pluginName,
            orientation: ImageOrientation(exifValue: image.orientation),
            sourceWidth: image.source_width > 0 ? Int(image.source_width) : buffer.width,
            sourceHeight: image.source_height > 0 ? Int(image.source_height) : buffer.height,
            traits: ImageInfo.Traits(rawValue: image.flags))
    }
}
