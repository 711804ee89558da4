import ArgumentParser
import WebImageCLISupport
import WebImageCore

/// The decode limits of `webimage convert` (defaults and meaning in ``DecodeOptions``):
/// pixels, bytes, frames, the bytes an animation's frames may hold, and time.
struct DecodeLimitOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Refuse images with more than this many pixels (0: no limit).", valueName: "n"))
    var maxPixels = DecodeOptions.defaultMaxPixelCount

    @Option(
        help: ArgumentHelp(
            "Refuse decodes that need more than this many bytes in all, 1 GiB by default (0: no limit).",
            valueName: "bytes"))
    var maxBytes = DecodeOptions.defaultMaxByteCount

    @Option(help: ArgumentHelp("Refuse animations with more than this many frames (0: no limit).", valueName: "n"))
    var maxFrames = DecodeOptions.defaultMaxFrameCount

    @Option(
        help: ArgumentHelp(
            "Refuse animations whose frames would hold more than this many bytes at once, 512 MiB by default "
                + "(0: no limit).", valueName: "bytes"))
    var maxAnimationBytes = DecodeOptions.defaultMaxAnimationByteCount

    @Option(
        help: ArgumentHelp(
            "Stop a decode (all the frames of an animation together) after this many seconds (0: no limit).",
            valueName: "seconds"))
    var decodeTimeout = Double(DecodeOptions.defaultTimeLimit.components.seconds)

    /// `options` with these limits.
    /// - Throws: ``CLIError`` for a negative value.
    func apply(to options: DecodeOptions) throws -> DecodeOptions {
        for (flag, value) in [
            ("--max-pixels", maxPixels), ("--max-bytes", maxBytes), ("--max-frames", maxFrames),
            ("--max-animation-bytes", maxAnimationBytes),
        ] where value < 0 {
            throw CLIError("\(flag) must be 0 or more, not \(value)")
        }
        guard decodeTimeout >= 0, decodeTimeout.isFinite else {
            throw CLIError("--decode-timeout must be 0 or more seconds, not \(decodeTimeout)")
        }
        return options.limited(
            pixels: maxPixels, bytes: maxBytes, frames: maxFrames, animationBytes: maxAnimationBytes,
            seconds: decodeTimeout)
    }
}
