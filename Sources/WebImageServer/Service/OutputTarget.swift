import WebImageCore

/// The output format of a request: the one its extension names, or one negotiated from
/// `Accept` once the source is decoded (``FormatNegotiation``).
struct OutputTarget: Sendable {
    /// The format the extension named; nil to negotiate.
    let named: ImageFormat?
    let negotiation: FormatNegotiation

    /// The target of `fileExtension` (nil: negotiate with `accept`).
    /// - Throws: ``ServiceFailure`` 400 when no coder encodes that extension.
    init(extension fileExtension: String?, accept: String?, service: ImageService) throws(ServiceFailure) {
        negotiation = FormatNegotiation(accept: accept, offersAVIF: service.configuration.enableAVIF)
        guard let fileExtension else {
            named = nil
            return
        }
        guard let format = service.manager.coders.encodableFormat(fileExtension) else {
            throw ServiceFailure(400, "unsupported output format '\(fileExtension)'")
        }
        named = format
    }

    /// True when the format depends on `Accept` (the answer then says `Vary: Accept`).
    var isNegotiated: Bool { named == nil }

    /// The part of the result's cache key that says its format: the named format, or what
    /// the client accepts.
    var keyPart: String { named?.name ?? negotiation.keyPart }

    /// The format to encode an image of `sourceFormat` in.
    func format(
        sourceFormat: String, isAnimated: Bool, hasAlpha: @autoclosure () -> Bool, coders: CodersManager
    ) throws(ServiceFailure) -> ImageFormat {
        if let named { return named }
        let name = negotiation.format(
            sourceFormat: sourceFormat, isAnimated: isAnimated, hasAlpha: hasAlpha(), coders: coders)
        guard let format = try? coders.coder(forFormat: name).format else {
            throw ServiceFailure(500, "no coder encodes \(name)")
        }
        return format
    }
}
