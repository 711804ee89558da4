import ArgumentParser
import WebImageCore

/// The decode limits of `webimage convert` and `webimage serve` (defaults and meaning in
/// ``DecodeOptions``): pixels, bytes, frames, the bytes an animation's frames may hold, and
/// time. An absent flag is nil: `convert` then takes ``DecodeOptions``'s default, `serve`
/// leaves the configuration file's, the environment's or the server's default value.
package struct DecodeLimitOptions: ParsableArguments {
    package init() {}

    @Option(
        help: ArgumentHelp(
            "Refuse images with more than this many pixels, 0 for no limit (default \(DecodeOptions.defaultMaxPixelCount)).",
            valueName: "n"))
    var maxPixels: Int?

    @Option(
        help: ArgumentHelp(
            "Refuse decodes that need more than this many bytes in all, 0 for no limit (default 1 GiB).",
            valueName: "bytes"))
    var maxBytes: Int?

    @Option(
        help: ArgumentHelp(
            "Refuse animations with more than this many frames, 0 for no limit (default \(DecodeOptions.defaultMaxFrameCount)).",
            valueName: "n"))
    var maxFrames: Int?

    @Option(
        help: ArgumentHelp(
            "Refuse animations whose frames would hold more than this many bytes at once, 0 for no limit "
                + "(default 512 MiB).", valueName: "bytes"))
    var maxAnimationBytes: Int?

    @Option(
        help: ArgumentHelp(
            "Stop a decode (all the frames of an animation together) after this many seconds, 0 for no limit "
                + "(default \(DecodeOptions.defaultTimeLimit.components.seconds)).", valueName: "seconds"))
    var decodeTimeout: Double?

    /// The limits given, by their flag names without `--`; absent flags are left out.
    package var given: [(name: String, value: any CustomStringConvertible)] {
        let limits: [(String, (any CustomStringConvertible)?)] = [
            ("max-pixels", maxPixels), ("max-bytes", maxBytes), ("max-frames", maxFrames),
            ("max-animation-bytes", maxAnimationBytes), ("decode-timeout", decodeTimeout),
        ]
        return limits.compactMap { name, value in value.map { (name, $0) } }
    }

    /// `options` with these limits, ``DecodeOptions``'s defaults for those not given.
    /// - Throws: ``CLIError`` for a negative value.
    package func apply(to options: DecodeOptions) throws -> DecodeOptions {
        for (flag, value) in [
            ("--max-pixels", maxPixels), ("--max-bytes", maxBytes), ("--max-frames", maxFrames),
            ("--max-animation-bytes", maxAnimationBytes),
        ] where (value ?? 0) < 0 {
            throw CLIError("\(flag) must be 0 or more, not \(value ?? 0)")
        }
        let seconds = decodeTimeout ?? Double(DecodeOptions.defaultTimeLimit.components.seconds)
        guard seconds >= 0, seconds.isFinite else {
            throw CLIError("--decode-timeout must be 0 or more seconds, not \(seconds)")
        }
        return options.limited(
            pixels: maxPixels ?? DecodeOptions.defaultMaxPixelCount,
            bytes: maxBytes ?? DecodeOptions.defaultMaxByteCount,
            frames: maxFrames ?? DecodeOptions.defaultMaxFrameCount,
            animationBytes: maxAnimationBytes ?? DecodeOptions.defaultMaxAnimationByteCount, seconds: seconds)
    }
}
