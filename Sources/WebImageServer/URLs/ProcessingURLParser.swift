import FoundationEssentials

/// Parses request paths of the image server (imgproxy's grammar) into ``ProcessingRequest``s.
///
/// A path is `/{signature}/{option}/.../{source}`. Options are the segments before the
/// source, each `name:arg:...`; the source starts at the segment `plain` or at the first
/// segment without a `:` (see ``ProcessingSource``). Options are applied in order after the
/// `default` preset, a preset's options where `preset:NAME...` stands.
public struct ProcessingURLParser: Sendable {
    /// Named option lists, each a path of options (`rs:fill:300:300/q:80`).
    private let presets: [String: [String]]
    /// Whether a URL may carry nothing but presets.
    public let presetsOnly: Bool
    /// The transformer names plugins make, usable as options.
    public let pluginTransformers: Set<String>

    /// A parser with `presets` (name → options joined by `/`; `default` applies to every
    /// request), refusing URLs with anything but presets when `presetsOnly`.
    /// - Parameter pluginTransformers: the names plugins make (``WebImageCore/PluginHost/transformerNames``).
    /// - Throws: ``ProcessingURLError`` `.unknownPreset` naming a preset whose options do not parse.
    public init(
        presets: [String: String] = [:], presetsOnly: Bool = false, pluginTransformers: [String] = []
    ) throws(ProcessingURLError) {
        self.presetsOnly = presetsOnly
        self.pluginTransformers = Set(pluginTransformers)
        var parsed: [String: [String]] = [:]
        for (name, text) in presets {
            let options = text.split(separator: "/").map(String.init)
            var scratch = ProcessingOptions()
            for option in options {
                do throws(ProcessingURLError) {
                    try scratch.apply(option, pluginTransformers: self.pluginTransformers)
                } catch {
                    throw ProcessingURLError(.unknownPreset, "preset '\(name)': \(error.message)")
                }
            }
            parsed[name] = options
        }
        self.presets = parsed
    }

    /// The request `path` (the URL's path, percent-encoding as received, no query) describes.
    /// - Throws: ``ProcessingURLError`` for the first thing that is wrong.
    public func parse(path: String) throws(ProcessingURLError) -> ProcessingRequest {
        guard path.hasPrefix("/") else { throw ProcessingURLError(.malformedPath, "the path does not start with '/'") }
        let (signature, signedPath) = Self.splitSignature(path)
        guard !signature.isEmpty else {
            throw ProcessingURLError(.malformedPath, "the path has no signature segment")
        }
        let segments = signedPath.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .dropFirst().map { String(decoding: $0, as: UTF8.self) }
        var options = ProcessingOptions()
        if let defaults = presets["default"] {
            for option in defaults { try options.apply(option, pluginTransformers: pluginTransformers) }
        }
        var index = 0
        while index < segments.count, segments[index] != ProcessingSource.plainPrefix,
            segments[index].contains(":")
        {
            let option = segments[index]
            if ImgproxyOption.byName[String(option.prefix { $0 != ":" })] == .preset {
                try applyPresets(option, to: &options)
            } else if presetsOnly {
                throw ProcessingURLError(.presetsOnly, "only presets are allowed, not '\(option)'")
            } else {
                try options.apply(option, pluginTransformers: pluginTransformers)
            }
            index += 1
        }
        guard index < segments.count else { throw ProcessingURLError(.malformedPath, "the path has no source") }
        if let empty = segments[index...].firstIndex(where: \.isEmpty), segments[index] != ProcessingSource.plainPrefix
        {
            throw ProcessingURLError(.malformedPath, "the path has an empty segment at position \(empty + 2)")
        }
        let source = try ProcessingSource(segments: Array(segments[index...]))
        return ProcessingRequest(
            signature: signature, signedPath: signedPath, options: options, source: source.url,
            outputExtension: source.fileExtension ?? options.format)
    }

    /// `path` (`/{signature}/...`) cut after its first segment: the signature (without its
    /// leading `/`) and the signed path, which starts at the next `/` (empty when there is
    /// none). Cut on the byte of `/`, so that a combining mark after a slash cannot hide it.
    /// The parser, the signature check of a path that does not parse, and the access log
    /// (which leaves the signature out) all cut here.
    static func splitSignature(_ path: String) -> (signature: String, signedPath: String) {
        let afterSlash = path.utf8.dropFirst()
        let signatureEnd = afterSlash.firstIndex(of: UInt8(ascii: "/")) ?? path.endIndex
        return (String(path[afterSlash.startIndex..<signatureEnd]), String(path[signatureEnd...]))
    }

    /// Applies the presets `option` (`preset:NAME[:NAME...]`) names, in order.
    private func applyPresets(_ option: String, to options: inout ProcessingOptions) throws(ProcessingURLError) {
        let names = option.split(separator: ":", omittingEmptySubsequences: false).dropFirst().map(String.init)
        guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
            throw ProcessingURLError(.invalidArgument, "invalid option '\(option)': expected preset:NAME[:NAME...]")
        }
        for name in names {
            guard let preset = presets[name] else {
                throw ProcessingURLError(.unknownPreset, "unknown preset '\(name)'")
            }
            for part in preset { try options.apply(part, pluginTransformers: pluginTransformers) }
        }
    }
}
