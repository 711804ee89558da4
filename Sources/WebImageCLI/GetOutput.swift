import FoundationEssentials
import WebImageCLISupport
import WebImageCore

/// A file `webimage get` writes an image to, with the format chosen before anything is
/// downloaded (``OutputFormat``).
struct GetOutputFile: Sendable {
    let path: String
    /// True for a file of `--output-dir`: created, never replacing one (a name taken since
    /// it was claimed fails the URL); false for `-o`'s file, which the user named: replaced.
    let isNew: Bool
    /// The format written; nil for `-o FILE` without an extension: the downloaded or cached
    /// bytes as they are, else PNG.
    let format: ImageFormat?
}

/// Writes what `webimage get` loaded: the downloaded or cached bytes as they are when they
/// are in the file's format and untouched (no thumbnail or transformer), else the image
/// encoded in the file's format. An animation written to a format that holds animations
/// (APNG, GIF, WebP) keeps every frame, each frame's duration and the loop count: its frames
/// are decoded again from ``ImageResult/animatedImageData`` at the thumbnail size, passed
/// through the transformer when `transform-animated-image` is set, and streamed to the
/// encoder (``CodersManager/encode(_:keepingAnimationOf:frameDecodeOptions:options:transformFrame:)``),
/// as `convert` does. Other formats, and an animation whose bytes are not at hand (a
/// memory hit whose original is on no disk), get the first frame.
struct GetImageWriter: Sendable {
    let coders: CodersManager
    /// The request's thumbnail box; nil for full size.
    let thumbnail: ThumbnailSize?
    /// The transformer every frame of an animation goes through: the request's with
    /// `transform-animated-image`, else nil (animations are written untransformed).
    let animationTransformer: (any ImageTransformer)?
    /// The manager's transform limits, which every frame is held to.
    let limits: TransformLimits

    /// What was written: its size in bytes and what the file holds (nil when the written
    /// bytes are not an image a coder reads, such as `avoid-decode-image` data).
    struct Written {
        let byteCount: Int
        let info: ImageInfo?
    }

    /// True when `result` may be a transformed animation served from the caches without its
    /// frames (the transformed entry is a still image): its original's bytes, if cached, are
    /// then passed as ``ImageResult/animatedImageData`` so every frame is written transformed.
    func mayNeedOriginal(_ result: ImageResult, for file: GetOutputFile) -> Bool {
        animationTransformer != nil && result.cacheType != .none && result.animatedImageData == nil
            && (file.format?.capabilities ?? [.encodeAnimation]).contains(.encodeAnimation)
    }

    /// Writes `result` to `file`.
    /// - Throws: ``CLIError``, ``ImageCodingError``, ``ImageTransformError`` or a file error.
    func write(_ result: ImageResult, to file: GetOutputFile) throws -> Written {
        let bytes = try encoded(result, format: file.format)
        if file.isNew {
            try FetchFile.write(bytes, to: file.path)
        } else {
            try Data(bytes).write(to: URL(fileURLWithPath: file.path), options: .atomic)
        }
        return Written(byteCount: bytes.count, info: try? coders.probe(bytes))
    }

    private func encoded(_ result: ImageResult, format: ImageFormat?) throws -> [UInt8] {
        guard let image = result.image else {
            // avoid-decode-image: the bytes as they came.
            guard let data = result.data else { throw CLIError("no image or data to write") }
            return [UInt8](data)
        }
        if let data = result.data, format == nil || format?.name == image.format { return [UInt8](data) }
        guard let target = format ?? coders.encodableFormat("png") else {
            throw CLIError("no coder writes png")
        }
        let transformer = animationTransformer
        let limits = limits
        return try coders.encode(
            image.pixels, keepingAnimationOf: result.animatedImageData,
            frameDecodeOptions: DecodeOptions(thumbnail: thumbnail), options: EncodeOptions(format: target.name)
        ) { pixels in try transformer?.transform(pixels, limits: limits) ?? pixels }.bytes
    }
}
