import Logging

/// Chooses a coder for each image, like SDWebImage's coders manager.
///
/// Choosing: coders whose magic signatures match the first bytes come first, then
/// coders that declare no signatures; within each group the higher priority wins, and on
/// a tie the coder registered later wins. The first candidate whose own `canDecode`
/// accepts the bytes is used. Plugins are loaded only when they become a candidate, and
/// a plugin that fails to load, or whose worker cannot answer, is skipped; when no other
/// coder decodes the bytes, the error names it. A worker that cannot answer is logged at
/// each call; a plugin that cannot be opened is logged once, by its host.
public final class CodersManager: Sendable {
    /// Best candidate first (higher priority, then registered later): kept in that order as
    /// coders register, so that choosing one, for every image, sorts nothing.
    private let entries = TrackedMutex<[CoderRegistration]>([])
    let logger: Logger

    /// - Parameter logger: where skipped plugins are reported. Default label `webimage.coders`.
    public init(logger: Logger = Logger(label: "webimage.coders")) {
        self.logger = logger
    }

    /// Registers an in-process coder.
    ///
    /// - Parameters:
    ///   - priority: higher wins over other candidates; default 0.
    ///   - signatures: magic patterns that select this coder before asking `canDecode`;
    ///     default none (the coder is asked after all coders whose signatures matched).
    ///   - extensions: file extensions per format name, for choosing an encoder by file name.
    public func register(
        _ coder: any ImageCoder, priority: Int = 0, signatures: [MagicSignature] = [],
        extensions: [String: [String]] = [:]
    ) {
        let formats = coder.formats.map { (name: $0.name, extensions: extensions[$0.name] ?? [$0.name]) }
        register(
            name: coder.formats.first?.name ?? "coder", priority: priority, formats: formats,
            signatures: signatures, resolve: { coder })
    }

    /// Registers a coder that is created (or loaded) the first time it is a candidate.
    func register(
        name: String, priority: Int, formats: [(name: String, extensions: [String])], signatures: [MagicSignature],
        resolve: @escaping @Sendable () throws -> any ImageCoder
    ) {
        entries.withLock { entries in
            let entry = CoderRegistration(
                name: name, priority: priority, order: entries.count, formats: formats, signatures: signatures,
                resolve: resolve)
            let index = entries.firstIndex { ($0.priority, $0.order) < (entry.priority, entry.order) } ?? entries.count
            entries.insert(entry, at: index)
        }
    }

    /// Names of the registered coders, best candidate first.
    public var coderNames: [String] { rankedEntries().map(\.name) }

    /// The coder that decodes `bytes`.
    /// - Throws: ``ImageCodingError``: `.unsupportedFormat` when no coder does and none was
    ///   skipped; when a coder whose signature matches the bytes could not be loaded or could
    ///   not answer, that coder's `.pluginCrashed`, `.timedOut` or `.pluginDisabled`, else
    ///   `.pluginUnavailable`. The message names every coder skipped and why, and what the
    ///   bytes look like (never the bytes): their format or text, their size, and the
    ///   `servedAs` media type (the response's `Content-Type`) when there is one (default nil).
    public func coder(for bytes: UnsafeRawBufferPointer, servedAs contentType: String? = nil) throws
        -> any ImageCoder
    {
        let ranked = rankedEntries()
        let matching = ranked.filter { $0.matchesSignature(bytes) }
        let undeclared = ranked.filter { $0.signatures.isEmpty }
        var skipped: [(entry: CoderRegistration, error: any Error)] = []
        for entry in matching + undeclared {
            do {
                let coder = try entry.resolve()
                if try coder.answerCanDecode(bytes) { return coder }
            } catch {
                logSkipped(entry, error)
                skipped.append((entry, error))
            }
        }
        let start = ContentSniffer.describe(bytes, servedAs: contentType)
        guard let first = skipped.first(where: { $0.entry.matchesSignature(bytes) }) else {
            let reasons = skipped.map { "\($0.entry.name) (\($0.error))" }.joined(separator: ", ")
            throw ImageCodingError(
                .unsupportedFormat,
                "not an image the loaded coders decode (\(start))" + (skipped.isEmpty ? "" : "; skipped: \(reasons)"))
        }
        let others = skipped.filter { $0.entry.name != first.entry.name }.map { "\($0.entry.name) (\($0.error))" }
        let kind: ImageCodingError.Kind
        switch (first.error as? ImageCodingError)?.kind {
        case .pluginCrashed?: kind = .pluginCrashed
        case .timedOut?: kind = .timedOut
        case .pluginDisabled?: kind = .pluginDisabled
        default: kind = .pluginUnavailable
        }
        throw ImageCodingError(
            kind,
            "coder '\(first.entry.name)' could not be used for this data (\(start)): \(first.error)"
                + (others.isEmpty ? "" : "; also skipped: \(others.joined(separator: ", "))"))
    }

    /// The coder for a format name or file extension (`png`, `jpg`, ...), for encoding.
    /// - Throws: ``ImageCodingError`` `.unsupportedFormat` when none handles it.
    public func coder(forFormat format: String) throws -> (coder: any ImageCoder, format: ImageFormat) {
        for entry in rankedEntries() where entry.handles(format: format) {
            guard let coder = resolve(entry) else { continue }
            let wanted = format.lowercased()
            let name = entry.formats.first { $0.name == wanted || $0.extensions.contains(wanted) }?.name ?? wanted
            if let imageFormat = coder.format(named: name) { return (coder, imageFormat) }
        }
        throw ImageCodingError(.unsupportedFormat, "no coder handles the format '\(format)'")
    }

    /// The format a format name or file extension (`png`, `jpg`, ...) names when a coder
    /// encodes it (and, when `animation` is true, encodes animations in it); nil otherwise,
    /// and for an empty name.
    public func encodableFormat(_ format: String, animation: Bool = false) -> ImageFormat? {
        guard !format.isEmpty, let found = try? coder(forFormat: format).format,
            found.capabilities.contains(animation ? .encodeAnimation : .encode)
        else { return nil }
        return found
    }

    private func rankedEntries() -> [CoderRegistration] {
        entries.withLock { $0 }
    }

    private func resolve(_ entry: CoderRegistration) -> (any ImageCoder)? {
        do {
            return try entry.resolve()
        } catch {
            logSkipped(entry, error)
            return nil
        }
    }

    /// Logs a coder skipped for `error`, unless it is a ``PluginFault``: a plugin that cannot
    /// be opened is reported once by its ``PluginHost`` (its faults and log), not at every use.
    private func logSkipped(_ entry: CoderRegistration, _ error: any Error) {
        guard !(error is PluginFault) else { return }
        logger.warning("skipping coder \(entry.name): \(error)")
    }
}
