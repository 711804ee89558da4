import ArgumentParser
import WebImageCLISupport
import WebImageCore

/// `webimage info FILE`: what the image's header says, read by the coder plugin chosen
/// for the file (pixels are not decoded, so a truncated file can still be described).
struct InfoCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Describe an image from its header: format, size, frames, orientation, depth.")

    @OptionGroup var pluginOptions: PluginOptions

    @Argument(help: "The image file.")
    var file: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    /// The JSON document. `width` and `height` are the stored size, before orientation.
    struct Report: Encodable {
        let format: String
        let width: Int
        let height: Int
        let frames: Int
        let loopCount: Int
        /// The EXIF value, 1...8.
        let orientation: UInt32
        let bitsPerComponent: Int
        let hasAlpha: Bool
        let pixelFormat: String
        let traits: [String]
        /// Each frame's duration in milliseconds; present for animations only.
        var frameDurationsMs: [Int]?

        enum CodingKeys: String, CodingKey {
            case format, width, height, frames, orientation, traits
            case loopCount = "loop_count"
            case bitsPerComponent = "bits_per_component"
            case hasAlpha = "has_alpha"
            case pixelFormat = "pixel_format"
            case frameDurationsMs = "frame_durations_ms"
        }

        init(_ info: ImageInfo) {
            format = info.format
            width = info.width
            height = info.height
            frames = info.frameCount
            loopCount = info.loopCount
            orientation = info.orientation.rawValue
            bitsPerComponent = info.bitsPerComponent
            hasAlpha = info.traits.contains(.hasAlpha)
            pixelFormat = info.decodedPixelFormat.displayName
            traits = info.traits.names
        }
    }

    func run() throws {
        let bytes = try InputFile.read(file)
        let manager = pluginOptions.makeCodersManager()
        let info = try manager.probe(bytes)
        var report = Report(info)
        if info.frameCount > 1, let animation = try? manager.openAnimation(bytes) {
            report.frameDurationsMs = (0..<animation.info.frameCount).map { animation.frameDuration(at: $0) }
        }
        if json {
            try JSONOutput.print(report)
            return
        }
        var size = "\(info.width)x\(info.height)"
        if info.orientation.swapsWidthAndHeight {
            size += " (shown as \(info.orientedWidth)x\(info.orientedHeight))"
        }
        var rows = [
            ("format", report.format),
            ("size", size),
            ("frames", "\(report.frames)"),
            (
                "loop count",
                info.traits.contains(.animated) && report.loopCount == 0 ? "0 (forever)" : "\(report.loopCount)"
            ),
            ("orientation", "\(report.orientation) (\(info.orientation.displayName))"),
            ("pixel format", report.pixelFormat),
            ("alpha", report.hasAlpha ? "yes" : "no"),
            ("bits per component", "\(report.bitsPerComponent)"),
            ("traits", PluginText.list(report.traits)),
        ]
        if let durations = report.frameDurationsMs {
            rows.append(("durations (ms)", durations.map(String.init).joined(separator: ", ")))
        }
        for line in TextLayout.fields(rows) { print(line) }
    }
}
