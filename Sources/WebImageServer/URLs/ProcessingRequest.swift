import FoundationEssentials

/// A request path of the image server, in imgproxy's grammar, taken apart:
/// `/{signature}/{option}/.../{source}` where the source is `plain/{percent-encoded URL}[@ext]`
/// or the URL in URL-safe base64, possibly split by `/`, with `[.ext]`.
/// ``ProcessingURLParser`` makes it.
public struct ProcessingRequest: Sendable, Equatable {
    /// The first segment, which ``ImageURLSigner/verify(signature:path:)`` checks.
    public var signature: String
    /// Everything after the signature segment, its leading `/` included: what is signed.
    public var signedPath: String
    /// The options, presets expanded (the `default` preset first).
    public var options: ProcessingOptions
    /// The image to process; http or https.
    public var source: URL
    /// The output format's extension, lowercased (`png`, `webp`): the source's extension, else
    /// the `format` option; nil when the format is to be negotiated.
    public var outputExtension: String?

    public init(
        signature: String, signedPath: String, options: ProcessingOptions, source: URL, outputExtension: String?
    ) {
        self.signature = signature
        self.signedPath = signedPath
        self.options = options
        self.source = source
        self.outputExtension = outputExtension
    }

    /// ``ProcessingOptions/canonical`` of ``options``: with the source URL and the output
    /// format it makes the cache key; the signature is no part of it.
    public var canonicalOptions: String { options.canonical }
}
