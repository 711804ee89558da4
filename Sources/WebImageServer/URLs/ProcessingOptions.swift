import WebImageCore

/// What a request's options ask for, after presets, aliases and defaults: the part of a
/// ``ProcessingRequest`` between the signature and the source.
///
/// imgproxy's options (``resize``, ``rotation``, ``blurSigma``, ``background``, ``quality``,
/// ``cacheBuster``) each set one field, a later option overriding an earlier one, so their
/// order in the URL does not matter; this project's transformers (``transformers``) run in
/// the URL's order after them.
public struct ProcessingOptions: Sendable, Equatable {
    /// The resize; ``ResizeOptions/init()`` (no resize) by default.
    public var resize = ResizeOptions()
    /// Clockwise rotation in degrees: 0 (default), 90, 180 or 270.
    public var rotation = 0
    /// Gaussian blur's standard deviation in pixels; nil (default) for none.
    public var blurSigma: Double?
    /// Colour under transparent pixels; nil (default) for the encoder's own.
    public var background: RGBAColor?
    /// Encoding quality, 1...100; nil (default) for the encoder's default.
    public var quality: Int?
    /// Output format by extension (`png`, `webp`, ...), lowercased; nil (default) to negotiate.
    /// An extension on the source overrides it.
    public var format: String?
    /// A string that changes the cache key only; nil by default.
    public var cacheBuster: String?
    /// Built-in and plugin transformers, in the URL's order.
    public var transformers: [TransformerSpec] = []

    public init() {}

    /// The options as one string, the same for every spelling of the same request: aliases
    /// resolved, defaults left out, imgproxy's options in a fixed order
    /// (`rs`, `rot`, `bl`, `bg`, `q`, `cb`), then the transformers in order, joined by `/`.
    /// The output format is not part of it (``ProcessingRequest/outputExtension``).
    /// Empty when nothing is asked for.
    public var canonical: String {
        var parts: [String] = []
        if !resize.canonical.isEmpty { parts.append(resize.canonical) }
        if rotation != 0 { parts.append("rot:\(rotation)") }
        if let blurSigma { parts.append("bl:" + TransformerKeyNumber.format(blurSigma)) }
        if let background {
            let hex = [background.red, background.green, background.blue].map { byte in
                (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }
            parts.append("bg:" + hex.joined())
        }
        if let quality { parts.append("q:\(quality)") }
        if let cacheBuster { parts.append("cb:\(cacheBuster)") }
        parts += transformers.map(Self.canonical(of:))
        return parts.joined(separator: "/")
    }

    /// A transformer's canonical form: a built-in one's transformer key (`Tint(#FF0000FF)`),
    /// a plugin's `name:k=v,...` as given.
    private static func canonical(of spec: TransformerSpec) -> String {
        if spec.isBuiltIn, let transformer = try? spec.makeBuiltIn() { return transformer.transformerKey }
        return ([spec.name] + spec.arguments).joined(separator: ":")
    }
}
