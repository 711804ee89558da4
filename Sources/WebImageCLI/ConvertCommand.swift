import ArgumentParser
import FoundationEssentials
import WebImageCLISupport
import WebImageCore

/// `webimage convert IN OUT`: decodes IN with the coder chosen for its bytes and encodes
/// it in the format of OUT's extension, written atomically.
///
/// Sources deeper than 8 bits are decoded to RGBA16, so a 16-bit PNG stays 16-bit when
/// the output format can hold it. An animation converted to a format that can hold
/// animations keeps its frames, durations and loop count; `--frame N` writes frame N as a
/// still image, and other formats get the first frame.
///
/// The decode limits (``DecodeLimitOptions``: `--max-pixels`, `--max-bytes`, `--max-frames`,
/// `--max-animation-bytes`, `--decode-timeout`) are checked against what the header declares
/// before anything that size is allocated; over one, the command fails with one
/// `error: image too large: ...` / `error: animation too large: ...` / `error: decode timed
/// out ...` line.
///
/// An animation converted to APNG, GIF or WebP is streamed: each frame is decoded,
/// transformed and handed to the encoder before the next is decoded
/// (``CodersManager/convertAnimation(_:decodeOptions:encodeOptions:transform:)``), so only
/// one frame is held.
///
/// An animation (more than one frame, counting only complete frames: a GIF cut inside a
/// frame converts the frames before the cut, as `info` lists them) converted to a still
/// format gets its first frame from the animation decoder too.
///
/// `--transform SPEC` (repeatable, applied in order; see ``TransformArgument``) runs after
/// EXIF orientation and `--thumbnail`; an animation that stays animated has every frame
/// transformed, keeping durations and loop count.
struct ConvertCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert an image to the format of the output file's extension.")

    @OptionGroup var pluginOptions: PluginOptions

    @Argument(help: "The image to read.")
    var input: String

    @Argument(help: "The file to write; its extension chooses the format (png, jpg, ...).")
    var output: String

    @Option(help: ArgumentHelp("Decode to a thumbnail fitting this box, such as 128x128.", valueName: "WxH"))
    var thumbnail: String?

    @Flag(help: "With --thumbnail: make the output exactly the box instead of keeping the aspect ratio.")
    var noAspect = false

    @Option(help: ArgumentHelp("Encoding quality, 0 (smallest) to 100 (best).", valueName: "q"))
    var quality = 90

    @Flag(help: "Keep the stored pixel orientation instead of applying the EXIF orientation.")
    var noAutoOrient = false

    @OptionGroup var limits: DecodeLimitOptions

    @Option(help: ArgumentHelp("Write this frame of an animation (0 = the first) as a still image.", valueName: "n"))
    var frame: Int?

    @Option(
        name: .customLong("transform"),
        help: ArgumentHelp(
            "Transform after orientation and --thumbnail (repeatable, in order): resize:WxH[:fill|fit|fill-crop], "
                + "crop:X,Y,W,H, round-corner:R[:BORDER[:#RRGGBB[AA]]], flip:h|v|hv, rotate:DEGREES[:fit], "
                + "tint:#RRGGBB[AA], blur:RADIUS.",
            valueName: "spec"))
    var transforms: [String] = []

    @Flag(help: "Print JSON instead of text: output format, size, frames and the transformer key.")
    var json = false

    /// The JSON document of `--json`.
    struct Report: Encodable {
        let input: String
        let inputFormat: String
        let inputWidth: Int
        let inputHeight: Int
        let output: String
        let format: String
        let width: Int
        let height: Int
        let frames: Int
        /// The pipeline's transformer key; empty without `--transform`.
        let transformerKey: String

        enum CodingKeys: String, CodingKey {
            case input, output, format, width, height, frames
            case inputFormat = "input_format"
            case inputWidth = "input_width"
            case inputHeight = "input_height"
            case transformerKey = "transformer_key"
        }
    }

    func run() throws {
        guard (0...100).contains(quality) else {
            throw CLIError("--quality must be between 0 and 100, not \(quality)")
        }
        let box = try thumbnail.map { try ThumbnailArgument.parse($0, preservesAspectRatio: !noAspect) }
        let host = pluginOptions.makeHost()
        let pipeline = try TransformArgument.pipeline(transforms, host: host)
        let manager = host.makeCodersManager()
        let outputFormat = try OutputFormat.choose(for: output, coders: manager)
        let bytes = try InputFile.read(input)
        let info = try manager.probe(bytes)
        let options = try limits.apply(
            to: DecodeOptions(pixelFormat: .rgba16, thumbnail: box, appliesOrientation: !noAutoOrient))
        let encodeOptions = EncodeOptions(
            format: outputFormat.name, quality: Double(quality) / 100, loopCount: info.loopCount)
        let converted: (bytes: EncodedImageData, width: Int, height: Int, frames: Int)
        if let frame = frame ?? (info.frameCount > 1 && !outputFormat.capabilities.contains(.encodeAnimation) ? 0 : nil)
        {
            let decoded = try decodeStill(frame: frame, bytes: bytes, info: info, manager: manager, options: options)
            let image = try transform(decoded.pixels, with: pipeline, options: options)
            converted = (try manager.encode(image, options: encodeOptions), image.width, image.height, 1)
        } else if info.frameCount > 1, outputFormat.capabilities.contains(.encodeAnimation) {
            let animation = try manager.convertAnimation(
                try manager.openAnimation(bytes), decodeOptions: options, encodeOptions: encodeOptions
            ) { try transform($0, with: pipeline, options: options) }
            converted = (animation.data, animation.width, animation.height, animation.frameCount)
        } else {
            let image = try transform(
                try manager.decode(bytes, options: options).pixels, with: pipeline, options: options)
            converted = (try manager.encode(image, options: encodeOptions), image.width, image.height, 1)
        }
        try write(converted.bytes)
        if json {
            try JSONOutput.print(
                Report(
                    input: input, inputFormat: info.format, inputWidth: info.width, inputHeight: info.height,
                    output: output, format: outputFormat.name, width: converted.width, height: converted.height,
                    frames: converted.frames, transformerKey: pipeline.transformerKey))
            return
        }
        let frames = converted.frames > 1 ? ", \(converted.frames) frames" : ""
        let transformed = pipeline.transformers.isEmpty ? "" : " transformed by \(pipeline.transformerKey)"
        print(
            "\(input) (\(info.format) \(info.width)x\(info.height)) -> "
                + "\(output) (\(outputFormat.name) \(converted.width)x\(converted.height)\(frames))\(transformed)")
    }

    /// `pixels` through `pipeline` within the decode's byte limits (refused before anything
    /// is allocated when over them), a transformer's failure reported as one error line.
    private func transform(
        _ pixels: PixelBuffer, with pipeline: TransformerPipeline, options: DecodeOptions
    ) throws -> PixelBuffer {
        do {
            return try pipeline.transform(pixels, limits: TransformLimits(options))
        } catch {
            throw CLIError("cannot transform '\(input)' with \(pipeline.transformerKey): \(error.message)")
        }
    }

    /// Frame `frame` of the input as a still image; frame 0 of a still image is the image itself.
    private func decodeStill(
        frame: Int, bytes: [UInt8], info: ImageInfo, manager: CodersManager, options: DecodeOptions
    ) throws -> DecodedImage {
        guard frame >= 0, frame < info.frameCount else {
            throw CLIError("--frame \(frame) does not exist: '\(input)' has \(info.frameCount) frame(s)")
        }
        if info.frameCount == 1 { return try manager.decode(bytes, options: options) }
        return try manager.decodeFrame(frame, of: try manager.openAnimation(bytes), options: options)
    }

    /// Writes `bytes` to the output file atomically (a temporary file renamed into place).
    private func write(_ bytes: EncodedImageData) throws {
        let url = URL(fileURLWithPath: output)
        let folder = url.deletingLastPathComponent().path
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory else {
            throw CLIError("cannot write '\(output)': the folder '\(folder)' does not exist")
        }
        do {
            try bytes.withUnsafeBytes { encoded in
                let view = Data(
                    bytesNoCopy: UnsafeMutableRawPointer(mutating: encoded.baseAddress!), count: encoded.count,
                    deallocator: .none)
                try view.write(to: url, options: .atomic)
            }
        } catch {
            throw CLIError("cannot write '\(output)': \(CLIError.reason(for: error))")
        }
    }
}
